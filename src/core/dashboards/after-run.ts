/**
 * The hook a report run calls when it finishes with data (ok or partial). Kept
 * apart from the refresh itself: every report run passes here, and only a run
 * that feeds a dashboard loads the refresh code (a lazy chunk of the bundle,
 * dev/build/lazy-chunks.ts).
 */
import { isSealed } from '../trust/seal';
import { type DashboardDeps, refreshOnRun } from './refresh';
import { readsReport } from './store';

/** Time a dashboard refresh is given at least: 50,000 charges take about 35 s at the pessimistic cost model (npm run bench). */
export const REFRESH_RESERVE_MS = 60_000;

/**
 * Refreshes the running user's dashboards built on that report. A dashboard
 * that cannot refresh says so on its sheet; the report's run is never failed
 * by it. Past `until` (epoch ms: the execution's limit less a refresh's
 * reserve, and less what its kind needs beyond that) a dashboard is not
 * started, so a kill never leaves it half written.
 */
export function afterReportRun(deps: DashboardDeps, reportId: string, ownerId: string, until = Number.POSITIVE_INFINITY): void {
  for (const d of deps.dashboards.list()) {
    // Only as its owner saved it: one changed in the hidden sheet could name any sheet to draw on.
    if (d.owner?.id !== ownerId || !isSealed(d) || !readsReport(d, reportId)) continue;
    try {
      refreshOnRun(deps, d, until);
    } catch {
      // A sheet the refresh could not write (deleted mid-run, a quota): the next run tries again.
    }
  }
}
