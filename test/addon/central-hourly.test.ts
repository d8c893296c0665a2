/**
 * "Atualizar sozinha a cada hora": the Central of an office of ten companies
 * refreshes itself from the owner's hourly trigger, reading in full only the
 * companies whose data changed since its last read (the others are asked one
 * page of what changed), and stops when the owner turns it off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceCall } from '../../dev/gas/execution';
import type { GasEmulator } from '../../dev/gas/runner';
import { borrowSandbox, type SandboxHandle } from '../../dev/sandbox/harness';
import { emulator, ok, SP } from './helpers';

type Rec = Record<string, any>;
let sb: SandboxHandle;
let emu: GasEmulator;
const COMP = '10/2026';
const ME = 'contadora@escritorio.com.br';

const office = () => sb.orgs.filter((o) => o.office);

function refresh(hourly: boolean): Rec {
  let p = ok(emu.run('startCentralRefresh', [{ competencia: COMP, hourly }]));
  while (!p.finished) p = ok(emu.run('continueCentralRefresh', []));
  return p;
}

/** The Central sheet's rows by company name, keyed by header. */
function rows(): Map<string, Rec> {
  const values = emu.values('Central') as unknown[][];
  const at = values.findIndex((r) => r[0] === 'Empresa');
  const header = values[at] as string[];
  return new Map(values.slice(at + 1).map((r) => [String(r[0]), Object.fromEntries(header.map((h, i) => [h, r[i]]))]));
}

/** Requests of one company's listings that read its month whole (not the hourly check's "what changed since"). */
async function fullReads(org: string): Promise<number> {
  const log = await sb.requestLog({ org });
  return log.filter((e) => e.path === '/v2/faturamento/faturas' && e.query.dataHoraAtualizacaoInicial === undefined).length;
}

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 1, size: 'small', office: 10 });
  // After the last update the sandbox's records carry on its today (22/11/2026): what changes after is the test's.
  emu = emulator({ user: ME, startAt: SP('2026-11-22T18:00:00') });
  for (const o of office()) ok({ ...(emu.run('saveConnection', [{ name: o.name, baseUrl: sb.baseUrl, apiKey: o.apiKey }]) as Rec), value: null });
}, 60_000);
afterAll(async () => {
  await sb?.stop();
});

describe('the Central refreshing itself every hour', () => {
  it('keeps the schedule with a trigger, and says so in the sidebar', () => {
    refresh(true);
    expect(emu.triggers.triggers.map((t) => t.handler)).toEqual(['runScheduledReports']);
    expect((emu.run('getCentral', []) as Rec).hourly).toBe(true);
  });

  it('reads again in full only the company whose data changed; the others keep their figures', async () => {
    const changed = office().find((o) => o.office!.status === 'sem-pendencias')!;
    const before = rows().get(changed.name)!;
    await sb.touch({ org: changed.name, kind: 'addInvoice', at: '2026-11-22T18:30:00' });
    await sb.clearLog();
    emu.runDueTriggers(SP('2026-11-22T19:05:00'));
    const after = rows().get(changed.name)!;
    expect(after['Faturas (qtde)']).toBe(before['Faturas (qtde)'] + 1);
    // The new invoice has neither its note nor its charge: the status says both.
    expect(after.Status).toBe('Pendências: 1 nota a emitir, 1 divergência');
    expect(await fullReads(changed.name)).toBe(1);
    for (const o of office().filter((x) => x !== changed && x.office!.status !== 'falha-conexao')) expect(await fullReads(o.name), o.name).toBe(0);
    const head = (emu.values('Central') as unknown[][]).map((r) => String(r[0])).join('\n');
    expect(head).toMatch(/lidas de novo só as empresas com alteração/);
  });

  it('does nothing more within the hour, and nothing once turned off', async () => {
    await sb.clearLog();
    emu.runDueTriggers(SP('2026-11-22T19:40:00'));
    expect(await sb.requestLog()).toHaveLength(0);
    refresh(false);
    expect((emu.run('getCentral', []) as Rec).hourly).toBe(false);
    expect(emu.triggers.triggers).toHaveLength(0);
    await sb.clearLog();
    emu.runDueTriggers(SP('2026-11-22T22:05:00'));
    expect(await sb.requestLog()).toHaveLength(0);
  });
  it("waits while the owner's hourly run holds the spreadsheet in the middle of her refresh, and goes on after", () => {
    const at = emu.now + 60_000;
    // Her refresh, left between two steps: saved, no company read yet (its start killed at its first wave).
    const killAtFirstWave = (c: ServiceCall) => {
      if (c.object.startsWith('UrlFetch') && c.method === 'fetchAll' && (c.args[0] as unknown[]).length > 2) c.execution.killed = true;
    };
    expect(() => emu.run('startCentralRefresh', [{ competencia: COMP, hourly: true }], { at: new Date(at), onServiceCall: killAtFirstWave })).toThrow(
      /Exceeded maximum execution time/,
    );
    // Her hourly run, opened by id, takes it up; her sidebar's next step comes while it reads.
    let trigger = 0;
    let during: Rec | null = null;
    const sidebarMeanwhile = (c: ServiceCall) => {
      trigger ||= c.execution.id;
      if (!during && c.execution.id === trigger && c.method === 'fetchAll') during = emu.run('continueCentralRefresh', []) as Rec;
    };
    expect(emu.runDueTriggers(new Date(at + 70 * 60_000), { documentContext: false, onServiceCall: sidebarMeanwhile }).map((r) => r.status)).toEqual(['ok']);
    expect(during).toMatchObject({ ok: true, value: { finished: false, waiting: true, message: expect.stringMatching(/a Central continua sozinha/) } });
    let p: Rec = (during as unknown as Rec).value;
    while (!p.finished) p = ok(emu.run('continueCentralRefresh', []));
    expect(p.message).toMatch(/^Central atualizada: 10 empresas/);
  });
});
