/**
 * A consolidated pull: the same listing, with the same filters, from several
 * of the owner's companies (connections) into one sheet whose first column is
 * the company. Each wave asks every company still walking for its next pages
 * in the same round trips (one `fetchAll`, the usual wave size shared between
 * them). Each company keeps its own place (pager state), so a run resumes per
 * company across executions and writes each record exactly once; a company
 * that fails stops alone, its rows keep their last good values and the sheet
 * stays marked incomplete.
 */
import { type Walk, waveAcross } from '../api/client';
import type { ApiRecord } from '../api/envelopes';
import { RateLimitedError } from '../api/errors';
import { bounded } from './bounds';
import { StepBudget, writeCostMs } from './deadline';
import {
  ASSUMED_PAGE_ROWS,
  type CompanySpec,
  type CompanyState,
  cancelImport,
  DEFAULT_FLUSH_ROWS,
  FINISH_CALLS,
  failureMessage,
  type ImportDeps,
  type ImportState,
  SETTLING_GOES_ON,
  isRetryable,
  MAX_TRANSIENT_FAILURES,
  type StepOptions,
  transient,
  Writer,
} from './import-job';
import { listing } from '../api/operations';
import { tableSpec } from './table';

/** Requests in one round trip, whoever they go to: the same waves as one company's pull. */
export const WAVE_REQUESTS = 10;

/**
 * How many pages each walking company asks in the next wave: the wave's
 * requests shared out in turn, never more than a company has left. A company
 * not started yet asks its first two pages together (they tell the
 * numbering), or waits for the next wave.
 */
export function shareWave(wants: ReadonlyArray<{ pages: number; first: boolean }>, total = WAVE_REQUESTS): number[] {
  const out = wants.map(() => 0);
  let left = total;
  wants.forEach((w, i) => {
    if (w.first && w.pages > 0 && left >= 2) {
      out[i] = 2;
      left -= 2;
    }
  });
  // Stryker disable next-line ConditionalExpression,EqualityOperator: with no requests left the pass below gives nothing and stops the loop.
  for (let moved = true; moved && left > 0; ) {
    moved = false;
    wants.forEach((w, i) => {
      if (w.first || left === 0 || out[i] >= w.pages) return;
      out[i] += 1;
      left -= 1;
      moved = true;
    });
  }
  return out;
}

/** What failed, company by company, in words for Histórico and the report's card. */
export function failureText(names: ReadonlyArray<{ name: string; message?: string }>): string {
  const parts = names.map((c) => `"${c.name}": ${bounded(c.message ?? 'falhou', 300).replace(/\.+$/, '')}`);
  return bounded(
    `${names.length === 1 ? 'Uma empresa falhou' : `${names.length} empresas falharam`} — ${parts.join('; ')}. As linhas dessas empresas ficaram com os valores da última atualização boa, e a aba ficou marcada como incompleta.`,
    1500,
  );
}

interface Walking {
  index: number;
  company: CompanySpec;
  state: CompanyState;
  walk: Walk;
  buffer: ApiRecord[];
}

/** Fails one company's walk (or counts one more time the service did not answer: true, it rests until the next step). */
function failCompany(w: Walking, err: unknown, wrote: boolean): boolean {
  const text = bounded((err as Error)?.message ?? String(err), 500);
  const failures = wrote ? 1 : (w.state.transientFailures ?? 0) + 1;
  if (transient(err) && failures < MAX_TRANSIENT_FAILURES) {
    // Not a failure yet: this company tries again in the next step, from what it wrote.
    w.state.transientFailures = failures;
    w.state.message =
      err instanceof RateLimitedError
        ? `O serviço pediu uma pausa. A empresa continua na próxima etapa, de onde parou.`
        : `O serviço não respondeu a tempo (${text}). A empresa tenta de novo na próxima etapa, de onde parou.`;
    return true;
  }
  w.state.status = 'failed';
  w.state.retryable = isRetryable(err);
  w.state.transientFailures = 0;
  w.state.message = transient(err)
    ? `O serviço não respondeu em ${failures} tentativas seguidas (${text}).`
    : bounded((err as Error)?.message ?? String(err), 500);
  return false;
}

/**
 * Runs shared waves until every company's listing ended or failed, or the
 * deadline nears. Returns the new state; the caller persists it.
 */
export function stepConsolidated(state: ImportState, deps: ImportDeps, options: StepOptions): ImportState {
  if (state.status !== 'running' || !state.spec.companies || !state.companies) return state;
  const specs = state.spec.companies;
  const next: ImportState = {
    ...state,
    children: { ...state.children },
    warnings: [...state.warnings],
    steps: state.steps + 1,
    companies: state.companies.map((c) => ({ ...c })),
    ...(state.settled ? { settled: [...state.settled] } : {}),
  };
  for (const [k, v] of Object.entries(next.children)) next.children[k] = { ...v };
  const companies = next.companies as CompanyState[];
  const flushRows = deps.flushRows ?? DEFAULT_FLUSH_ROWS;
  let writer: Writer;
  try {
    writer = new Writer(next, deps);
  } catch (err) {
    return { ...next, status: 'failed', message: failureMessage(err), updatedAt: deps.now() };
  }
  const walking: Walking[] = [];
  companies.forEach((cs, index) => {
    if (cs.status !== 'running') return;
    const company = specs[index];
    try {
      // A connection the owner deleted fails here, alone: the others go on.
      const client = (deps.clientFor ?? (() => deps.client))(company.id);
      const walk = client.walk(next.spec.listing, company.filters, { state: cs.pager ?? undefined, base: options.base });
      walking.push({ index, company, state: cs, walk, buffer: [] });
    } catch (err) {
      failCompany({ index, company, state: cs, walk: undefined as never, buffer: [] }, err, false);
    }
  });
  const table = tableSpec(listing(next.spec.listing));
  const width = 2 + table.columns.length + table.children.reduce((n, c) => n + 2 + c.columns.length, 0);
  const buffered = () => walking.reduce((n, w) => n + w.buffer.length, 0);
  const flush = () => {
    let wrote = false;
    for (const w of walking) {
      if (w.buffer.length === 0) continue;
      writeCompany(writer, next, w);
      w.state.pager = w.walk.pager.state;
      w.state.transientFailures = 0;
      wrote = true;
    }
    if (!wrote) return;
    next.updatedAt = deps.now();
    deps.checkpoint?.(next);
  };
  const budget = new StepBudget(deps.now, options);
  for (const w of walking) w.state.message = undefined;
  const resting = new Set<Walking>();
  const active = () => walking.filter((w) => w.state.status === 'running' && !w.walk.pager.done && !resting.has(w));
  try {
    for (let wave = active(); wave.length > 0; wave = active()) {
      const shares = shareWave(wave.map((w) => ({ pages: w.walk.pager.nextWaveSize, first: w.walk.pager.state.base === undefined })));
      const asking = wave.filter((_, i) => shares[i] > 0);
      const pages = asking.reduce((n, w) => n + w.walk.pager.nextWaveSize * (w.walk.pager.state.pageSize ?? ASSUMED_PAGE_ROWS), 0);
      const reserve = writeCostMs(buffered() + pages, width, FINISH_CALLS);
      const began = budget.startWave(reserve);
      if (began === null) break;
      for (const w of asking) w.walk.client.withLimit(budget.requestLimit(reserve));
      const outcomes = waveAcross(asking.map((w) => ({ walk: w.walk, max: shares[wave.indexOf(w)] })));
      outcomes.forEach((outcome, k) => {
        const w = asking[k];
        if (!outcome.ok) {
          // What arrived before the failure was fetched within the plan: it is written, the rest waits or fails.
          const wrote = w.buffer.length > 0;
          if (wrote && transient(outcome.error)) flushOne(writer, next, w);
          if (failCompany(w, outcome.error, wrote)) resting.add(w);
          return;
        }
        for (const page of outcome.pages) {
          next.pages += 1;
          w.state.pages += 1;
          for (const r of page.records) w.buffer.push(r);
        }
        const total = w.walk.pager.state.totalRows;
        if (total !== undefined) w.state.totalRows = total;
      });
      budget.waveEnded(began);
      const told = next.totalRows !== undefined;
      next.totalRows = companies.every((c) => c.totalRows !== undefined) ? companies.reduce((n, c) => n + (c.totalRows ?? 0), 0) : undefined;
      // Refused up front when the companies together announce more rows than the spreadsheet can take.
      if (!told && next.totalRows !== undefined)
        writer.expect(
          next.totalRows,
          walking.flatMap((w) => w.buffer),
        );
      if (buffered() >= flushRows) flush();
      if (active().length > 0 && deps.cancelRequested?.()) {
        flush();
        return { ...cancelImport(next), updatedAt: deps.now() };
      }
    }
    flush();
  } catch (err) {
    // A write failed (a sheet deleted mid-run, the cell limit): the whole run stops here, as one company's would.
    return { ...next, status: 'failed', retryable: false, message: failureMessage(err), updatedAt: deps.now() };
  }
  for (const w of walking) {
    for (const text of w.walk.pager.warnings) {
      const warning = `${w.company.name}: ${text}`;
      if (!next.warnings.includes(warning)) next.warnings.push(warning);
    }
    if (w.state.status !== 'running' || !w.walk.pager.done) continue;
    const incomplete = w.walk.pager.state.incomplete;
    if (incomplete) {
      w.state.status = 'failed';
      w.state.message = `Importação incompleta: ${incomplete}`;
    } else w.state.status = 'done';
  }
  next.updatedAt = deps.now();
  // As in a single company's run: the parts of the settling that fit, the first one at least when no page came this step.
  return settle(next, writer, options.limit, next.pages === state.pages);
}

/** Writes a company's buffered records (those "Filtros na planilha" keep are counted as its rows). */
function writeCompany(writer: Writer, next: ImportState, w: Walking): void {
  const before = next.rows;
  writer.write(w.buffer, w.company);
  w.state.rows += next.rows - before;
  w.buffer = [];
}

function flushOne(writer: Writer, next: ImportState, w: Walking): void {
  try {
    writeCompany(writer, next, w);
    w.state.pager = w.walk.pager.state;
  } catch {
    // The write failed as well: the next step fetches those pages again.
  }
  w.buffer = [];
}

/** Once no company is walking: done (partial when some failed), or failed when all did. */
function settle(next: ImportState, writer: Writer, limit: number | undefined, mustProgress: boolean): ImportState {
  const companies = next.companies as CompanyState[];
  const specs = next.spec.companies as CompanySpec[];
  if (companies.some((c) => c.status === 'running')) {
    const waiting = companies.flatMap((c, i) => (c.status === 'running' && c.message ? [`${specs[i].name}: ${c.message}`] : []));
    next.message = waiting.length ? bounded(waiting.join(' '), 2000) : undefined;
    return next;
  }
  const failed = companies.flatMap((c, i) => (c.status === 'failed' ? [{ name: specs[i].name, message: c.message }] : []));
  if (companies.length === 0) {
    next.status = 'failed';
    next.message = 'Este relatório consolidado não tem nenhuma conexão de quem o executa: adicione conexões em Faturamento › Conexões.';
    return next;
  }
  if (failed.length === companies.length) {
    next.status = 'failed';
    next.retryable = companies.some((c) => c.retryable);
    next.message = failureText(failed);
    return next;
  }
  next.partial = failed.length ? failureText(failed) : undefined;
  if (!writer.finish(limit, mustProgress)) {
    next.message = SETTLING_GOES_ON;
    return next;
  }
  next.message = next.partial;
  next.status = 'done';
  return next;
}
