/**
 * A scheduled refresh that finds the listing exactly as the sheet already
 * holds it writes nothing. Most hourly refreshes of an office's reports bring
 * back what the last one wrote; writing it again costs the run's whole
 * machinery (the sheet marked incomplete, every block and checkpoint saved,
 * the settling), most of an hour's trigger time in a document of many
 * reports. So before a due report starts its run, its listing is fetched
 * (within two round trips) and set against the sheet's cells, row by key: when
 * every record is on its row with every cell of ours as the run would write it,
 * the header is ours and nothing else is there, the run is recorded on the
 * report's card as done without changes and the sheet is left alone (Histórico
 * keeps the runs that wrote the sheet or failed, not one line an hour for each
 * report that stayed the same). Anything else (a record changed, added or gone,
 * a cell of ours the person edited, a header renamed, child items, more than
 * two round trips of pages) starts the usual run, which rewrites it all: from
 * the pages the check read, when it read the listing to its end.
 *
 * "Recebido em" is not compared and stays: as after an incremental refresh, it
 * says when the row's data last came, which it still is.
 */
import { isDate } from '../../api/calendar';
import type { BillingClient } from '../../api/client';
import type { ApiRecord } from '../../api/envelopes';
import type { FilterValues } from '../../api/filters';
import type { PageResult } from '../../api/paging';
import { type ListingKey, listing } from '../../api/operations';
import { CHILD_TAG, childTagValue } from '../sheets/child-sheet';
import { reportColumns } from '../pull/layout';
import { lookAtSheet, type SheetLook } from '../pull/start';
import type { InHand } from '../pull/state';
import { WAVE_REQUESTS } from '../pull/wave-share';
import type { Report } from '../reports/reports';
import { backoff } from '../reports/run-backoff';
import type { RunDeps } from '../runs/deps';
import { planPull } from '../runs/plan-pull';
import { matches } from '../sheets/sheet-filters';
import type { SheetPort } from '../sheets/sheet-port';
import { CellConverter, type CellValue, childRowCount, recordRow, tableSpec } from '../sheets/table';
import { runTargetProblem } from '../trust/targets';
import { dayOf, recordsDigest, termsOf } from './quiet-mark';

/** Round trips the check may spend before it leaves the report to its usual run. */
const MAX_WAVES = 2;
/** Pages the last walk may have read for the check to read them all, with one more page, in its round trips. */
const MAX_PAGES = MAX_WAVES * WAVE_REQUESTS - 1;

const UNCHANGED_NOTE = 'Sem mudanças: a aba já tinha exatamente estes dados, e nada foi reescrito.';

/** A report the check can settle: one company, pulled whole, whose last run ended well and left nothing behind. */
function eligible(deps: RunDeps, report: Report): boolean {
  return (
    report.sheetId !== undefined &&
    !report.companies &&
    !report.incremental &&
    report.lastRun?.result === 'ok' &&
    !report.lastRun.warnings?.length &&
    // A longer listing would not end within the check's round trips: they would only read its first pages twice.
    (report.lastWalk?.pages ?? 0) <= MAX_PAGES &&
    !deps.jobs.has(report.id)
  );
}

/** The whole listing for `filters` as read in at most MAX_WAVES round trips, or null (more pages, a warning, a failure). */
function listingNow(client: BillingClient, report: Report, filters: FilterValues): InHand | null {
  return listingAsWalked(client, report.listing, filters, report.lastWalk);
}

/**
 * The whole of `listingKey` for `filters` as read through `client` in at most MAX_WAVES round trips, walked as `last`
 * says the last good pull walked it; null when it has more pages, a warning or a gap.
 */
export function listingAsWalked(client: BillingClient, listingKey: ListingKey, filters: FilterValues, last?: { base: 0 | 1; pages: number }): InHand | null {
  // The last walk's numbering and length, one page more to see the end: a listing as long as it was comes in one round trip.
  // Were the numbering no longer so, records would be missing and the sheet would not match: the usual run then goes.
  const walk = client.walk(listingKey, filters, last ? { base: last.base, firstPages: last.pages + 1 } : {});
  const pages: PageResult[] = [];
  for (let wave = 0; wave < MAX_WAVES && !walk.pager.done; wave++) pages.push(...walk.pager.nextWave());
  const pager = walk.pager.state;
  return pager.done && !pager.incomplete && walk.pager.warnings.length === 0 ? { listing: listingKey, filters, pages, pager } : null;
}

/**
 * What the check read, for the run that goes after it, when it is surely the whole listing. A walk on the last walk's
 * numbering misses the first page of a service that now numbers from 0 where it numbered from 1, and nothing in the
 * pages read says so unless the service counted the listing (fewer records than counted warn). Numbered from 0, a
 * service that now numbers from 1 answers page 0 with an error, nothing (no records: never handed on) or page 1's
 * records (repeated: the walk stops incomplete). Uncounted and numbered from 1, page 0 is asked, in one round trip:
 * the numbering is what a run's first wave would make of it and the check's page 1.
 */
function forTheRun(client: BillingClient, report: Report, fetched: InHand): InHand | undefined {
  const [first] = fetched.pages;
  if (!first) return undefined;
  if (fetched.pager.totalRows !== undefined || fetched.pager.base !== 1 || report.lastWalk === undefined) return fetched;
  try {
    const probe = client.walk(report.listing, fetched.filters);
    const zero = client.listPage(report.listing, fetched.filters, 0);
    probe.pager.takeWave([0, 1], [zero, { ok: true, list: { records: first.records, paging: first.paging, messages: [] } }]);
    return probe.pager.state.base === 1 ? fetched : undefined;
  } catch {
    return undefined;
  }
}

/** A cell as the sheet gives it back against the value the run would write there. */
function sameCell(cell: unknown, value: CellValue): boolean {
  if (isDate(value)) return isDate(cell) && cell.getTime() === value.getTime();
  return cell === value;
}

/** Whether the looked-at `sheet` holds exactly `records`, each on the row of its key, under our header. */
function holds(sheet: SheetPort, look: SheetLook, report: Report, idField: string, records: readonly ApiRecord[], conv: CellConverter): boolean {
  const columns = reportColumns(report.listing, { cardData: report.cardData });
  // "Recebido em", last, is not compared.
  const fields = columns.slice(0, -1);
  const found = columns.map((c) => look.columns.get(c.key));
  if (found.some((p) => p === undefined)) return false;
  const positions = found as number[];
  const last = sheet.lastRow();
  if (last - 1 !== records.length) return false;
  const cells = sheet.read(1, 1, last, Math.max(...positions));
  // The incomplete mark is on our first column's header: a label that is not ours.
  if (columns.some((c, i) => cells[0][positions[i] - 1] !== c.label)) return false;
  const idAt = fields.findIndex((c) => c.key === idField);
  const rows = new Map<string, unknown[]>();
  for (const row of cells.slice(1)) rows.set(String(row[positions[idAt] - 1]), row);
  if (rows.size !== records.length) return false;
  return records.every((record) => {
    const values = recordRow(fields, record, conv);
    const row = rows.get(String(values[idAt]));
    return row !== undefined && values.every((v, i) => sameCell(row[positions[i] - 1], v));
  });
}

/** What the check found: the report saved as unchanged; else, for the usual run, the listing when the check read it whole. */
export type RefreshCheck = { unchanged: Report; inHand?: undefined } | { unchanged: null; inHand?: InHand };

const LEFT_TO_THE_RUN: RefreshCheck = { unchanged: null };

/**
 * Settles a due report without a run when its sheet already holds what its
 * listing returns now: the check is recorded as the report's last run, and the
 * report is returned as saved. Null when the usual run must go.
 */
export function unchangedRun(deps: RunDeps, report: Report): Report | null {
  return checkRefresh(deps, report).unchanged;
}

/**
 * The check of a due report (see unchangedRun): when the usual run must go and
 * the check read the listing to its end, what it read goes to the run, which
 * then asks the service for none of it again.
 */
export function checkRefresh(deps: RunDeps, report: Report): RefreshCheck {
  if (!eligible(deps, report)) return LEFT_TO_THE_RUN;
  const look = lookAtSheet(deps.book, report, { cardData: report.cardData });
  const { sheet } = look;
  if (!sheet || runTargetProblem(sheet, report) !== null) return LEFT_TO_THE_RUN;
  // Deleted or taken over by a colleague since this run read it: the usual run meets that at its first save and stops.
  if (deps.stillStored && !deps.stillStored(report)) return LEFT_TO_THE_RUN;
  const startedAt = deps.now();
  // What the run would ask for: one company pulled whole, so the look decides nothing here.
  const asked = planPull(report, { at: startedAt, zone: deps.zone, sheet: look }).spec;
  const spec = tableSpec(listing(report.listing));
  // Child items are written to sheets of their own: a report that has any is left to its usual run.
  const ofThisSheet = childTagValue(sheet.id, '');
  if (spec.children.length && deps.book.tagged(CHILD_TAG).some((t) => t.value.startsWith(ofThisSheet))) return LEFT_TO_THE_RUN;
  const client = deps.clientFor(report.connectionId ?? '').withLimit(deps.limit);
  let fetched: InHand | null;
  try {
    fetched = listingNow(client, report, asked.filters);
  } catch {
    // The usual run meets the same failure and reports it as it always does.
    return LEFT_TO_THE_RUN;
  }
  if (!fetched) return LEFT_TO_THE_RUN;
  const all = fetched.pages.flatMap((page) => page.records);
  const differs = (): RefreshCheck => ({ unchanged: null, inHand: forTheRun(client, report, fetched) });
  if (spec.children.some((child) => childRowCount(child, all) > 0)) return differs();
  const conditions = asked.sheetFilters ?? [];
  const records = conditions.length ? all.filter((r) => matches(conditions, r)) : all;
  const conv = new CellConverter(deps.zone);
  if (!holds(sheet, look, report, spec.idField, records, conv) || conv.cuts.length) return differs();
  const finishedAt = deps.now();
  const summary = {
    startedAt,
    finishedAt,
    origin: 'agendado' as const,
    rows: records.length,
    durationMs: finishedAt - startedAt,
    result: 'ok' as const,
    message: UNCHANGED_NOTE,
    incremental: false,
  };
  const { note: _none, ...pause } = backoff(report, 'ok', 'agendado', finishedAt, false);
  // Histórico keeps the runs that wrote the sheet or failed; a check that found it as it was is on the report's card only.
  // The rest of the day may settle this report from the agenda without opening the spreadsheet (quiet-check.ts).
  const quiet = { day: dayOf(startedAt, deps.zone), terms: termsOf(report), filters: asked.filters, records: recordsDigest(fetched) };
  const lastWalk = report.lastWalk && { base: report.lastWalk.base, pages: report.lastWalk.pages, quiet };
  const saved = deps.reports.save({ ...report, ...pause, lastRun: summary, lastSuccessStart: startedAt, ...(lastWalk ? { lastWalk } : {}) });
  deps.afterReportRun?.(saved);
  return { unchanged: saved };
}
