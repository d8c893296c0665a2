/**
 * The Central as the running user reads it, from the sidebar or the hourly
 * run: their connections (each organization once), their signatures, the work
 * around each company from their properties; and the hourly run's share of a
 * Central that refreshes itself.
 */
import { UserError } from '../api/user-error';
import { type CentralDeps, currentJob, startCentral, stepCentral } from '../core/central/refresh';
import { CentralScheduleStore, colleagueRefreshing } from '../core/central/schedule';
import { centralSheet } from '../core/central/sheet';
import type { CentralCompany } from '../core/central/store';
import { distinctOrganizations } from '../core/connections/organizations';
import type { Phase } from '../core/hourly/dispatch';
import { workOf } from '../core/hourly/work-index';
import { AgendaStore } from '../core/hourly/agenda';
import type { SignedStore } from '../core/trust/seal';
import { dashboardBookPort } from './dashboard-port';
import { organizationOf } from './deps';
import { executionLimit } from './execution-limit';
import { clientFor, connectionStore, currentUser, documentStore, spreadsheetTimeZone, userStore } from './services';
import { userWorkIndex } from './work-index';
import { gasZone } from './zone';

/** The running user's companies: their connections, each organization once (the first connection of each kept). */
export function centralCompanies(identify: boolean): CentralCompany[] {
  const ask = organizationOf(gasZone(spreadsheetTimeZone()));
  const all = connectionStore()
    .list()
    .map((c) => {
      const organization = ask(c.id, identify);
      return organization ? { connectionId: c.id, name: c.name, organization } : { connectionId: c.id, name: c.name };
    });
  return distinctOrganizations(all).kept;
}

/** The Central of this spreadsheet as the running user reads it: their connections, their signatures. */
export function centralDeps(
  ss: GoogleAppsScript.Spreadsheet.Spreadsheet = SpreadsheetApp.getActiveSpreadsheet(),
  doc: SignedStore = documentStore(ss),
): CentralDeps {
  const zone = gasZone(spreadsheetTimeZone(ss));
  const user = currentUser();
  const connections = connectionStore().list();
  // One read of the user's properties serves every row; the agenda adds the hours settled without opening a spreadsheet.
  const index = userWorkIndex();
  const agenda = new AgendaStore(userStore()).read() ?? {};
  return {
    store: doc,
    clientFor: (id) => {
      const connection = connections.find((c) => c.id === id);
      if (!connection) throw new UserError('A conexão desta empresa foi removida: atualize a Central.');
      return clientFor(connection, { zone });
    },
    now: () => Date.now(),
    zone,
    user: { id: user.id, email: user.email },
    sheet: () => centralSheet(dashboardBookPort(ss)),
    work: (id) => {
      const w = workOf(index, id, agenda, gasZone);
      return { ...w, lastRun: w.lastRun && { ...w.lastRun, message: w.lastRun.message ?? '' } };
    },
  };
}

/**
 * The hourly run's share of the Central (dispatch.ts), in a document whose owner asked it to refresh itself: a new
 * refresh of only what changed when the last one is done, else the unfinished one goes on, until `until`.
 */
export function centralPhase(ss: GoogleAppsScript.Spreadsheet.Spreadsheet, doc: SignedStore): Phase {
  let done = false;
  // Companies done (read or found unchanged) after the last step: a step that adds none has not moved.
  let companiesDone = -1;
  return {
    pending: () => !done,
    step(until) {
      const deps = centralDeps(ss, doc);
      const schedule = new CentralScheduleStore(doc).get();
      if (!schedule || schedule.owner.id !== deps.user.id) {
        done = true;
        return false;
      }
      const job = currentJob(deps);
      // A colleague is refreshing from their sidebar: the schedule waits for the next run.
      if (colleagueRefreshing(job, deps.user, deps.now())) {
        done = true;
        return false;
      }
      const ours = job && job.owner.id === deps.user.id && job.competencia === schedule.competencia && !job.finishedAt;
      // Organizations are asked in the sidebar's refresh: asking every hour again for a key the service refuses only costs time.
      if (!ours) startCentral(deps, { competencia: schedule.competencia, companies: centralCompanies(false), onlyChanged: true });
      const r = stepCentral(deps, { deadline: until, limit: executionLimit() });
      done = r.done;
      const moved = r.done || r.progress.done > companiesDone;
      companiesDone = r.progress.done;
      return moved;
    },
  };
}
