/**
 * A bulk run whose steps Google kills at any call, leaving some prefix of each
 * step's unflushed writes in the hidden sheet while the signatures, written to
 * the user's properties, land whole. Nobody edits the hidden sheet, so the
 * owner must never be told that someone did, and the run must reach its end
 * once the kills stop, every row created once.
 */
import { describe, expect, it } from 'vitest';
import { COST_MODELS } from '../../../dev/gas/clock';
import { seeded } from '../../../dev/gas/random';
import type { GasEmulator } from '../../../dev/gas/runner';
import { catalog, type Rec } from '../../core/bulk/fixtures';
import { connect, emulator, rowsByHeader, subscriptionSheet } from '../helpers';
import { sandbox } from './setup';

const sandboxOf = sandbox(31);

const ROWS = 200;
/** Steps killed, one after another, each at a call drawn from 1 to CALLS (a step of 10 rows makes about 285 calls). */
const KILLS = 12;
const CALLS = 300;
const HOUR = 3_600_000;

/** The run the sidebar shows after a kill took the answer of the step that started it. */
function jobOf(emu: GasEmulator): string | undefined {
  return ((emu.run('getBulkForm') as Rec).jobs as Rec[])[0]?.jobId as string | undefined;
}

interface Outcome {
  /** Steps the sidebar was refused with "alterado fora do complemento". */
  refusedAsAltered: number;
  /** E-mails telling the owner someone else altered their run. */
  ownerToldOfAnEdit: number;
  /** Rows not OK after the run and the re-runs that check its PENDENTE rows. */
  rowsNotOk: number;
  /** Subscriptions of the run (their integration ids are the add-on's) the service holds twice. */
  createdTwice: number;
}

/** The sidebar steps a run whose first KILLS steps die at random calls, then re-runs while rows are PENDENTE. */
async function tornRun(seed: number): Promise<Outcome> {
  const sb = sandboxOf();
  await sb.reset();
  const cat = await catalog(sb);
  // Latency and the pessimistic costs make a 200-row run take many short steps, as in an office.
  const emu = emulator({ costs: COST_MODELS.pessimistic, latency: { ms: 300 }, kill: { seed } });
  connect(emu, sb);
  const sheet = subscriptionSheet(emu, cat, ROWS, 'Rasgado');
  const form = { operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Demo', scope: 'all', batchSize: 10, stepSeconds: 5 };
  const draw = seeded(seed);
  const refusals: string[] = [];
  let jobId: string | undefined;
  let kills = 0;
  let runs = 0;
  for (let step = 0; step < 200 && refusals.length === 0 && runs < 4; step++) {
    const kill = kills < KILLS ? { atCall: 1 + Math.floor(draw() * CALLS) } : undefined;
    const report = emu.execute(jobId ? 'continueBulkRun' : 'startBulkRun', jobId ? [jobId, form.stepSeconds] : [form], { kill });
    if (report.status === 'killed') {
      kills++;
      jobId ??= jobOf(emu);
      continue;
    }
    const out = report.value as { ok: boolean; value?: Rec; message?: string };
    if (!out.ok) {
      refusals.push(String(out.message));
      continue;
    }
    jobId = out.value?.done ? undefined : (out.value?.jobId as string);
    if (!out.value?.done) continue;
    runs++;
    // A run that ends with PENDENTE rows asks to be run again, which checks them once the safe delay (10 minutes) is past.
    if (!rowsByHeader(emu, sheet).some((r) => r.Status === 'PENDENTE')) break;
    emu.now += 15 * 60_000;
  }
  // The owner's hourly run reads what is stored.
  emu.runDueTriggers(new Date(emu.now + HOUR));
  const created = new Map<string, number>();
  for (const a of await sb.dump<Rec>(sb.orgs[0].name, 'assinaturas'))
    if (String(a.idIntegracao).startsWith('lote-')) created.set(a.idIntegracao, (created.get(a.idIntegracao) ?? 0) + 1);
  return {
    refusedAsAltered: refusals.filter((m) => /alterado fora do complemento/.test(m)).length,
    ownerToldOfAnEdit: emu.mail.filter((m) => /alterado por outra pessoa/.test(m.subject)).length,
    rowsNotOk: rowsByHeader(emu, sheet).filter((r) => r.Status !== 'OK' && r.Status !== 'EXEMPLO').length,
    createdTwice: [...created.values()].filter((n) => n > 1).length,
  };
}

describe('a bulk run killed at random calls with torn writes, nobody editing the hidden sheet', () => {
  it('is never refused as altered, nor its owner told of another person’s edit, and ends with every row created once', async () => {
    const outcomes: Record<string, Outcome> = {};
    for (const seed of [1, 2, 3, 4, 5]) outcomes[`seed ${seed}`] = await tornRun(seed);
    const clean = { refusedAsAltered: 0, ownerToldOfAnEdit: 0, rowsNotOk: 0, createdTwice: 0 };
    expect(outcomes).toEqual(Object.fromEntries(Object.keys(outcomes).map((k) => [k, clean])));
  });
});
