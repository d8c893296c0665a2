/**
 * The core's dependencies over Apps Script's services, shared by the sidebars'
 * calls and the hourly dispatcher. `doc` is the document's work store: a
 * caller that reads much of it passes a read-once view (`documentView`). `ss`
 * is the document, the active one unless the dispatcher opened another by id.
 */
import { bounded, MESSAGE_MAX } from '../core/bounds';
import type { BillingClient } from '../api/client';
import type { Zone } from '../api/calendar';
import type { BulkDeps } from '../core/bulk/state';
import { bulkJobStore } from '../core/bulk/stored-job';
import { SnapshotStore } from '../core/bulk/snapshot';
import type { SignedStore } from '../core/trust/seal';
import { identifyOrganization, type Organization } from '../core/connections/organizations';
import { redact } from '../core/trust/redact';
import { pullJobStore, type RunDeps } from '../core/runs/deps';
import { type Report, ReportStore } from '../core/reports/reports';
import { refreshCatalogs } from '../core/bulk/catalog';
import { clientFor, connectionStore, documentId, documentStore, serviceTimeZone, spreadsheetTimeZone, userEmail } from './services';
import { executionLimit } from './execution-limit';
import { bookPort, selectionBookPort } from './sheet-port';
import { gasZone } from './zone';
import { refreshAfterRun } from './dashboard-port';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/**
 * One client per connection for as long as the deps live (one execution):
 * the dispatcher steps many jobs, and each new client would read the
 * connection list and its key from the user's properties again. Connections
 * are the running user's own, found by id only.
 */
function clients(zone: Zone): (connectionId: string) => BillingClient {
  const made = new Map<string, BillingClient>();
  return (id) => {
    let client = made.get(id);
    if (!client) made.set(id, (client = clientFor(connectionStore().byId(id), { zone })));
    return client;
  };
}

/**
 * The organization a connection of the running user reaches: what its last test found, else (when asked to
 * identify) one wave of its customers, kept on the connection so it is asked once. A connection that cannot
 * be told (no answer, a refused key) is undefined: its own run says what failed.
 */
export function organizationOf(zone: Zone): (connectionId: string, identify: boolean) => Organization | undefined {
  return (id, identify) => {
    const store = connectionStore();
    const connection = store.list().find((c) => c.id === id);
    if (!connection || connection.organization || !identify || connection.keyProblem) return connection?.organization;
    try {
      const organization = identifyOrganization(clientFor(connection, { zone, retries: 0, timeoutMs: 15_000 }).withLimit(executionLimit()));
      if (organization) store.recordCheck(id, { organization });
      return organization;
    } catch {
      return undefined;
    }
  };
}

export function reportStore(doc: SignedStore = documentStore()): ReportStore {
  return new ReportStore(doc, () => Utilities.getUuid());
}

/** After a run with data: the dashboards, then, for subscriptions, the Produtos and Planos tabs the templates pick from. */
function afterRun(dashboards: (report: Report) => void, ss: Spreadsheet): (report: Report) => void {
  return (report) => {
    dashboards(report);
    if (report.listing === 'assinaturas') refreshCatalogs(selectionBookPort(ss));
  };
}

export function runDeps(
  doc: SignedStore = documentStore(),
  zone: Zone = gasZone(spreadsheetTimeZone()),
  ss: Spreadsheet = SpreadsheetApp.getActiveSpreadsheet(),
): RunDeps {
  return {
    reports: reportStore(doc),
    jobs: pullJobStore(doc),
    book: bookPort(ss),
    zone,
    serviceZone: (name) => gasZone(serviceTimeZone(name)),
    now: () => Date.now(),
    limit: executionLimit(),
    clientFor: clients(zone),
    // The running user's own connections: a consolidated report's "todas" means theirs, now.
    connections: () =>
      connectionStore()
        .list()
        .map((c) => ({ id: c.id, name: c.name })),
    organizationOf: organizationOf(zone),
    cancelRequested: cancelRequested(documentId(ss)),
    snapshots: new SnapshotStore(doc),
    afterReportRun: afterRun(refreshAfterRun(doc, zone, ss, executionLimit()), ss),
    notifyFailure: (report, run) => {
      // Only the owner's own runs get here (see core/trust/owners.ts): the notice goes to them and nobody else.
      const to = userEmail();
      if (!report.notifyByEmail || !to || (report.owner?.email && report.owner.email !== to)) return;
      const message = redact(run.message ?? '', connectionStore().secrets());
      MailApp.sendEmail(
        to,
        `Falha no relatório "${report.name}"`,
        `A atualização agendada do relatório "${report.name}" na planilha "${ss.getName()}" falhou.\n\n${bounded(message, MESSAGE_MAX, 'veja a aba Histórico')}\n\n${ss.getUrl()}`,
      );
    },
  };
}

const CANCEL = 'faturamento.cancelar.';
/** Six hours, the longest a cache keeps a value: a request names one run, so one kept long ends nothing else. */
const CANCEL_SECONDS = 21_600;

/**
 * Cancel requests go through the script's cache, not the properties or the
 * lock: the sidebar asks while a step holds the document lock, and the step
 * reads the request between waves. Not the document's cache: a run the hourly
 * trigger steps without the document as its active spreadsheet has none, and
 * never saw the request. The key names the document and the report, the value
 * the run, so a request ends that run only, never the next one.
 */
function cancelKey(documentId: string, reportId: string): string {
  return `${CANCEL}${documentId}.${reportId}`;
}

function cancelRequested(documentId: string): (reportId: string, runId: string) => boolean {
  return (reportId, runId) => CacheService.getScriptCache()?.get(cancelKey(documentId, reportId)) === runId;
}

/** Asks to cancel the run `runId` of a report (null: forgets any request). */
export function setCancelRequest(documentId: string, reportId: string, runId: string | null): void {
  const cache = CacheService.getScriptCache();
  if (!cache) return;
  // As long as the cache keeps anything: the hourly run may take the pull up an hour after the sidebar closed.
  if (runId) cache.put(cancelKey(documentId, reportId), runId, CANCEL_SECONDS);
  else cache.remove(cancelKey(documentId, reportId));
}

export function bulkDeps(
  doc: SignedStore = documentStore(),
  zone: Zone = gasZone(spreadsheetTimeZone()),
  ss: Spreadsheet = SpreadsheetApp.getActiveSpreadsheet(),
): BulkDeps {
  // One UUID per execution and a counter: unique keys without a Utilities call for every row.
  let prefix: string | undefined;
  let issued = 0;
  return {
    book: selectionBookPort(ss),
    jobs: bulkJobStore(doc),
    zone,
    now: () => Date.now(),
    sleep: (ms) => Utilities.sleep(ms),
    newId: () => {
      prefix ??= `lote-${Utilities.getUuid()}`;
      return `${prefix}-${++issued}`;
    },
    clientFor: clients(zone),
    limit: executionLimit(),
    snapshots: new SnapshotStore(doc),
  };
}
