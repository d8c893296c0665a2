/**
 * The core's dependencies over Apps Script's services, shared by the sidebars'
 * calls and the hourly dispatcher. `doc` is the document's work store: a
 * caller that reads much of it passes a read-once view (see `readOnce`). `ss`
 * is the document, the active one unless the dispatcher opened another by id.
 */
import { bounded, MESSAGE_MAX } from '../core/bounds';
import type { BillingClient } from '../api/client';
import type { Zone } from '../api/calendar';
import type { BulkDeps } from '../core/bulk/state';
import { bulkJobStore } from '../core/bulk/stored-job';
import { SnapshotStore } from '../core/bulk/snapshot';
import type { Identity } from '../core/owners';
import type { KeyValueStore } from '../core/ports';
import { redact } from '../core/redact';
import { pullJobStore, type RunDeps } from '../core/report-runs';
import { type Report, ReportStore } from '../core/reports';
import { refreshCatalogs } from '../core/bulk/catalog';
import { clientFor, connectionStore, documentStore, ownerStore, serviceTimeZone, spreadsheetTimeZone } from './services';
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

export function reportStore(doc: KeyValueStore = documentStore()): ReportStore {
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
  doc: KeyValueStore = documentStore(),
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
    cancelRequested: cancelRequested,
    snapshots: new SnapshotStore(doc),
    afterReportRun: afterRun(refreshAfterRun(doc, zone, ss, executionLimit()), ss),
    notifyFailure: (report, run) => {
      // Only the owner's own runs get here (see core/owners.ts): the notice goes to them and nobody else.
      const to = Session.getEffectiveUser().getEmail();
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

/**
 * Cancel requests go through the cache, not the properties or the lock: the
 * sidebar asks while a step holds the document lock, and the step reads the
 * request between waves. The document's cache when there is one, so the editor
 * who asks need not be the one whose step runs.
 */
function cancelCache(): GoogleAppsScript.Cache.Cache | null {
  return CacheService.getDocumentCache() ?? CacheService.getUserCache();
}

function cancelRequested(reportId: string): boolean {
  return cancelCache()?.get(CANCEL + reportId) === '1';
}

export function setCancelRequest(reportId: string, asked: boolean): void {
  const cache = cancelCache();
  if (!cache) return;
  if (asked) cache.put(CANCEL + reportId, '1', 600);
  else cache.remove(CANCEL + reportId);
}

export function bulkDeps(
  doc: KeyValueStore = documentStore(),
  zone: Zone = gasZone(spreadsheetTimeZone()),
  ss: Spreadsheet = SpreadsheetApp.getActiveSpreadsheet(),
  owner?: Identity,
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
    vouch: owner ? (job) => ownerStore().vouchBulk(owner, ss.getId(), job) : undefined,
    limit: executionLimit(),
    snapshots: new SnapshotStore(doc),
  };
}
