/**
 * A consolidated pull: the same listing, with the same filters, from several
 * of the owner's companies (connections) into one sheet whose first columns
 * are the company and its connection. Rows are keyed by connection and record
 * id, so two companies' record 17 never collide; each company keeps its own
 * place (pager state), so a run resumes per company across executions; a
 * company that fails stops alone, its rows keep their last good values and the
 * sheet stays marked incomplete; Empresa follows the connection's name.
 */
import type { BillingClient } from '../../api/client';
import { RateLimitedError } from '../../api/errors';
import { bounded } from '../bounds';
import type { SheetPort } from '../sheets/sheet-port';
import type { CellValue } from '../sheets/table';
import { type Companies, type LeadSheet, oneCompany, type Walker } from './companies';
import { blocks, LEAD_COLUMNS } from './layout';
import { type CompanySpec, type CompanyState, type ImportDeps, type ImportState, transient } from './state';
import { plural } from '../../api/words';

/** What failed, company by company, in words for Histórico and the report's card. */
export function failureText(names: ReadonlyArray<{ name: string; message?: string }>): string {
  const parts = names.map((c) => `"${c.name}": ${bounded(c.message ?? 'falhou', 300).replace(/\.+$/, '')}`);
  return bounded(
    `${names.length === 1 ? 'Uma empresa falhou' : plural(names.length, 'empresa falhou', 'empresas falharam')} — ${parts.join('; ')}. As linhas dessas empresas ficaram com os valores da última atualização boa, e a aba ficou marcada como incompleta.`,
    1500,
  );
}

/** Writes each row's company name (column `nameColumn`) from its connection id (column `idColumn`) where the name shown is not the current one. */
function renameRows(sheet: SheetPort, nameColumn: number, idColumn: number, names: ReadonlyMap<string, string>): void {
  const last = sheet.lastRow();
  if (last < 2) return;
  const connections = sheet.read(2, idColumn, last - 1, 1);
  const shown = sheet.read(2, nameColumn, last - 1, 1);
  const stale = new Map<number, CellValue[]>();
  connections.forEach(([id], i) => {
    const name = names.get(String(id));
    if (name !== undefined && shown[i][0] !== name) stale.set(i + 2, [name]);
  });
  for (const rows of blocks([...stale.keys()], 1))
    sheet.write(
      rows[0],
      nameColumn,
      rows.map((r) => stale.get(r) as CellValue[]),
    );
}

const NO_CONNECTION = 'Este relatório consolidado não tem nenhuma conexão de quem o executa: adicione conexões em Faturamento › Conexões.';

/** Several companies into one sheet; `state.companies` holds where each stands. */
function consolidated(state: ImportState, deps: ImportDeps, specs: readonly CompanySpec[]): Companies {
  const key = (connection: unknown, id: unknown) => (id === '' ? '' : `${String(connection)}|${String(id)}`);
  // Where each company stands, once a step may walk (see `ready`).
  const places = () => state.companies as CompanyState[];
  const connectionsOf = (report: LeadSheet, rows: number) => report.sheet.read(2, report.positions[1], rows, 1).map(([id]) => id);
  const named = (list: readonly Walker[]) => list.map((w) => ({ name: (w.company as CompanySpec).name, message: w.place.message }));
  return {
    lead: LEAD_COLUMNS,
    ready: () => state.companies !== undefined,
    keyColumns: 2,
    rows: (report, ids) => {
      const connections = connectionsOf(report, ids.length);
      const untouched = new Set(specs.filter((c, i) => c.mode === 'merge' || places()[i].status === 'failed').map((c) => c.id));
      return ids.map((id, i) => ({ key: key(connections[i], id), untouched: untouched.has(String(connections[i])) }));
    },
    others: (report, rows) => {
      const ids = new Set(specs.map((c) => c.id));
      return connectionsOf(report, rows).some((id) => id !== '' && !ids.has(String(id)));
    },
    writing: (company) => {
      const { id, name } = company as CompanySpec;
      return {
        cells: [name, id],
        key: (record) => key(id, record),
        // Snapshots of what was pulled (for pushing edits back) are kept for one-company sheets only.
        wrote: (records) => {
          state.rows += records.length;
        },
      };
    },
    // Empresa is the connection's name at this run: rows this run did not write follow it, on every sheet alike.
    renaming: (report, children) => {
      const names = new Map(specs.map((c) => [c.id, c.name]));
      const sheets = children();
      const rows = (sheet: SheetPort) => Math.max(sheet.lastRow() - 1, 0);
      return {
        reads: 2 * [report.sheet, ...sheets].reduce((n, sheet) => n + rows(sheet), 0),
        run: () => {
          renameRows(report.sheet, report.positions[0], report.positions[1], names);
          // Child sheets lay Empresa and the connection's id out first.
          for (const sheet of sheets) renameRows(sheet, 1, 2, names);
        },
      };
    },
    walkers: () =>
      places().map(
        (place, i): Walker => ({
          company: specs[i],
          place,
          filters: specs[i].filters,
          // A connection the owner deleted fails here, alone: the others go on.
          client: () => (deps.clientFor as (id: string) => BillingClient)(specs[i].id),
        }),
      ),
    rest: (walker, err, text) => {
      walker.place.message =
        err instanceof RateLimitedError
          ? 'O serviço pediu uma pausa. A empresa continua na próxima etapa, de onde parou.'
          : `O serviço não respondeu a tempo (${text}). A empresa tenta de novo na próxima etapa, de onde parou.`;
    },
    failure: (err, failures, text) => (transient(err) ? `O serviço não respondeu em ${plural(failures, 'tentativa', 'tentativas seguidas')} (${text}).` : text),
    warning: (walker, text) => `${(walker.company as CompanySpec).name}: ${text}`,
    waiting: (running) => {
      const waiting = running.flatMap((w) => (w.place.message ? [`${(w.company as CompanySpec).name}: ${w.place.message}`] : []));
      return waiting.length ? bounded(waiting.join(' '), 2000) : undefined;
    },
    failed: (failed) => (failed.length ? failureText(named(failed)) : NO_CONNECTION),
  };
}

/** How a run's companies are walked and written: several into one sheet when the spec names them, else the report's own connection. */
export function companiesOf(state: ImportState, deps: ImportDeps): Companies {
  return state.spec.companies ? consolidated(state, deps, state.spec.companies) : oneCompany(state, deps);
}
