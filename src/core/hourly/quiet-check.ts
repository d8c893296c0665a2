/**
 * An hourly report whose listing stays as it was is settled without opening
 * its spreadsheet. Opening a spreadsheet by id costs about as much as all the
 * rest of a quiet hour's work there, and an office's hourly reports are quiet
 * most hours: so once a day's first visit has compared a report's sheet cell
 * by cell with its listing (unchanged-run.ts), the owner's agenda keeps, for
 * the rest of that day, what that check asked and a digest of what came back.
 * A later hour asks the same again: the same digest, and the document is
 * left closed and due the next hour; anything else (a record changed, added
 * or gone, a failure, a new day, other work due there, the company paused, a
 * run asked from the Central) opens it as before.
 *
 * What this gives up, until the listing's next change or the next day's first
 * visit: what a person does in the sheet (a cell of ours edited, rows deleted
 * or sorted, the tab renamed or deleted) is put back or noticed then, not
 * within the hour; a report a colleague took over or deleted is still asked
 * for by the owner's run; its panels keep the day's first "Atualizado em"; and
 * its card in the document keeps the day's first check, while Relatórios and
 * the Central show its owner the last one.
 */
import type { FilterValues } from '../../api/filters';
import type { ListingKey } from '../../api/operations';
import type { Zone } from '../../api/calendar';
import type { Report } from '../reports/reports';
import { dayOf, termsOf } from './quiet-mark';

import { nextRun } from '../reports/schedule';
import { nextDueAt, type StoredWork } from './dispatch';

/** One report the agenda may settle without opening its spreadsheet. */
export interface QuietReport {
  id: string;
  connectionId: string;
  listing: ListingKey;
  filters: FilterValues;
  walk: { base: 0 | 1; pages: number };
  records: string;
  /** The schedule's period in hours. */
  hours: number;
}

/** What the agenda keeps of a document whose due work is only quiet hourly reports, for one day. */
export interface QuietRecord {
  day: string;
  zone: string;
  /** When anything else of the document is next due (null: nothing else is scheduled nor unfinished). */
  othersAt: number | null;
  reports: QuietReport[];
  /** The last time the listings were asked and found as they were (without opening the document). */
  checkedAt?: number;
}

const periodOf = (r: Report): number | null => (r.schedule?.kind === 'hourly' ? 1 : r.schedule?.kind === 'everyHours' ? r.schedule.hours : null);

/** A report the agenda may settle: hourly, one company, its last run the check of `day` with its terms as they are. */
function quietReport(r: Report, day: string): QuietReport | null {
  const mark = r.lastWalk?.quiet;
  const hours = periodOf(r);
  if (!mark || hours === null || !r.lastWalk || !r.connectionId || r.companies || r.incremental) return null;
  if (mark.day !== day || mark.terms !== termsOf(r) || r.lastRun?.result !== 'ok' || r.pausedUntil) return null;
  return {
    id: r.id,
    connectionId: r.connectionId,
    listing: r.listing,
    filters: mark.filters,
    walk: { base: r.lastWalk.base, pages: r.lastWalk.pages },
    records: mark.records,
    hours,
  };
}

/**
 * What the agenda keeps of the owner's `work` in a document visited at `now`: its hourly reports checked today, and
 * when anything else there is next due; undefined when none can be settled so.
 */
export function quietRecord(work: StoredWork, now: number, zone: Zone): QuietRecord | undefined {
  const day = dayOf(now, zone);
  const reports = work.reports.map((r) => quietReport(r, day)).filter((q): q is QuietReport => q !== null);
  if (reports.length === 0) return undefined;
  const quiet = new Set(reports.map((q) => q.id));
  const othersAt = nextDueAt({ ...work, reports: work.reports.filter((r) => !quiet.has(r.id)) }, zone);
  return { day, zone: zone.timeZone, othersAt, reports };
}

/** Why the document must be opened this hour rather than settled from its record; null when it may be settled. */
export function mustOpen(record: QuietRecord, now: number, zone: Zone, paused: ReadonlySet<string>, asked: boolean): string | null {
  if (dayOf(now, zone) !== record.day) return 'um novo dia';
  if (record.othersAt !== null && record.othersAt <= now) return 'outro trabalho devido';
  if (asked) return 'atualização pedida na Central';
  if (record.reports.some((q) => paused.has(q.connectionId))) return 'empresa pausada';
  return null;
}

/** When the document is next due after its quiet reports were found as they were at `now`. */
export function nextAfterQuiet(record: QuietRecord, now: number, zone: Zone): number {
  const times = record.reports.map((q) => nextRun({ kind: 'everyHours', hours: q.hours }, new Date(now), zone).getTime());
  if (record.othersAt !== null) times.push(record.othersAt);
  return Math.min(...times);
}

/** When a quiet report's schedule next comes after it was found as it was at `checkedAt`. */
export function quietReportNext(q: Pick<QuietReport, 'hours'>, checkedAt: number, zone: Zone): number {
  return nextRun({ kind: 'everyHours', hours: q.hours }, new Date(checkedAt), zone).getTime();
}

/**
 * What the owner's agenda says of `reportId` since its card's last run at `cardAt`: when it last found the listing as
 * it was, without opening the document, and when the report's schedule next comes; null when it says nothing newer.
 */
export function quietSeen(
  entry: { quiet?: QuietRecord } | undefined,
  reportId: string,
  cardAt: number,
  zone: Zone,
): { checkedAt: number; next: number } | null {
  const checkedAt = entry?.quiet?.checkedAt;
  const q = entry?.quiet?.reports.find((r) => r.id === reportId);
  return checkedAt !== undefined && checkedAt > cardAt && q ? { checkedAt, next: quietReportNext(q, checkedAt, zone) } : null;
}

/** Whether two records say the same of a document but for when they were last checked. */
export function sameQuiet(a: QuietRecord, b: QuietRecord): boolean {
  const { checkedAt: _a, ...x } = a;
  const { checkedAt: _b, ...y } = b;
  return JSON.stringify(x) === JSON.stringify(y);
}
