/**
 * An accountant's office benchmark: one spreadsheet per client company, ten
 * saved reports in each, one of them scheduled (hourly, daily or monthly in
 * turn), and a few bulk runs left unfinished. The real bundle in the
 * emulator, set up through the sidebars, then a whole day of the owner's
 * hourly triggers, each at its own minute, without the document (the
 * pessimistic case: every visit opens by id) and with it, under the
 * pessimistic cost model with 300 ms of latency per round trip (the set-up
 * too, though it is not what is measured). Figures are
 * printed, never asserted; the target is the 30-document office under 20% of
 * a consumer account's 90 trigger minutes a day, and an hour with nothing due
 * costing the same however many documents hold reports.
 */
import { LOCAL_TEST_SERVERS } from '../dev/gas/allow-list';
import { COST_MODELS } from '../dev/gas/clock';
import type { ServiceCall } from '../dev/gas/execution';
import { spreadsheetId } from '../dev/gas/office';
import { GasEmulator } from '../dev/gas/runner';
import { type SandboxHandle, startSandbox } from '../dev/sandbox/harness';
import { importAll, ok, subscriptionSheet } from '../test/addon/helpers';
import { catalog } from '../test/core/bulk/fixtures';
import { printTable } from './table';

const OWNER = 'contador@example.com.br';
const REPORTS_PER_DOCUMENT = 10;
const UNFINISHED_BULK = 3;
const LATENCY_MS = 300;
/** Consumer-account quotas (developers.google.com/apps-script/guides/services/quotas). */
const CONSUMER = { triggerMinutes: 90, urlFetch: 20_000 };
const HOUR = 3_600_000;

type Rec = Record<string, unknown>;

/** The i-th document's scheduled report: hourly, daily or monthly in turn. */
function scheduleOf(i: number): Rec {
  if (i % 3 === 0) return { kind: 'hourly' };
  if (i % 3 === 1) return { kind: 'daily', hour: 6 + (i % 12) };
  return { kind: 'monthly', day: 1 + (i % 28), hour: 7 };
}

/** An office of `documents` client spreadsheets set up through the sidebars. */
async function office(sb: SandboxHandle, documents: number, startAt: Date): Promise<GasEmulator> {
  const emu = new GasEmulator({
    startAt,
    countRealTime: false,
    costs: COST_MODELS.pessimistic,
    latency: { ms: LATENCY_MS },
    urlFetchWhitelist: LOCAL_TEST_SERVERS,
    triggerMinuteSeed: 7,
    // Measured against the consumer figures below, not stopped by them.
    quotas: { triggerMinutesPerDay: 1_000_000, urlFetchPerDay: 10_000_000, propertyOpsPerDay: 10_000_000 },
    user: OWNER,
  });
  ok(emu.run('saveConnection', [{ name: 'Escritório', baseUrl: sb.baseUrl, apiKey: sb.orgs[0].apiKey, isDefault: true }]));
  const cat = await catalog(sb);
  for (let d = 0; d < documents; d++) {
    const id = d === 0 ? emu.spreadsheet.id : documentName(d);
    if (d > 0) emu.addSpreadsheet({ id, name: `Cliente ${d}` });
    const ids = Array.from({ length: REPORTS_PER_DOCUMENT }, (_, r) => {
      const name = `Relatório ${r + 1}`;
      return importAll(emu, { connection: 'Escritório', listing: 'clientes', sheetName: name, name, filters: {} }, { documentId: id }).reportId;
    });
    ok(emu.run('setReportSchedule', [ids[0], scheduleOf(d), false], { documentId: id }));
    if (d < UNFINISHED_BULK) {
      // A bulk run left after one step: the sidebar was closed.
      const sheet = subscriptionSheet(emu, cat, 40, `Escritório ${d}`, 50, { documentId: id });
      const first = ok<{ done: boolean }>(
        emu.run(
          'startBulkRun',
          [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Escritório', scope: 'all', batchSize: 5, stepSeconds: 5 }],
          { documentId: id, costs: { urlFetchCallMs: 3000 } },
        ),
      );
      if (first.done) throw new Error('bench: the bulk run ended in one step');
    }
  }
  return emu;
}

interface Day {
  executions: number;
  triggerMs: number;
  fetches: number;
  opened: number;
  /** Executions in which nothing was due: their count and time. */
  idle: { executions: number; ms: number; cellsRead: number };
}

/**
 * Before each hour, when `changing`: a row of every scheduled report's sheet deleted, so that no sheet holds what
 * its listing returns and every due refresh writes its sheet again (the office's worst hour, every schedule changed).
 */
function change(emu: GasEmulator, documents: number): void {
  for (let d = 0; d < documents; d++) {
    const documentId = d === 0 ? emu.spreadsheet.id : documentName(d);
    emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Relatório 1')?.deleteRow(2), { documentId });
  }
}

/** A client document's id, of Google's length (44 characters): what the agenda keeps per document is as long as on Google. */
const documentName = (d: number) => spreadsheetId(`cliente-${String(d).padStart(3, '0')}`);

/** The owner's triggers through one day from `from`, hour by hour. */
function day(emu: GasEmulator, from: Date, documentContext: boolean, changing = 0): Day {
  const out: Day = { executions: 0, triggerMs: 0, fetches: 0, opened: 0, idle: { executions: 0, ms: 0, cellsRead: 0 } };
  for (let h = 1; h <= 24; h++) {
    if (changing) change(emu, changing);
    let opened = 0;
    const onServiceCall = (c: ServiceCall) => {
      if (c.object === 'SpreadsheetApp' && c.method === 'openById') opened++;
    };
    for (const report of emu.runDueTriggers(new Date(from.getTime() + h * HOUR - 60_000), { documentContext, onServiceCall })) {
      out.executions++;
      out.triggerMs += report.counters.virtualMs;
      out.fetches += report.counters.urlFetchRequests;
      if (report.counters.urlFetchRequests === 0 && report.counters.cellsWritten === 0) {
        out.idle.executions++;
        out.idle.ms += report.counters.virtualMs;
        out.idle.cellsRead += report.counters.cellsRead;
      }
    }
    out.opened += opened;
  }
  return out;
}

const minutes = (ms: number) => ms / 60_000;
const pct = (x: number) => `${x.toFixed(1)}%`;

export async function benchOffice(quick = false, sizes = quick ? [3] : [30, 100]): Promise<void> {
  const sb = await startSandbox({ seed: 5, size: 'small' });
  try {
    for (const documents of sizes) {
      const rows: Array<Array<string | number>> = [];
      await sb.reset({ size: { faturas: 10, clientes: 12, cobrancas: 5, transacoes: 5, assinaturas: 5 } });
      const start = new Date('2026-03-02T08:00:00-03:00');
      const emu = await office(sb, documents, start);
      const midnight = new Date('2026-03-03T00:00:00-03:00');
      const ways = [
        { documentContext: false, changing: false },
        { documentContext: true, changing: false },
        { documentContext: false, changing: true },
      ];
      for (const { documentContext, changing } of ways) {
        // The setup's runs and the first day's catch-up are not counted: a whole day from midnight is.
        emu.runDueTriggers(midnight, { documentContext });
        const from = new Date(Math.max(midnight.getTime(), emu.now));
        const d = day(emu, from, documentContext, changing ? documents : 0);
        const idleMs = d.idle.executions ? d.idle.ms / d.idle.executions : 0;
        rows.push([
          `${documents} planilhas, ${documents * REPORTS_PER_DOCUMENT} relatórios, ${documents} agendados`,
          `${documentContext ? 'com o documento' : 'sem o documento (openById)'}${changing ? ', toda aba agendada mudada a cada hora' : ''}`,
          d.executions,
          d.opened,
          minutes(d.triggerMs).toFixed(1),
          pct((100 * minutes(d.triggerMs)) / CONSUMER.triggerMinutes),
          d.fetches,
          pct((100 * d.fetches) / CONSUMER.urlFetch),
          `${d.idle.executions} × ${(idleMs / 1000).toFixed(2)} s, ${d.idle.cellsRead} células lidas`,
        ]);
      }
      print(rows);
    }
  } finally {
    await sb.stop();
  }
}

function print(rows: Array<Array<string | number>>): void {
  console.log(
    `\n== Escritório: um dia de execuções de hora em hora (modelo pessimista, ${LATENCY_MS} ms por ida e volta; ${REPORTS_PER_DOCUMENT} relatórios por planilha, 1 agendado, ${UNFINISHED_BULK} lotes inacabados)`,
  );
  printTable(
    [
      'escritório',
      'acionador',
      'execuções/dia',
      'planilhas abertas/dia',
      'min de acionador/dia',
      `% de ${CONSUMER.triggerMinutes} min`,
      'chamadas UrlFetch/dia',
      `% de ${CONSUMER.urlFetch.toLocaleString('pt-BR')}`,
      'execuções sem nada devido × custo',
    ],
    rows,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv.indexOf('--documentos');
  benchOffice(process.argv.includes('--quick'), only > 0 ? [Number(process.argv[only + 1])] : undefined).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
