/**
 * Counting this execution's share of the daily quotas into the user's
 * properties: UrlFetch requests as the transport sends them, and, for the
 * hourly run, its runtime. One property write per execution that fetched.
 */
import { type DailyUsage, UsageStore } from '../core/usage';
import { executionStarted } from './execution-limit';
import { spreadsheetTimeZone, userStore } from './services';

let fetched = 0;

/** Called by the transport for every request it sends. */
export function countFetches(n: number): void {
  fetched += n;
}

export function usageStore(): UsageStore {
  const zone = spreadsheetTimeZone();
  return new UsageStore(userStore(), () => Utilities.formatDate(new Date(), zone, 'yyyy-MM-dd'));
}

/** Adds what this execution spent; `trigger` counts its runtime too (the hourly run). */
export function recordUsage(options: { trigger?: boolean; stopped?: string } = {}): DailyUsage | null {
  const triggerMs = options.trigger ? Date.now() - executionStarted() : 0;
  if (fetched === 0 && triggerMs === 0 && !options.stopped) return null;
  const usage = usageStore().add(fetched, triggerMs, options.stopped);
  fetched = 0;
  return usage;
}
