/** Builds or refreshes any dashboard: the Fechamento has its own layout, the other kinds share one. */
import { refreshClosing } from './closing-refresh';
import { type DashboardDeps, refreshDashboard } from './refresh';
import type { Dashboard } from './store';

export function buildDashboard(deps: DashboardDeps, d: Dashboard): Dashboard {
  return d.kind === 'fechamento' ? refreshClosing(deps, d) : refreshDashboard(deps, d);
}
