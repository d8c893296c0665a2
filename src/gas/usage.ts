/**
 * Counting this execution's share of the daily quotas into the user's
 * properties: UrlFetch requests as the transport sends them, and, for the
 * hourly run, its runtime as Google counts it, from the trigger's firing: the
 * start-up before the first line included. One property write per execution
 * that fetched.
 */
import { type AccountKind, type DailyUsage, UsageStore } from '../core/hourly/usage';
import { COST_FIGURES } from './cost-model';
import { executionStarted } from './execution-limit';
import { takeFetches } from './fetch-count';
import { userStore } from './services';

export function usageStore(): UsageStore {
  return new UsageStore(userStore(), () => Date.now());
}

/** Runtime of this execution so far: from the trigger's firing when known, else from the first line plus the model's worst start-up. */
function runtimeMs(firedAt: number | null | undefined): number {
  if (firedAt != null) return Date.now() - firedAt;
  return Date.now() - executionStarted() + COST_FIGURES.pessimistic.startupMs;
}

/**
 * Adds what this execution spent; `trigger` counts its runtime too (the hourly run), from `firedAt` when its
 * event told it. `account`, found this quota day, is kept with the day's count.
 */
export function recordUsage(
  options: { trigger?: boolean; firedAt?: number | null; stopped?: string; alongside?: Record<string, string>; account?: AccountKind } = {},
): DailyUsage | null {
  const triggerMs = options.trigger ? runtimeMs(options.firedAt) : 0;
  const fetched = takeFetches();
  if (fetched === 0 && triggerMs === 0 && !options.stopped) return null;
  return usageStore().add(fetched, triggerMs, options.stopped, options.alongside, options.account);
}
