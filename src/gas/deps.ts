/**
 * The core's dependencies over Apps Script's services, shared by the sidebars'
 * calls and the hourly dispatcher. `doc` is the document's property store: a
 * caller that reads much of it passes a read-once view (see `readOnce`).
 */
import { bounded, MESSAGE_MAX } from '../core/bounds';
import type { BillingClient } from '../api/client';
import type { Zone } from '../api/calendar';
import { type BulkDeps, bulkJobStore } from '../core/bulk/job';
import type { KeyValueStore } from '../core/ports';
import { pullJobStore, type RunDeps } from '../core/report-runs';
import { ReportStore } from '../core/reports';
import { clientFor, connectionStore, documentStore, spreadsheetTimeZone } from './services';
import { executionLimit } from './execution-limit';
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
    limit: executionLimit(),
    clientFor: clients(),
    notifyFailure: (report, run) => {
      const to = Session.getEffectiveUser().getEmail();
      if (!report.notifyByEmail || !to) return;
      const ss = SpreadsheetApp.getActiveSpreadsheet();
      MailApp.sendEmail(
        to,
        `Falha no relatório "${report.name}"`,
        `A atualização agendada do relatório "${report.name}" na planilha "${ss.getName()}" falhou.\n\n${bounded(run.message ?? '', MESSAGE_MAX, 'veja a aba Histórico')}\n\n${ss.getUrl()}`,
      );
    },
  };
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
    limit: executionLimit(),
  };
}
