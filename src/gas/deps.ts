/**
 * The core's dependencies over Apps Script's services, shared by the sidebars'
 * calls and the hourly dispatcher. `doc` is the document's property store: a
 * caller that reads much of it passes a read-once view (see `readOnce`).
 */
import type { BillingClient } from '../api/client';
import type { Zone } from '../api/calendar';
import { type BulkDeps, bulkJobStore } from '../core/bulk/job';
import type { KeyValueStore } from '../core/ports';
import { pullJobStore, type RunDeps } from '../core/report-runs';
import { ReportStore } from '../core/reports';
import { clientFor, connectionStore, documentStore, spreadsheetTimeZone } from './services';
import { bookPort, selectionBookPort } from './sheet-port';
import { gasZone } from './zone';

/**
 * One client per connection for as long as the deps live (one execution):
 * the dispatcher steps many jobs, and each new client would read the
 * connection list and its key from the user's properties again.
 */
function clients(): (name: string) => BillingClient {
  const made = new Map<string, BillingClient>();
  return (name) => {
    let client = made.get(name);
    if (!client) made.set(name, (client = clientFor(connectionStore().get(name))));
    return client;
  };
}

export function reportStore(doc: KeyValueStore = documentStore()): ReportStore {
  return new ReportStore(doc, () => Utilities.getUuid());
}

export function runDeps(doc: KeyValueStore = documentStore(), zone: Zone = gasZone(spreadsheetTimeZone())): RunDeps {
  return {
    reports: reportStore(doc),
    jobs: pullJobStore(doc),
    book: bookPort(),
    zone,
    now: () => Date.now(),
    clientFor: clients(),
    cancelRequested: cancelRequested,
    notifyFailure: (report, run) => {
      const to = Session.getEffectiveUser().getEmail();
      if (!report.notifyByEmail || !to) return;
      const ss = SpreadsheetApp.getActiveSpreadsheet();
      MailApp.sendEmail(
        to,
        `Falha no relatório "${report.name}"`,
        `A atualização agendada do relatório "${report.name}" na planilha "${ss.getName()}" falhou.\n\n${run.message ?? ''}\n\n${ss.getUrl()}`,
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

export function bulkDeps(doc: KeyValueStore = documentStore(), zone: Zone = gasZone(spreadsheetTimeZone())): BulkDeps {
  return {
    book: selectionBookPort(),
    jobs: bulkJobStore(doc),
    zone,
    now: () => Date.now(),
    sleep: (ms) => Utilities.sleep(ms),
    newId: () => `lote-${Utilities.getUuid()}`,
    clientFor: clients(),
  };
}
