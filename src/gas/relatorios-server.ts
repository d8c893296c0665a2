/**
 * Server side of the Relatórios sidebar: the document's reports as cards,
 * running one, scheduling, deleting, taking over or re-pointing it, and
 * today's quota. Every change to stored reports happens under the document
 * lock.
 */
import { type ListOperation, listings } from '../api/operations';
import { tableSpec } from '../core/sheets/table';
import { describeSheetFilter } from '../core/sheets/sheet-filters';
import { beginRun } from '../core/runs/begin';
import { pullJobStore } from '../core/runs/deps';
import type { RunProgress } from '../core/runs/progress';
import { ALL_COMPANIES_LABEL, type Report, type ReportView } from '../core/reports/reports';
import { describeSchedule, nextRun, type Schedule, scheduleProblems } from '../core/reports/schedule';
import { childSheetName } from '../core/sheets/sheet-names';
import { IDLE_MS } from '../core/hourly/dispatch';
import { notYours, type OwnershipCheck } from '../core/trust/owners';
import type { SignedStore } from '../core/trust/seal';
import { organizationOf, reportStore, runDeps } from './deps';
import { describeOrganization } from '../core/connections/organizations';
import { dashboardDeps } from './dashboard-port';
import { reportChangedCompany, reportDeleted } from '../core/dashboards/refresh';
import { SnapshotStore } from '../core/bulk/snapshot';
import { syncDispatcher } from './dispatcher';
import { withDocumentLock } from './lock';
import { type FormOutcome, formOutcome, outcome } from './outcome';
import { ownJob, ownReport, who, withWarning } from './runs-server';
import { connectionStore, documentId, documentView, spreadsheetTimeZone, userStore } from './services';
import { type AgendaEntry, AgendaStore } from '../core/hourly/agenda';
import { quietSeen } from '../core/hourly/quiet-check';
import { QUIET_NOTE } from '../core/hourly/quiet-mark';
import { showSidebar } from './ui';
import { gasZone } from './zone';
import { usageStore } from './usage';
import { QUOTAS } from '../core/hourly/usage';
import { accountKind } from './account';
import { bounded } from '../core/bounds';
import { RESULT_LABEL } from '../core/run-state';

export function showReports(): void {
  showSidebar('Relatorios', 'Relatórios');
}
export function runReport(reportId: string, full = false): RunProgress {
  const w = who();
  const started = withDocumentLock(() => {
    const deps = runDeps();
    return beginRun(deps, ownReport(w, deps.reports.get(reportId)), 'manual', ownJob(w, deps, reportId), { full: full === true }).progress;
  });
  return withWarning(started, syncDispatcher());
}

/** The companies a consolidated report pulls, by name: the viewer's own connections when it is theirs, else as last run. */
function companyNames(r: Report, own: ReadonlyArray<{ id: string; name: string }>): string[] {
  if (r.companies?.all) return [ALL_COMPANIES_LABEL];
  const names = new Map(own.map((c) => [c.id, c.name]));
  const found = (r.companies?.ids ?? []).map((id) => names.get(id));
  // A colleague's report names their connections: shown as saved.
  return found.every((n) => n !== undefined) ? (found as string[]) : [bounded(r.connection, 500)];
}

/** Builds report views with one read of the time zone; `doc` read once (`documentView`) makes the jobs' one read too. */
function viewer(doc: SignedStore, check: OwnershipCheck): (r: Report) => ReportView {
  const connections = connectionStore()
    .list()
    .map((c) => ({ id: c.id, name: c.name }));
  const timeZone = spreadsheetTimeZone();
  const zone = gasZone(timeZone);
  const jobs = pullJobStore(doc);
  // The tab's name now: the report knows its sheet by id, and users rename tabs.
  const names = new Map(
    SpreadsheetApp.getActiveSpreadsheet()
      .getSheets()
      .map((s) => [s.getSheetId(), s.getName()]),
  );
  const formatWhen = (ms: number) => Utilities.formatDate(new Date(ms), timeZone, 'dd/MM/yyyy HH:mm');
  // The later hours the owner's agenda settled without opening the document (core/hourly/quiet-check.ts).
  const agendaEntry = ownAgendaEntry();
  return (r) => {
    const quiet = r.lastRun && check.report(r) ? quietSeen(agendaEntry, r.id, r.lastRun.finishedAt ?? r.lastRun.startedAt, zone) : null;
    const quietAt = quiet?.checkedAt ?? null;
    const op = listings[r.listing] as ListOperation;
    const next = r.schedule ? nextRun(r.schedule, new Date(r.scheduleSince ?? r.createdAt), zone) : null;
    // Paused until a run succeeds: no "próxima" to show; paused for a while: the next is when the pause ends.
    const paused = r.pausedUntil === Number.MAX_SAFE_INTEGER;
    const due = quiet ? quiet.next : next && !paused ? Math.max(next.getTime(), r.pausedUntil ?? 0) : null;
    return {
      id: r.id,
      name: r.name,
      listing: r.listing,
      listingLabel: op.label,
      connection: r.connection,
      companies: r.companies ? companyNames(r, connections) : null,
      owner: r.owner?.email ?? null,
      mine: check.report(r),
      disowned: check.altered(r),
      sheetName: (r.sheetId !== undefined && names.get(r.sheetId)) || r.sheetName,
      childSheets: tableSpec(op).children.map((c) => childSheetName(r.sheetName, c)),
      filters: r.filters,
      sheetFilters: (r.sheetFilters ?? []).map((f) => describeSheetFilter(f, tableSpec(op).columns)),
      incremental: r.incremental,
      schedule: r.schedule,
      scheduleText: r.schedule
        ? `${describeSchedule(r.schedule)}${paused ? ' · pausado até uma atualização bem-sucedida: corrija o erro e clique em "Atualizar"' : ''}`
        : 'sem agendamento',
      // A due time already past runs at the next hourly run, not at a time gone by.
      nextRunAt: due === null ? null : due <= Date.now() ? 'na próxima hora' : formatWhen(due),
      notifyByEmail: r.notifyByEmail,
      orphaned: !r.companies && !connections.some((c) => c.name === r.connection),
      connections: connections.map((c) => c.name),
      // A failure that continuing cannot get past (a refused key, a bad filter) is not offered "Continuar"; a cancelled run is.
      canContinue: ((job) => Boolean(job && (job.state.status === 'running' || job.state.status === 'cancelled' || job.state.retryable)))(
        jobs.has(r.id) ? jobs.get(r.id) : null,
      ),
      lastRun: r.lastRun
        ? {
            at: formatWhen(quietAt ?? r.lastRun.finishedAt ?? r.lastRun.startedAt),
            origin: r.lastRun.origin,
            rows: r.lastRun.rows,
            seconds: Math.round(r.lastRun.durationMs / 100) / 10,
            result: r.lastRun.result,
            label: RESULT_LABEL[r.lastRun.result],
            message: quietAt !== null ? QUIET_NOTE : [r.lastRun.message, ...(r.lastRun.warnings ?? [])].filter(Boolean).join(' '),
          }
        : null,
    };
  };
}

/** The running user's agenda entry for this document. */
function ownAgendaEntry(): AgendaEntry | undefined {
  return new AgendaStore(userStore()).read()?.[documentId(SpreadsheetApp.getActiveSpreadsheet())];
}

export interface UsageView {
  fetches: number;
  fetchLimit: number;
  triggerMinutes: number;
  triggerLimit: number;
  /** Why scheduled updates stopped today, when they did. */
  stopped?: string;
}

/** Today's share of Google's daily quotas spent by this add-on for this user (shown in Relatórios). */
export function getUsage(): UsageView {
  const u = usageStore().get();
  const quota = QUOTAS[accountKind(u)];
  return {
    fetches: u.fetches,
    fetchLimit: quota.fetches,
    triggerMinutes: Math.round(u.triggerMs / 60_000),
    triggerLimit: quota.triggerMs / 60_000,
    stopped: u.stopped,
  };
}

export function listReports(): ReportView[] {
  const doc = documentView();
  return reportStore(doc).list().map(viewer(doc, who().check));
}

/** Any editor may delete a report of the document (its sheet is theirs to delete too); its owner's trigger then forgets it. */
export function deleteReport(reportId: string): ReportView[] {
  const w = who();
  return withDocumentLock(() => {
    const doc = documentView();
    const store = reportStore(doc);
    const sheetId = store.find(reportId)?.sheetId;
    store.delete(reportId);
    pullJobStore(doc).delete(reportId);
    // What its pulls kept for pushing edits goes with it, unless another report still writes that sheet.
    if (sheetId !== undefined && !store.list().some((r) => r.sheetId === sheetId)) new SnapshotStore(doc).forget(sheetId);
    reportDeleted(dashboardDeps(doc), reportId);
    w.owners.forget(w.documentId, { reports: [reportId] });
    syncDispatcher({ doc });
    return store.list().map(viewer(doc, w.owners.checker(w.me, w.documentId)));
  });
}

/** "Trocar conexão" on a report whose connection is gone: one of the running user's own, who then owns it (see takeOverReport). */
export function setReportConnection(reportId: string, connection: string): FormOutcome<ReportView> {
  const found = outcome(() => connectionStore().get(connection || undefined));
  if (!found.ok) return { ...found, field: 'connection' };
  return takeOverReport(reportId, found.value.id);
}

export function setReportSchedule(reportId: string, schedule: Schedule | null, notifyByEmail: boolean): FormOutcome<ReportView> {
  if (schedule) {
    const problems = scheduleProblems(schedule);
    if (problems.length) return { ok: false, field: 'schedule', message: problems.join(' ') };
  }
  return formOutcome(() => {
    const w = who();
    return withDocumentLock((): FormOutcome<ReportView> => {
      const doc = documentView();
      const store = reportStore(doc);
      const current = store.get(reportId);
      if (!w.check.report(current)) return { ok: false, field: 'schedule', message: notYours(`O relatório "${current.name}"`, current.owner) };
      const report = store.save({ ...current, schedule, notifyByEmail: Boolean(notifyByEmail), scheduleSince: Date.now() });
      let warning: string | undefined;
      try {
        warning = syncDispatcher({ doc, strictAgenda: true });
      } catch (err) {
        // A schedule the owner's agenda has no room for would never run: the report goes back as it was, and the save is refused.
        store.save(current);
        throw err;
      }
      const check = w.owners.checker(w.me, w.documentId);
      return { ok: true, value: { ...viewer(doc, check)(report), ...(warning ? { warning } : {}) } };
    });
  });
}

/**
 * Takes a report over: the running user becomes its owner and it runs with
 * one of their own connections from now on. Nothing changes hands any other
 * way. Not while a run of it is going: that run carries the old owner's key.
 */
export function takeOverReport(reportId: string, connectionId: string, companyConfirmed = false): FormOutcome<ReportView> {
  const taken = formOutcome(() => {
    const w = who();
    return withDocumentLock((): FormOutcome<ReportView> => {
      const doc = documentView();
      const store = reportStore(doc);
      const current = store.get(reportId);
      const jobs = pullJobStore(doc);
      const job = jobs.get(reportId);
      // A run stepped in the last minutes may still be going, with the old owner's key: it must not write after the change.
      if (job && job.state.status === 'running' && Date.now() - job.state.updatedAt < IDLE_MS && !w.check.report(current)) {
        return { ok: false, field: 'connection', message: 'Este relatório está sendo atualizado agora. Espere alguns minutos e tente de novo.' };
      }
      const found = outcome(() => connectionStore().byId(String(connectionId ?? '')));
      if (!found.ok) return { ...found, field: 'connection' };
      const connection = found.value;
      // Another company behind the new connection: said, before and after, and asked (the field 'empresa' asks the sidebar to confirm).
      const before = current.companies ? undefined : current.organizations;
      const after = before ? organizationOf(gasZone(spreadsheetTimeZone()))(connection.id, true) : undefined;
      if (!companyConfirmed && before && after && !before.some((o) => o.key === after.key)) {
        return {
          ok: false,
          field: 'empresa',
          message: `Com a conexão "${connection.name}", o relatório "${current.name}" muda de empresa: antes ${before.map(describeOrganization).join(', ')}, depois ${describeOrganization(after)}. A aba do relatório passará a ter os dados da nova empresa na próxima atualização, e os painéis feitos sobre ela deixam de mostrar os números de antes. Clique em "Confirmar a troca de empresa" para assumir assim.`,
        };
      }
      // An unfinished pull holds rows of the old owner's organization: the next run starts over with the new connection.
      if (job && !w.check.report(current)) jobs.delete(reportId);
      // Chosen companies were the old owner's connections: the report goes on with the new owner's one ("todas" stays "todas", now theirs).
      const companies = current.companies?.all ? current.companies : undefined;
      const report = store.save({
        ...current,
        owner: { id: w.me.id, email: w.me.email },
        connectionId: connection.id,
        connection: companies ? ALL_COMPANIES_LABEL : connection.name,
        companies,
        companyStamps: undefined,
        // Re-saving one someone altered: its incremental base may be theirs too, so the next run is a full one.
        ...(w.check.altered(current) ? { lastSuccessStart: undefined } : {}),
      });
      // The panels on the report, whoever's, no longer show the other company's numbers over a sheet about to change.
      if (before && after && !before.some((o) => o.key === after.key))
        reportChangedCompany(
          dashboardDeps(doc),
          reportId,
          `O relatório "${current.name}" mudou de empresa ao ser assumido por ${w.me.email || 'outro editor'} (antes ${before.map((o) => o.name).join(', ')}, agora ${after.name}): os números de antes foram retirados. Clique em Atualizar agora depois da próxima atualização do relatório.`,
        );
      return { ok: true, value: viewer(doc, w.owners.checker(w.me, w.documentId))(report) };
    });
  });
  if (!taken.ok) return taken;
  const warning = syncDispatcher();
  return { ok: true, value: warning ? { ...taken.value, warning } : taken.value };
}
