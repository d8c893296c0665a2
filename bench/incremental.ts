/**
 * Incremental refresh benchmark: a report of n invoices pulled in full, then
 * refreshed when about 1% of them changed (their update stamp is after the
 * first run), then refreshed again with nothing changed. The real bundle in the
 * emulator, the sandbox with 300 ms of latency per round trip, in virtual
 * time only. Figures are printed, never
 * asserted. Targets: the 1% merge writes at most 2% of the cells of the full
 * pull; the unchanged refresh costs at most 2 HTTP waves.
 */
import { LOCAL_TEST_SERVERS } from '../dev/gas/allow-list';
import { GasEmulator } from '../dev/gas/runner';
import type { Counters } from '../dev/gas/execution';
import { type SandboxHandle, startSandbox } from '../dev/sandbox/harness';
import { beside, printTable } from './table';

const LATENCY_MS = 300;
/** The add-on looks back this much before the last run's start (INCREMENTAL_MARGIN_MS). */
const MARGIN_MS = 10 * 60_000;

interface Phase {
  name: string;
  rows: number;
  counters: Counters;
}

/** A wall time of the service (São Paulo), `YYYY-MM-DDTHH:MM`. */
const SP = (wall: string) => new Date(`${wall}:00-03:00`);

function total(emu: GasEmulator, from: number): Counters {
  const reports = emu.history.slice(from);
  const out = { ...reports[0].counters };
  for (const r of reports.slice(1)) for (const k of Object.keys(out) as (keyof Counters)[]) out[k] += r.counters[k];
  return out;
}

interface Progress {
  reportId: string;
  done: boolean;
  rows: number;
  status: string;
  incremental: boolean;
  message?: string;
}

/** Runs `start` (which returns the run's first progress) and steps the run to its end as the sidebar does. */
function runToEnd(emu: GasEmulator, start: () => Progress): Progress & { counters: Counters } {
  const from = emu.history.length;
  let p = start();
  let guard = 0;
  while (!p.done) {
    p = emu.run('continueReportRun', [p.reportId]) as Progress;
    if (++guard > 1000) throw new Error('bench: run never finished');
  }
  if (p.status !== 'done') throw new Error(`bench: run ended ${p.status}: ${p.message}`);
  return { ...p, counters: total(emu, from) };
}

async function measure(sb: SandboxHandle, n: number): Promise<{ phases: Phase[]; changed: number }> {
  await sb.reset({ size: { faturas: n, clientes: 200, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
  const stamps = (await sb.dump<{ _dataHoraAtualizacao: string }>(sb.orgs[0].name, 'faturas')).map((f) => f._dataHoraAtualizacao.slice(0, 16)).sort();
  // The first run starts so that the records stamped after it (minus the look-back margin) are about 1%.
  const firstAt = SP(stamps[Math.floor(stamps.length * 0.99)]).getTime() + MARGIN_MS;
  const changed = stamps.filter((s) => SP(s).getTime() >= firstAt - MARGIN_MS).length;
  const afterAll = SP(stamps[stamps.length - 1]).getTime() + 2 * MARGIN_MS;
  const emu = new GasEmulator({
    startAt: new Date(firstAt),
    realTimeoutMs: 3_600_000,
    countRealTime: false,
    latency: { ms: LATENCY_MS },
    urlFetchWhitelist: LOCAL_TEST_SERVERS,
  });
  emu.run('saveConnection', [{ name: 'Bench', baseUrl: sb.baseUrl, apiKey: sb.orgs[0].apiKey }]);
  const started = (form: Record<string, unknown>) => {
    const r = emu.run('startImportRun', [form]) as { ok: boolean; value: Progress; message?: string };
    if (!r.ok) throw new Error(`bench: ${r.message}`);
    return r.value;
  };
  const full = runToEnd(emu, () => started({ connection: 'Bench', listing: 'faturas', sheetName: 'Faturas', filters: {}, name: 'Faturas', incremental: true }));
  emu.now = Math.max(emu.now, afterAll);
  const merged = runToEnd(emu, () => emu.run('runReport', [full.reportId]) as Progress);
  emu.now += 60 * 60_000;
  const unchanged = runToEnd(emu, () => emu.run('runReport', [full.reportId]) as Progress);
  if (!merged.incremental || !unchanged.incremental) throw new Error('bench: the refreshes were not incremental');
  return {
    changed,
    phases: [
      { name: 'completa', rows: full.rows, counters: full.counters },
      { name: `incremental (${changed} mudaram)`, rows: merged.rows, counters: merged.counters },
      { name: 'incremental (nada mudou)', rows: unchanged.rows, counters: unchanged.counters },
    ],
  };
}

export async function benchIncremental(n = 50_000): Promise<void> {
  const sb = await startSandbox({ seed: 1, size: 'small' });
  let result: { phases: Phase[]; changed: number };
  try {
    result = await measure(sb, n);
  } finally {
    await sb.stop();
  }
  const [full, merged, unchanged] = result.phases;
  console.log(`\nAtualização incremental de um relatório de ${n.toLocaleString('pt-BR')} faturas (latência de ${LATENCY_MS} ms)`);
  printTable(
    ['execução', 'linhas', 'ondas HTTP', 'chamadas Planilhas', 'células lidas', 'células gravadas'],
    result.phases.map((p) => [p.name, p.rows, p.counters.urlFetchWaves, p.counters.spreadsheetCalls, p.counters.cellsRead, p.counters.cellsWritten]),
  );
  const share = (merged.counters.cellsWritten / full.counters.cellsWritten) * 100;
  console.log(
    `- ${((result.changed / n) * 100).toFixed(1)}% dos registros mudaram: a mescla gravou ${share.toFixed(2)}% das células da importação completa (${beside('≤ 2%', share <= 2)})`,
  );
  console.log(`- relatório sem mudanças: ${unchanged.counters.urlFetchWaves} onda(s) HTTP (${beside('≤ 2', unchanged.counters.urlFetchWaves <= 2)})`);
}
