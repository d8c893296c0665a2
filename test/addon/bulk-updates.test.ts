/**
 * The update templates (Atualizar assinaturas) when a PUT's answer is lost:
 * the real bundle in the emulator, the sandbox over HTTP. The record is read
 * back and compared with what was sent; the PUT is never sent again in the
 * execution that lost its answer (the service may still apply it late), and
 * only a later run, past the safe delay, sends it again, when the service
 * still holds the values from before. Every check is against the sandbox's
 * own records and request log.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import type { FaultRule } from '../../dev/sandbox/types';
import { catalog, type Rec } from '../core/bulk/fixtures';
import { connect, emulator, executeBulk, ok, rowsByHeader, typeRows } from './helpers';

let sb: SandboxHandle;
let customs: Rec[];

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 61, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
  customs = (await catalog(sb)).assinaturas.filter((a) => a.tipoContrato === 'PERSONALIZADO' && a.statusAssinaturaContrato === 'ATIVO').slice(0, 3);
  expect(customs).toHaveLength(3);
});

const OPERATION = 'atualizarAssinaturaPersonalizada';
const pathOf = (a: Rec) => `/v2/assinaturascontratos/personalizado/${a.idAssinaturaContrato}`;
const newValue = (i: number) => 400 + i;

/** The template with one row per subscription: a new Valor and description, the NFS-e text left alone. */
function template(emu: GasEmulator): string {
  const sheet = ok(emu.run('createBulkTemplate', [OPERATION])).sheetName as string;
  typeRows(
    emu,
    sheet,
    3,
    customs.map((a, i) => [a.idAssinaturaContrato, newValue(i), `Reajustada ${i}`, 'Não', '']),
  );
  return sheet;
}

/** A subscription's row of the template. */
const rowOf = (emu: GasEmulator, sheet: string, a: Rec): Rec => rowsByHeader(emu, sheet).find((r) => r['ID da assinatura'] === a.idAssinaturaContrato) as Rec;

const putsTo = async (a: Rec) => (await sb.requestLog({ method: 'PUT' })).filter((e) => e.path === pathOf(a));
const valorIn = async (a: Rec) =>
  (await sb.dump<Rec>(sb.orgs[0].name, 'assinaturas')).find((r) => r.idAssinaturaContrato === a.idAssinaturaContrato)?.valorUnitario;
const uncommitted = async () => (await sb.requestLog({ method: 'PUT' })).filter((e) => e.lateCommit && !e.lateCommit.committed);

/** The first run, with `fault` on the first subscription's PUT: that row is left PENDENTE, its PUT sent once, the others done. */
async function firstRun(fault: FaultRule): Promise<{ emu: GasEmulator; sheet: string }> {
  const emu = emulator();
  connect(emu, sb);
  const sheet = template(emu);
  await sb.configure({ faults: [fault] });
  await sb.clearLog();
  const end = executeBulk(emu, { operation: OPERATION, sheetName: sheet });
  expect(end.counts).toMatchObject({ ok: 2, pending: 1, failed: 0 });
  const [lost, ...done] = customs;
  // Read back and compared, and not sent again in the execution that lost its answer.
  expect(await putsTo(lost)).toHaveLength(1);
  expect((await sb.requestLog({ method: 'GET' })).some((e) => e.query.idAssinaturaContrato === String(lost.idAssinaturaContrato))).toBe(true);
  const line = rowOf(emu, sheet, lost);
  expect(line.Status).toBe('PENDENTE');
  expect(line.Mensagem).toBe('Resultado incerto: antes de qualquer reenvio o complemento relê a assinatura e compara com o que foi enviado.');
  for (const [i, a] of done.entries()) {
    expect(rowOf(emu, sheet, a).Status).toBe('OK');
    expect(await valorIn(a)).toBe(newValue(i + 1));
  }
  await sb.configure({ faults: [] });
  return { emu, sheet };
}

describe('an update template whose PUT loses its answer', () => {
  it('committed late by the service: PENDENTE in its run, then read back by a later one and settled without a second PUT', async () => {
    const [lost] = customs;
    const { emu, sheet } = await firstRun({ kind: 'lateCommit', failWith: 'status500', method: 'PUT', pathPrefix: pathOf(lost), times: 1, afterRequests: 40 });
    // Time passes for the service too (the fault counts requests): other clients' reads let it commit.
    for (let i = 0; i < 100 && (await uncommitted()).length > 0; i++) await fetch(`${sb.baseUrl}/v2/clientes`, { headers: { 'x-api-key': sb.orgs[1].apiKey } });
    expect(await valorIn(lost)).toBe(newValue(0));

    await sb.clearLog();
    emu.now += 11 * 60_000;
    const again = executeBulk(emu, { operation: OPERATION, sheetName: sheet });
    expect(again.counts).toMatchObject({ ok: 1, skipped: 2, pending: 0, failed: 0 });
    expect(await putsTo(lost)).toEqual([]);
    expect(rowOf(emu, sheet, lost)).toMatchObject({ Status: 'OK', Mensagem: expect.stringMatching(/confirmada por consulta/) });
  });

  it('never applied (a 500 before the service ran it): a later run past the safe delay finds the values from before and sends it once more', async () => {
    const [lost] = customs;
    const { emu, sheet } = await firstRun({ kind: 'status', status: 500, method: 'PUT', pathPrefix: pathOf(lost), times: 1 });
    expect(await valorIn(lost)).toBe(lost.valorUnitario);
    await sb.clearLog();

    // Too soon: the service might still apply it, so the row is read back and left as it is.
    emu.now += 60_000;
    expect(executeBulk(emu, { operation: OPERATION, sheetName: sheet }).counts).toMatchObject({ ok: 0, pending: 1 });
    expect(await putsTo(lost)).toEqual([]);

    emu.now += 11 * 60_000;
    const again = executeBulk(emu, { operation: OPERATION, sheetName: sheet });
    expect(again.counts).toMatchObject({ ok: 1, pending: 0, failed: 0 });
    expect(await putsTo(lost)).toHaveLength(1);
    expect(await valorIn(lost)).toBe(newValue(0));
    expect(rowOf(emu, sheet, lost).Status).toBe('OK');
  });
});
