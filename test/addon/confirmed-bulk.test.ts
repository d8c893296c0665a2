/**
 * What the owner confirmed is what is sent: a bulk run records each row's
 * values at Confirmar envio, and a row edited after that (by the owner, a
 * colleague or a formula) is not sent when its turn comes. The real bundle in
 * the emulator, the sandbox over HTTP, checked against the sandbox's own
 * records.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { catalog, type Rec } from '../core/bulk/fixtures';
import { bulkToEnd, connect, emulator, ok, rowsByHeader, subscriptionSheet, typeRows } from './helpers';

let sb: SandboxHandle;
let cat: Awaited<ReturnType<typeof catalog>>;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 53, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
  cat = await catalog(sb);
});

const ROWS = 12;

describe('a bulk run sends each row as it was confirmed', () => {
  it('a row edited between Confirmar envio and its send is not sent and says why; every other row is created exactly once', async () => {
    const emu = emulator();
    connect(emu, sb);
    const sheet = subscriptionSheet(emu, cat, ROWS, 'Confirmada', 40);
    // Confirmar envio, then a short first step: most rows are still to be sent when the sidebar is closed.
    const first = ok(
      emu.run(
        'startBulkRun',
        [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Demo', scope: 'all', batchSize: 2, stepSeconds: 5 }],
        {
          costs: { urlFetchCallMs: 3000 },
        },
      ),
    );
    expect(first.done).toBe(false);
    const rows = () => rowsByHeader(emu, sheet).slice(1);
    const waiting = rows()
      .map((r) => r.Status)
      .lastIndexOf('');
    expect(waiting).toBeGreaterThan(0);
    const edited = rows()[waiting];
    const sheetRow = waiting + 3;
    // A colleague raises the price of a row the owner confirmed at 40 + i.
    typeRows(emu, sheet, sheetRow, [
      [edited['ID de integração'], edited['ID do cliente'], '05/11/2026', '11/2026', 'MENSAL', cat.produtos[0], edited.Descrição, 999],
    ]);

    const end = bulkToEnd(emu, ok(emu.run('continueBulkRun', [first.jobId])));
    expect(end.counts).toMatchObject({ ok: ROWS - 1, failed: 1, pending: 0 });

    const created = await sb.dump<Rec>(sb.orgs[0].name, 'assinaturas');
    const byKey = new Map<string, Rec[]>();
    for (const a of created) byKey.set(a.idIntegracao, [...(byKey.get(a.idIntegracao) ?? []), a]);
    expect(byKey.has(edited['ID de integração'])).toBe(false);
    const posts = await sb.requestLog({ method: 'POST' });
    expect(posts.some((p) => (p.body as Rec).idIntegracao === edited['ID de integração'])).toBe(false);
    expect(posts).toHaveLength(ROWS - 1);
    for (const r of rows()) {
      if (r['ID de integração'] === edited['ID de integração']) {
        expect(r.Status).toBe('ERRO');
        expect(r.Mensagem).toBe(
          `Linha ${sheetRow}: mudou depois de "Confirmar envio" e não foi enviada. Confira a linha, clique em Validar e depois em Executar para confirmar o envio de novo.`,
        );
        continue;
      }
      expect(r.Status).toBe('OK');
      // Sent with the values confirmed, once.
      expect(byKey.get(r['ID de integração'])).toHaveLength(1);
      expect(byKey.get(r['ID de integração'])![0].valorUnitario).toBe(r.Valor);
    }

    // Confirmed again, the edited row goes, with its new value; nothing else is sent.
    await sb.clearLog();
    const again = bulkToEnd(
      emu,
      ok(emu.run('startBulkRun', [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Demo', scope: 'all' }])),
    );
    expect(again.counts).toMatchObject({ ok: 1, skipped: ROWS - 1, failed: 0 });
    const resent = await sb.requestLog({ method: 'POST' });
    expect(resent.map((p) => [(p.body as Rec).idIntegracao, (p.body as Rec).valor])).toEqual([[edited['ID de integração'], 999]]);
  });
});
