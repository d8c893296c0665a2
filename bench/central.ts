/**
 * Central do escritório of 100 client companies with 300 invoices each in the
 * month (the sandbox's office, each company its own connection), through the
 * real bundle under the pessimistic cost model: a full refresh from the
 * sidebar (each step its own execution, paying its start-up), then the hourly
 * refresh after 5 of the 100 changed. Prints executions, the longest step
 * beside the step's budget, and the hourly run's share of 6 minutes. Virtual
 * time only: two runs print the same. Figures are printed, never asserted.
 */
import { LOCAL_TEST_SERVERS } from '../dev/gas/allow-list';
import { COST_MODELS, DEFAULT_BUDGET_MS } from '../dev/gas/clock';
import { type ExecutionReport, GasEmulator } from '../dev/gas/runner';
import { startSandbox } from '../dev/sandbox/harness';
import { beside, printTable } from './table';

const COMP = '10/2026';
/** What a sidebar step of the Central may take before it answers (src/gas/central-server.ts STEP_MS). */
const STEP_BUDGET_MS = 100_000;
const costs = COST_MODELS.pessimistic;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const share = (ms: number) => `${((ms / DEFAULT_BUDGET_MS) * 100).toFixed(1)}%`;

type Step = { finished: boolean; done: number; total: number };

function value(report: ExecutionReport): Step {
  const v = report.value as { ok: boolean; value: Step; message?: string };
  if (report.status !== 'ok' || !v?.ok) throw new Error(`bench: ${report.functionName} ${report.status}: ${report.error?.message ?? v?.message}`);
  return v.value;
}

export async function benchCentral(quick = false): Promise<void> {
  const companies = quick ? 10 : 100;
  const invoices = quick ? 30 : 300;
  const sb = await startSandbox({ seed: 1, size: 'small', office: { companies, invoices } });
  const rows: Array<Array<string | number>> = [];
  try {
    // After the sandbox's last update of its today (22/11/2026), so the hourly check sees only what the bench changes.
    const emu = new GasEmulator({
      startAt: new Date('2026-11-22T18:00:00-03:00'),
      realTimeoutMs: 3_600_000,
      countRealTime: false,
      urlFetchWhitelist: LOCAL_TEST_SERVERS,
    });
    const office = sb.orgs.filter((o) => o.office);
    for (const o of office) emu.run('saveConnection', [{ name: o.name, baseUrl: sb.baseUrl, apiKey: o.apiKey }]);

    const steps: ExecutionReport[] = [emu.execute('startCentralRefresh', [{ competencia: COMP, hourly: true }], { costs })];
    for (let p = value(steps[0]); !p.finished; p = value(steps[steps.length - 1])) {
      if (steps.length > 50) throw new Error('bench: the Central never finished');
      steps.push(emu.execute('continueCentralRefresh', [], { costs }));
    }
    const longest = Math.max(...steps.map((s) => s.counters.virtualMs));
    const total = steps.reduce((t, s) => t + s.counters.virtualMs, 0);
    rows.push([
      `Atualização completa: ${companies} empresas × ${invoices} faturas`,
      steps.length,
      seconds(longest),
      seconds(total),
      share(longest),
      `${beside('≤ 3 execuções', steps.length <= 3)}; ${beside(`cada passo ≤ ${seconds(STEP_BUDGET_MS)} + a gravação`, longest <= STEP_BUDGET_MS + 30_000)}`,
    ]);

    const began = steps[0].startedAt.getTime();
    for (const o of office.filter((c) => !c.office?.status.startsWith('falha')).slice(0, 5)) await sb.touch({ org: o.name, kind: 'addInvoice' });
    const hourly = emu.runDueTriggers(new Date(began + 65 * 60_000), { costs });
    const ms = Math.max(0, ...hourly.map((r) => r.counters.virtualMs));
    rows.push([
      `Atualização de hora em hora: 5 de ${companies} mudaram`,
      hourly.length,
      seconds(ms),
      seconds(hourly.reduce((t, r) => t + r.counters.virtualMs, 0)),
      share(ms),
      beside('1 execução, ≤ 15% de 6 min', hourly.length === 1 && ms <= DEFAULT_BUDGET_MS * 0.15),
    ]);
  } finally {
    await sb.stop();
  }
  console.log(`\nCentral do escritório, competência ${COMP} (custos pessimistas)`);
  printTable(['atualização', 'execuções', 'a mais longa', 'tempo virtual (soma)', 'do limite de 6 min', 'meta'], rows);
}
