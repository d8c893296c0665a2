/**
 * Enviar alterações sends what the owner saw, and loses no one's update: the
 * real bundle in the emulator against the sandbox. A colleague's edit (or a
 * formula's new result) after the preview is not sent; a field changed in the
 * service since the import, and left alone in the sheet, keeps the service's
 * value; a field changed on both sides is a conflict, told and not sent; a PUT
 * the service commits after failing it is settled by reading back, never sent
 * twice. Every check is against the sandbox's own records and request log.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import type { Rec } from '../core/bulk/fixtures';
import { columnsOf, connect, emulator, importAll, rowsByHeader } from './helpers';
import { letter, onSheet, push, records, rowsById, SHEET, seed, seen } from './edit-helpers';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 59, size: { assinaturas: 0 } });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset({ seed: 59, size: { assinaturas: 0 } });
});

/** An imported sheet of `custom` personalizadas and `plans` planos; their records as the service has them. */
async function imported(custom: number, plans: number) {
  await seed(sb, custom, plans);
  const emu = emulator();
  connect(emu, sb);
  importAll(emu, { listing: 'assinaturas', sheetName: SHEET, filters: {} });
  const all = [...(await records(sb)).values()];
  return {
    emu,
    col: columnsOf(emu, SHEET),
    customs: all.filter((a) => a.tipoContrato === 'PERSONALIZADO'),
    plans: all.filter((a) => a.tipoContrato === 'PLANO'),
  };
}

/** Types into one field of a record's row, wherever the row is now. */
function edit(emu: GasEmulator, id: number, column0: number, value: unknown): void {
  const row = rowsById(emu).get(id)!;
  onSheet(emu, (sh) => sh.getRange(row, column0 + 1).setValue(value));
}

/** Another client of the same organization changes a subscription in the service (the body is required whole). */
async function changedInService(a: Rec, change: Rec): Promise<void> {
  const plano = a.tipoContrato === 'PLANO';
  const body = plano
    ? { quantidade: a.quantidade, descricaoAssinaturaContrato: a.descricaoAssinaturaContrato, ...change }
    : { valor: a.valorUnitario, descricaoAssinaturaContrato: a.descricaoAssinaturaContrato, isAtualizaDiscriminacaoNfse: false, ...change };
  const r = await fetch(`${sb.baseUrl}/v2/assinaturascontratos/${plano ? 'plano' : 'personalizado'}/${a.idAssinaturaContrato}`, {
    method: 'PUT',
    headers: { 'x-api-key': sb.orgs[0].apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`service change: ${r.status} ${await r.text()}`);
}

const puts = async () => (await sb.requestLog({ method: 'PUT' })).map((p) => ({ path: p.path, body: p.body as Rec }));
const pathOf = (a: Rec) => `/v2/assinaturascontratos/${a.tipoContrato === 'PLANO' ? 'plano' : 'personalizado'}/${a.idAssinaturaContrato}`;
const lineOf = (emu: GasEmulator, id: number): Rec => rowsByHeader(emu, SHEET)[rowsById(emu).get(id)! - 2];

describe('Enviar sends exactly the preview the owner saw', () => {
  it("a colleague's edit or a formula's new result after the preview is not sent, and is told; the previewed row goes once", async () => {
    const { emu, col, customs } = await imported(4, 0);
    const [kept, retyped, formula, late] = customs;
    // The owner's own column, which a formula over Valor unitário reads.
    const own = onSheet(emu, (sh) => {
      const c = sh.getLastColumn() + 1;
      if (c > sh.getMaxColumns()) sh.insertColumnsAfter(sh.getMaxColumns(), 1);
      sh.getRange(1, c).setValue('Base');
      sh.getRange(rowsById(emu).get(formula.idAssinaturaContrato)!, c).setValue(200);
      return letter(c - 1);
    });
    edit(emu, kept.idAssinaturaContrato, col.valorUnitario, 111.11);
    edit(emu, retyped.idAssinaturaContrato, col.valorUnitario, 122.22);
    const formulaRow = rowsById(emu).get(formula.idAssinaturaContrato)!;
    onSheet(emu, (sh) => sh.getRange(formulaRow, col.valorUnitario + 1).setFormula(`=ROUND(${own}${formulaRow}*1.1,2)`));
    const token = seen(emu);

    // After the preview: a colleague retypes one previewed row, changes the cell a formula reads, and edits a row nobody previewed.
    edit(emu, retyped.idAssinaturaContrato, col.valorUnitario, 999);
    onSheet(emu, (sh) => sh.getRange(`${own}${formulaRow}`).setValue(300));
    edit(emu, late.idAssinaturaContrato, col.valorUnitario, 1);
    await sb.clearLog();
    const end = push(emu, token);

    expect(await puts()).toEqual([{ path: pathOf(kept), body: expect.objectContaining({ valor: 111.11 }) }]);
    expect(end.counts).toMatchObject({ ok: 1, failed: 2, pending: 0 });
    const lateRow = rowsById(emu).get(late.idAssinaturaContrato)!;
    expect(end.warnings).toContain(
      `Alterações feitas depois de "Ver alterações" não foram enviadas (linha ${lateRow}): clique em Ver alterações, confira e envie de novo.`,
    );
    for (const a of [retyped, formula]) {
      const line = lineOf(emu, a.idAssinaturaContrato);
      expect(line['Status do lote']).toBe('ERRO');
      expect(line.Mensagem).toBe(
        `Linha ${rowsById(emu).get(a.idAssinaturaContrato)}: mudou depois de "Ver alterações" e não foi enviada. Clique em Ver alterações de novo, confira e envie.`,
      );
    }
    const after = await records(sb);
    expect(after.get(kept.idAssinaturaContrato)?.valorUnitario).toBe(111.11);
    for (const a of [retyped, formula, late]) expect(after.get(a.idAssinaturaContrato)).toEqual(a);
  });
});

describe('Enviar reads each record before its PUT', () => {
  it('a field changed in the service since the import, and not in the sheet, keeps the service’s value', async () => {
    const { emu, col, customs, plans } = await imported(1, 1);
    const [custom] = customs;
    const [plan] = plans;
    await changedInService(custom, { descricaoAssinaturaContrato: 'Renomeada no serviço' });
    await changedInService(plan, { descricaoAssinaturaContrato: 'Plano renomeado no serviço' });
    edit(emu, custom.idAssinaturaContrato, col.valorUnitario, 150.5);
    edit(emu, plan.idAssinaturaContrato, col.quantidade, 7);
    await sb.clearLog();
    const end = push(emu);
    expect(end.counts).toMatchObject({ ok: 2, failed: 0 });
    const sent = await puts();
    expect(sent).toHaveLength(2);
    expect(sent.find((p) => p.path === pathOf(custom))?.body).toMatchObject({ valor: 150.5, descricaoAssinaturaContrato: 'Renomeada no serviço' });
    expect(sent.find((p) => p.path === pathOf(plan))?.body).toMatchObject({ quantidade: 7, descricaoAssinaturaContrato: 'Plano renomeado no serviço' });
    const after = await records(sb);
    expect(after.get(custom.idAssinaturaContrato)).toMatchObject({ valorUnitario: 150.5, descricaoAssinaturaContrato: 'Renomeada no serviço' });
    expect(after.get(plan.idAssinaturaContrato)).toMatchObject({ quantidade: 7, descricaoAssinaturaContrato: 'Plano renomeado no serviço' });
    // The sheet's old description is still no edit of the owner's: nothing is left to send, nothing reverts.
    await sb.clearLog();
    expect(push(emu).message).toMatch(/^Nenhuma alteração para enviar/);
    expect(await puts()).toEqual([]);
  });

  it('a field changed both in the sheet and in the service is a conflict: not sent, shown as imported → planilha → serviço', async () => {
    const { emu, col, customs } = await imported(2, 0);
    const [clash, fine] = customs;
    await changedInService(clash, { valor: 105 });
    edit(emu, clash.idAssinaturaContrato, col.valorUnitario, 120);
    edit(emu, fine.idAssinaturaContrato, col.valorUnitario, 130);
    await sb.clearLog();
    const end = push(emu);
    expect(end.counts).toMatchObject({ ok: 1, failed: 1 });
    expect(await puts()).toEqual([{ path: pathOf(fine), body: expect.objectContaining({ valor: 130 }) }]);
    const line = lineOf(emu, clash.idAssinaturaContrato);
    const row = rowsById(emu).get(clash.idAssinaturaContrato)!;
    const before = clash.valorUnitario.toFixed(2).replace('.', ',');
    expect(line['Status do lote']).toBe('ERRO');
    expect(line.Mensagem).toBe(
      `Linha ${row}, coluna "Valor unitário" (${letter(col.valorUnitario)}): mudou também no serviço desde a importação (importado ${before} → planilha 120,00 → serviço 105,00). Nada foi enviado nesta linha: atualize o relatório para trazer o que o serviço tem e refaça a alteração, se ainda quiser.`,
    );
    const after = await records(sb);
    expect(after.get(clash.idAssinaturaContrato)?.valorUnitario).toBe(105);
    expect(after.get(fine.idAssinaturaContrato)?.valorUnitario).toBe(130);
  });
});

describe('a PUT whose answer is lost', () => {
  const uncommitted = async () => (await sb.requestLog({ method: 'PUT' })).filter((e) => e.lateCommit && !e.lateCommit.committed);

  it('committed late by the service, it is read back, never sent again: once per record, nothing reverted', async () => {
    const { emu, col, customs } = await imported(3, 0);
    const [first] = customs;
    for (const [i, a] of customs.entries()) edit(emu, a.idAssinaturaContrato, col.valorUnitario, 200 + i);
    await sb.configure({ faults: [{ kind: 'lateCommit', failWith: 'status500', method: 'PUT', pathPrefix: pathOf(first), times: 1, afterRequests: 40 }] });
    await sb.clearLog();
    const end = push(emu);
    expect(end.counts).toMatchObject({ ok: 2, pending: 1 });
    expect((await puts()).map((p) => p.path).sort()).toEqual(customs.map(pathOf).sort());
    expect(lineOf(emu, first.idAssinaturaContrato)['Status do lote']).toBe('PENDENTE');

    // Later the service has committed it; the owner looks again and sends: the record is read back, nothing goes out twice.
    for (let i = 0; i < 100 && (await uncommitted()).length > 0; i++) await fetch(`${sb.baseUrl}/v2/clientes`, { headers: { 'x-api-key': sb.orgs[1].apiKey } });
    expect(await uncommitted()).toEqual([]);
    await sb.configure({ faults: [] });
    emu.now += 11 * 60_000;
    const again = push(emu);
    expect(again.counts).toMatchObject({ ok: 1, failed: 0, pending: 0 });
    const sent = (await puts()).map((p) => p.path);
    expect(sent.filter((p) => p === pathOf(first))).toHaveLength(1);
    expect(sent).toHaveLength(3);
    const after = await records(sb);
    for (const [i, a] of customs.entries()) expect(after.get(a.idAssinaturaContrato)?.valorUnitario).toBe(200 + i);
    expect(lineOf(emu, first.idAssinaturaContrato).Mensagem).toMatch(/confirmada por consulta/);
  });

  it('committed before the answer failed, it is read back in the same step and counted once', async () => {
    const { emu, col, customs } = await imported(2, 0);
    for (const [i, a] of customs.entries()) edit(emu, a.idAssinaturaContrato, col.valorUnitario, 300 + i);
    await sb.configure({ faults: [{ kind: 'commitThenFail', failWith: 'status500', method: 'PUT', times: 1 }] });
    await sb.clearLog();
    const end = push(emu);
    expect(end.counts).toMatchObject({ ok: 2, failed: 0, pending: 0 });
    expect(await puts()).toHaveLength(2);
    const after = await records(sb);
    for (const [i, a] of customs.entries()) expect(after.get(a.idAssinaturaContrato)?.valorUnitario).toBe(300 + i);
  });
});
