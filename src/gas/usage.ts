/**
 * Counting this execution's share of the daily quotas into the user's
 * properties: UrlFetch requests as the transport sends them, and, for the
 * hourly run, its runtime. One property write per execution that fetched.
 */
import { type DailyUsage, UsageStore } from '../core/hourly/usage';
import { executionStarted } from './execution-limit';
import { takeFetches } from './fetch-count';
import { userStore } from './services';

export function usageStore(): UsageStore {
  return new UsageStore(userStore(), () => Date.now());
}

/** Adds what this execution spent; `trigger` counts its runtime too (the hourly run). */
export function recordUsage(options: { trigger?: boolean; stopped?: string; alongside?: Record<string, string> } = {}): DailyUsage | null {
  const triggerMs = options.trigger ? Date.now() - executionStarted() : 0;
  const fetched = takeFetches();
  if (fetched === 0 && triggerMs === 0 && !options.stopped) return null;
  return usageStore().add(fetched, triggerMs, options.stopped, options.alongside);
}
