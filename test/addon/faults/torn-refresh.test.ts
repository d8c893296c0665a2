/**
 * An hourly refresh that must write its sheet again (a row deleted by hand),
 * killed at every stretch of its calls, each kill landing a prefix of the
 * execution's unflushed sheet writes. Its check reads the listing whole and
 * the run writes and settles it with no checkpoint between: whatever the kill
 * left, the next hour's run ends with every record of the listing on one row,
 * the report OK, and nothing ever called altered outside the add-on.
 */
import { describe, expect, it } from 'vitest';
import { COST_MODELS } from '../../../dev/gas/clock';
import type { GasEmulator } from '../../../dev/gas/runner';
import type { Landed } from '../../../dev/gas/torn-writes';
import type { Rec } from '../../core/bulk/fixtures';
import { columnsOf, connect, emulator, importAll, ok, SP } from '../helpers';
import { sandbox } from './setup';

const sandboxOf = sandbox(41, { size: { faturas: 5, clientes: 12, cobrancas: 5, transacoes: 5, assinaturas: 5 } });

const LANDINGS: Landed[] = ['random', 'none', 'random', 'all'];
/** The hour whose refresh is killed, and the next. */
const KILLED_HOUR = SP('2026-11-22T11:59:00');
const NEXT_HOUR = SP('2026-11-22T12:59:00');

/** A Clientes report run once and scheduled hourly, whose sheet then lost a row by hand. */
function scheduled(): { emu: GasEmulator; reportId: string } {
  const emu = emulator({ costs: COST_MODELS.pessimistic, latency: { ms: 300 } });
  connect(emu, sandboxOf());
  const { reportId } = importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes', filters: {} });
  ok(emu.run('setReportSchedule', [reportId, { kind: 'hourly' }, false]));
  emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Clientes')?.deleteRow(5));
  return { emu, reportId };
}

/** Each customer id the sheet holds, with how many rows hold it. */
function held(emu: GasEmulator): Map<unknown, number> {
  const id = columnsOf(emu, 'Clientes').idCliente;
  const out = new Map<unknown, number>();
  for (const row of emu.values('Clientes').slice(1)) out.set(row[id], (out.get(row[id]) ?? 0) + 1);
  return out;
}

describe('an hourly refresh of a changed sheet killed at every stretch of its calls, with torn writes', () => {
  it('ends at the next hour with each record on one row, OK, and never calls the report altered', async () => {
    const probe = scheduled();
    await sandboxOf().clearLog();
    let calls = 0;
    const [whole] = probe.emu.runDueTriggers(KILLED_HOUR, { onServiceCall: () => calls++ });
    expect(whole.status).toBe('ok');
    // Unkilled, the run asks the service for no page its check read: each page of the listing once.
    const pages = (await sandboxOf().requestLog({ method: 'GET' })).map((r) => `${r.path} ${r.query.page}`);
    expect(pages.length).toBeGreaterThan(1);
    expect(new Set(pages).size).toBe(pages.length);
    const expected = (await sandboxOf().dump<Rec>(sandboxOf().orgs[0].name, 'clientes')).map((c) => c.idCliente).sort();
    expect([...held(probe.emu).keys()].sort()).toEqual(expected);
    const outcomes: string[] = [];
    for (let k = 2, i = 0; k <= calls; k += 7, i++) {
      const { emu, reportId } = scheduled();
      const [killed] = emu.runDueTriggers(KILLED_HOUR, { kill: { atCall: k, landed: LANDINGS[i % LANDINGS.length], seed: i } });
      const [next] = emu.runDueTriggers(NEXT_HOUR);
      const rows = held(emu);
      const card = (emu.run('listReports') as Rec[]).find((r) => r.id === reportId);
      const history = emu.values('Histórico').map((r) => r.join(' '));
      const wrong = [
        ...(killed.status === 'killed' ? [] : [`not killed: ${killed.status}`]),
        ...(next.status === 'ok' ? [] : [`next hour: ${next.status} ${next.error?.message}`]),
        ...(card?.lastRun?.result === 'ok' ? [] : [`card: ${JSON.stringify(card?.lastRun)}`]),
        ...expected.filter((c) => !rows.has(c)).map((c) => `missing ${c}`),
        ...[...rows].filter(([c, n]) => n > 1 || !expected.includes(c)).map(([c, n]) => `${c} on ${n} rows`),
        ...history.filter((t) => /alterad/i.test(t)),
      ];
      if (wrong.length) outcomes.push(`killed at call ${k}: ${wrong.join('; ')}`);
    }
    expect(calls).toBeGreaterThan(100);
    expect(outcomes).toEqual([]);
  });
});
