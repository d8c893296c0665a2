/**
 * An accountant's office benchmark: one spreadsheet per client company, ten
 * saved reports in each, one of them scheduled (hourly, daily or monthly in
 * turn), and a few bulk runs left unfinished. The real bundle in the
 * emulator, set up through the sidebars, then a whole day of the owner's
 * hourly triggers, each at its own minute, without the document (the
 * pessimistic case: every visit opens by id) and with it, and a worst day
 * (every scheduled sheet changed every hour), under the pessimistic cost model
 * (a second of start-up per execution, two per spreadsheet opened by id) with
 * 300 ms of latency per round trip, in virtual time only. Each day is set
 * against the account's quota of trigger time beside its target: 30 companies
 * on a consumer account (90 minutes) at most 20% on a usual day and 50% on the
 * worst; 100 companies on a Workspace account (6 hours) at most 50% on the
 * worst day.
 */
import { LOCAL_TEST_SERVERS } from '../dev/gas/allow-list';
import { COST_MODELS } from '../dev/gas/clock';
import type { ServiceCall } from '../dev/gas/execution';
import { spreadsheetId } from '../dev/gas/office';
import { ACCOUNT_QUOTAS, type AccountKind, GasEmulator } from '../dev/gas/runner';
import { type SandboxHandle, startSandbox } from '../dev/sandbox/harness';
import { importAll, ok, subscriptionSheet } from '../test/addon/helpers';
import { catalog } from '../test/core/bulk/fixtures';
import { beside, dec, note, printTable } from './table';

const OWNER = 'contador@example.com.br';
const REPORTS_PER_DOCUMENT = 10;
const UNFINISHED_BULK = 3;
const LATENCY_MS = 300;
const HOUR = 3_600_000;
const COSTS = COST_MODELS.pessimistic;
const ACCOUNT_NAMES: Record<AccountKind, string> = { consumer: 'pessoal', workspace: 'Workspace' };

/** An office's size and its owner's kind of account. */
export interface OfficeSize {
  documents: number;
  account: AccountKind;
  /** Overlapping runs of the owner start inside each other, as on Google (the emulator's default); false runs them one after another. */
  overlapping?: boolean;
}

/** The targets: a share of the account's daily trigger time, on a usual day and on the worst, where one is set. */
function targetOf(size: OfficeSize, worst: boolean): number | null {
  if (size.account === 'consumer') return worst ? 50 : 20;
  return worst ? 50 : null;
}

type Rec = Record<string, unknown>;

/** The i-th document's scheduled report: hourly, daily or monthly in turn. */
function scheduleOf(i: number): Rec {
  if (i % 3 === 0) return { kind: 'hourly' };
  if (i % 3 === 1) return { kind: 'daily', hour: 6 + (i % 12) };
  return { kind: 'monthly', day: 1 + (i % 28), hour: 7 };
}

/** An office of `documents` client spreadsheets set up through the sidebars. */
async function office(sb: SandboxHandle, { documents, account, overlapping }: OfficeSize, startAt: Date): Promise<GasEmulator> {
  const emu = new GasEmulator({
    startAt,
    countRealTime: false,
    costs: COSTS,
    latency: { ms: LATENCY_MS },
    urlFetchWhitelist: LOCAL_TEST_SERVERS,
    triggerMinuteSeed: 7,
    // The add-on tells the kind of account as on Google (its e-mail quota); the day is measured against its quotas, not stopped by Google's.
    account,
    overlappingTriggers: overlapping,
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
  /** Whether the add-on's own quota stop ended the day's scheduled work. */
  stopped: boolean;
}

/**
 * Before each hour, when `changing`: a customer changed at the service, so that no report's sheet holds what its
 * listing returns and every due refresh writes its sheet again (the office's worst hour, every schedule changed). A
 * change made in the sheet instead is noticed at the day's first visit or the listing's next change
 * (core/hourly/quiet-check.ts), so it would not make the worst hour.
 */
async function change(sb: SandboxHandle, at: Date): Promise<void> {
  const local = new Date(at.getTime() - 3 * HOUR).toISOString().slice(0, 19);
  await sb.touch({ org: sb.orgs[0].name, kind: 'alterClient', at: local });
}

/** A client document's id, of Google's length (44 characters): what the agenda keeps per document is as long as on Google. */
const documentName = (d: number) => spreadsheetId(`cliente-${String(d).padStart(3, '0')}`);

/** The owner's triggers through one day from `from`, hour by hour. */
async function day(emu: GasEmulator, from: Date, documentContext: boolean, changing: SandboxHandle | null = null): Promise<Day> {
  const out: Day = { executions: 0, triggerMs: 0, fetches: 0, opened: 0, idle: { executions: 0, ms: 0, cellsRead: 0 }, stopped: false };
  for (let h = 1; h <= 24; h++) {
    if (changing) await change(changing, new Date(from.getTime() + (h - 1) * HOUR));
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
  out.stopped = emu.withServices((s) => /pararam hoje/.test(s.PropertiesService.getUserProperties().getProperty('faturamento.uso') ?? ''), { user: OWNER });
  return out;
}

const minutes = (ms: number) => ms / 60_000;
const pct = (x: number) => `${dec(x)}%`;
const n = (x: number) => x.toLocaleString('pt-BR');

/** The sizes `npm run bench` measures: the two offices the targets name, each on the kind of account its target names. */
export const OFFICE_SIZES: OfficeSize[] = [
  { documents: 30, account: 'consumer' },
  { documents: 100, account: 'workspace' },
];

export async function benchOffice(quick = false, sizes: OfficeSize[] = quick ? [{ documents: 3, account: 'consumer' }] : OFFICE_SIZES): Promise<void> {
  const sb = await startSandbox({ seed: 5, size: 'small' });
  try {
    for (const size of sizes) {
      const { documents, account } = size;
      const quota = ACCOUNT_QUOTAS[account];
      const rows: Array<Array<string | number>> = [];
      const targets: string[] = [];
      await sb.reset({ size: { faturas: 10, clientes: 12, cobrancas: 5, transacoes: 5, assinaturas: 5 } });
      const start = new Date('2026-03-02T08:00:00-03:00');
      const emu = await office(sb, size, start);
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
        const d = await day(emu, from, documentContext, changing ? sb : null);
        const idleMs = d.idle.executions ? d.idle.ms / d.idle.executions : 0;
        const share = (100 * minutes(d.triggerMs)) / quota.triggerMinutesPerDay;
        const target = targetOf(size, changing);
        const way = `${documentContext ? 'com o documento' : 'sem o documento (openById)'}${changing ? ', toda listagem agendada mudada no serviço a cada hora' : ''}`;
        rows.push([
          `${documents} planilhas, ${documents * REPORTS_PER_DOCUMENT} relatórios`,
          ACCOUNT_NAMES[account],
          way,
          d.executions,
          `${d.idle.executions} × ${dec(idleMs / 1000, 2)} s`,
          d.opened,
          dec(minutes(d.triggerMs)),
          dec(minutes(d.executions * COSTS.startupMs)),
          dec(minutes(d.opened * COSTS.openByIdMs)),
          pct(share),
          target === null ? '—' : `≤ ${target}%`,
          n(d.fetches),
          pct((100 * d.fetches) / quota.urlFetchPerDay),
          d.stopped ? 'sim' : 'não',
        ]);
        if (target !== null) {
          targets.push(
            `- ${documents} planilhas, conta ${ACCOUNT_NAMES[account]}, ${changing ? 'o pior dia' : 'um dia comum'} ${way}: ${pct(share)} de ${quota.triggerMinutesPerDay} min (${beside(`≤ ${target}%`, share <= target)})`,
          );
        }
      }
      print(rows, targets);
    }
  } finally {
    await sb.stop();
  }
}

function print(rows: Array<Array<string | number>>, targets: string[]): void {
  console.log(
    `\n== Escritório: um dia de execuções de hora em hora (modelo pessimista: partida de ${COSTS.startupMs / 1000} s por execução, ${COSTS.openByIdMs / 1000} s por planilha aberta pelo id, ${LATENCY_MS} ms por ida e volta; ${REPORTS_PER_DOCUMENT} relatórios por planilha, 1 agendado, ${UNFINISHED_BULK} lotes inacabados)`,
  );
  printTable(
    [
      'escritório',
      'conta',
      'acionador',
      'execuções/dia',
      'sem nada devido × custo',
      'planilhas abertas/dia',
      'min de acionador/dia',
      'dos quais partida',
      'dos quais openById',
      '% da cota',
      'meta',
      'chamadas UrlFetch/dia',
      '% da cota UrlFetch',
      'parada pela cota',
    ],
    rows,
  );
  for (const t of targets) console.log(t);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--documentos');
  const documents = at > 0 ? Number(process.argv[at + 1]) : undefined;
  const named = process.argv.indexOf('--conta');
  const account: AccountKind | undefined = named > 0 ? (process.argv[named + 1] === 'workspace' ? 'workspace' : 'consumer') : undefined;
  // --um-de-cada-vez: the owner's overlapping runs one after another, to see what overlapping costs.
  const overlapping = process.argv.includes('--um-de-cada-vez') ? false : undefined;
  const sizes = documents ? [{ documents, account: account ?? (documents >= 100 ? 'workspace' : 'consumer'), overlapping }] : undefined;
  note(`bench: escritório ${sizes ? JSON.stringify(sizes) : ''}`);
  benchOffice(process.argv.includes('--quick'), sizes).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
