/**
 * The end of a run, in parts that each fit an execution: rows whose record
 * did not come (a full refresh), then each child sheet's orphans, then the
 * company names and the incomplete marks. `state.settled` holds the parts
 * done, so a settling that does not fit one step goes on with the next part
 * in the next step; the incomplete mark is lifted only by the last part.
 */
import { brDateTime, isDate } from '../../api/calendar';
import { dropOrphans } from '../sheets/child-sheet';
import { resultColumns } from '../sheets/sheet-layout';
import { CALL_MS, CELL_READ_MS, fits } from '../deadline';
import type { ChildSheets } from './children';
import type { Companies } from './companies';
import { blocks, markDone } from './layout';
import type { ReportSheet } from './report-sheet';
import { FINISH_CALLS, type ImportDeps, type ImportState } from './state';

/** The sheets a step's writer opened, which its settling works on. */
export interface Sheets {
  readonly report: ReportSheet;
  readonly children: ChildSheets;
  readonly companies: Companies;
}

/** Rows apart that the sweep still reads in one block: fewer calls for a few cells more. */
const SUSPECT_GAP = 20;

/** One part of the settling, and what it may cost at its worst. */
interface SettlingPart {
  name: string;
  costMs: number;
  run: () => void;
}

/** The rows of the report sheet that are not a current record's: a stale "Recebido em", no key, or a key seen above. */
function suspects(state: ImportState, report: ReportSheet, companies: Companies, last: number): number[] {
  // Only the key and "Recebido em" columns are read whole (a whole 200,000-row sheet would not fit an execution).
  const ids = report.column(report.idIndex, last - 1);
  const stamps = report.column(report.columns.length - 1, last - 1);
  const seen = new Set<string>();
  const out: number[] = [];
  companies.rows(report, ids).forEach(({ key, untouched }, i) => {
    const stamp = stamps[i];
    // A consolidated sheet's rows of a company that failed or was refreshed incrementally stay as they are.
    const fresh = untouched || (isDate(stamp) && Math.abs(stamp.getTime() - state.startedAt) < 1000);
    if (key === '' || seen.has(key) || !fresh) out.push(i + 2);
    seen.add(key);
  });
  return out;
}

/**
 * After a full pull, rows whose record did not come this run (or a second
 * row with the same key) are not records of the report any more. Without
 * cells of the user they are deleted as whole rows, so nothing below loses
 * its row; with the user's cells they stay, marked in a note, so nothing
 * the user typed is lost or attached to another record.
 */
function sweep(state: ImportState, deps: ImportDeps, report: ReportSheet, companies: Companies, last: number): void {
  const { sheet, positions, columns, idIndex } = report;
  if (last < 2) return;
  const rows = suspects(state, report, companies, last);
  if (rows.length === 0) return;
  // A row is read across (for the user's cells) only when it is not a current record's.
  const width = Math.max(sheet.lastColumn(), ...positions);
  // A bulk run's results beside a record (Status do lote, ID da NFS-e…) are the add-on's, not the user's notes: they go with it.
  const ours = new Set([...positions, ...resultColumns(sheet.readNotes(1, 1, width))]);
  const gone: number[] = [];
  const kept: number[] = [];
  for (const group of blocks(rows, SUSPECT_GAP)) {
    const first = group[0];
    const values = sheet.read(first, 1, group[group.length - 1] - first + 1, width);
    for (const r of group) {
      const row = values[r - first];
      if (positions.every((p) => row[p - 1] === '')) continue;
      const userCells = row.some((v, c) => !ours.has(c + 1) && v !== '');
      (userCells ? kept : gone).push(r);
    }
  }
  if (kept.length) {
    const when = brDateTime(deps.zone.wall(new Date(state.startedAt)));
    // Noted before the rows above them go: a note moves up with its row.
    for (const row of kept) {
      // Not received any more: a blank "Recebido em" keeps the row out of every panel until its record comes again.
      sheet.write(row, positions[columns.length - 1], [['']]);
      sheet.setNote(
        row,
        positions[idIndex],
        `Este registro não veio na atualização completa de ${when}. A linha ficou porque tem anotações suas; apague-a quando não precisar mais.`,
      );
    }
    state.warnings.push(
      `${kept.length} linha(s) de registros que não vieram nesta atualização ficaram na aba porque têm anotações suas (veja a nota na coluna ${columns[idIndex].label}).`,
    );
  }
  for (const rows of blocks(gone, 1).reverse()) sheet.deleteRows(rows[0], rows.length);
}

/** The orphans of each child sheet an earlier run wrote, dropped: after the sweep, the report sheet's keys are read once for all. */
function orphanParts(state: ImportState, { report, children, companies }: Sheets, rows: number): SettlingPart[] {
  let keys: Set<string> | undefined;
  return children.tables.flatMap((child) => {
    const sheet = children.existing(child);
    if (!sheet) return [];
    const childRows = Math.max(sheet.lastRow() - 1, 0);
    const costMs = (rows * companies.keyColumns + childRows * (companies.lead.length + 1)) * CELL_READ_MS + FINISH_CALLS * CALL_MS;
    const run = () => {
      keys ??= report.keys();
      const left = dropOrphans(sheet, children.laidOut(child, sheet).length, keys, companies.lead.length);
      const entry = state.children[child.field];
      if (entry) entry.rows = left;
    };
    return [{ name: `child:${child.field}`, costMs, run }];
  });
}

/** Company names brought up to date, and (unless some company failed) the incomplete marks lifted everywhere. */
function marksPart(state: ImportState, { report, children, companies }: Sheets): SettlingPart {
  const renaming = companies.renaming(report, () => children.tables.flatMap((child) => children.existing(child) ?? []));
  const lift = () => {
    // Some company failed: its rows keep their last good values, and the sheets stay marked incomplete.
    if (state.partial) return;
    for (const child of children.tables) {
      const sheet = children.existing(child);
      if (sheet) markDone(sheet, children.laidOut(child, sheet));
    }
  };
  return {
    name: 'marks',
    costMs: renaming.reads * CELL_READ_MS + (FINISH_CALLS + 2 * children.tables.length) * CALL_MS,
    run: () => {
      lift();
      renaming.run();
      if (!state.partial) markDone(report.sheet, report.columns, report.positions);
    },
  };
}

/** The parts of this run's settling: sweeping only a full refresh, or a consolidated sheet that holds a company no longer named. */
function settlingParts(state: ImportState, deps: ImportDeps, sheets: Sheets, settled: readonly string[]): SettlingPart[] {
  const { report, companies } = sheets;
  const rows = Math.max(report.sheet.lastRow() - 1, 0);
  const sweeping = state.spec.mode === 'replace' || (settled.length > 0 ? settled.includes('sweep') : rows > 0 && companies.others?.(report, rows));
  const sweepCost = rows * (companies.keyColumns + 1) * CELL_READ_MS + FINISH_CALLS * CALL_MS;
  return [
    // The sweep is the first part: the rows counted here are the sheet's when it runs.
    ...(sweeping
      ? [{ name: 'sweep', costMs: sweepCost, run: () => sweep(state, deps, report, companies, rows + 1) }, ...orphanParts(state, sheets, rows)]
      : []),
    marksPart(state, sheets),
  ];
}

/** A settling part estimated under this is redone after a kill rather than flushed on its own. */
const REDO_MS = 10_000;

/**
 * Settles rows whose record did not come, and lifts the incomplete mark.
 * With a `limit`, only the parts that fit before it are done (the first one
 * always when `mustProgress`); returns whether the settling is complete.
 */
export function settle(state: ImportState, deps: ImportDeps, sheets: Sheets, limit?: number, mustProgress?: boolean): boolean {
  const settled = (state.settled ??= []);
  let first = true;
  for (const part of settlingParts(state, deps, sheets, settled)) {
    if (settled.includes(part.name)) continue;
    if (!(mustProgress && first) && !fits(deps.now(), part.costMs, limit)) return false;
    part.run();
    settled.push(part.name);
    first = false;
    // A kill in a later part does not undo this one. A part cheap to redo is saved without its own flush (half a
    // second): it reaches the document with the next one, and a kill before that only repeats the part.
    deps.checkpoint?.(state, part.costMs >= REDO_MS);
  }
  return true;
}
