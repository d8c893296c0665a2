/**
 * Edit in place, push the difference: through the real bundle in the emulator
 * against the sandbox. The user edits an imported subscriptions sheet (values
 * or formulas), the preview shows every change with totals, the push sends
 * only the changed rows as updates, and afterwards the sandbox's own records
 * equal the sheet. Totals and expected records are computed here from the
 * sandbox's dump, not by the add-on's code.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import type { Rec } from '../core/bulk/fixtures';
import { bulkToEnd, columnsOf, connect, emulator, importAll, ok } from './helpers';
import { typeInto } from '../../dev/gas/formula-locale';
import type { GasEmulator } from '../../dev/gas/runner';
import { letter, onSheet, push, records as recordsOf, rowsById, SHEET, seed as seedIn, seen } from './edit-helpers';

let sb: SandboxHandle;
const seed = (custom: number, plans: number) => seedIn(sb, custom, plans);
const records = () => recordsOf(sb);

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 47, size: { assinaturas: 0 } });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset({ seed: 47, size: { assinaturas: 0 } });
});

describe('edits pushed from an imported subscriptions sheet', () => {
  it('a 4.62% adjustment typed as a formula over 300 subscriptions is previewed with its totals, pushed once, and a re-run sends nothing', async () => {
    await seed(300, 0);
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'assinaturas', sheetName: SHEET, filters: {} });
    const col = columnsOf(emu, SHEET);
    const before = await records();
    expect(before.size).toBe(300);

    // The user keeps last year's price in a column of their own and makes valor a formula over it.
    const valor = letter(col.valorUnitario);
    onSheet(emu, (sh) => {
      const last = sh.getLastRow();
      const own = sh.getLastColumn() + 1;
      if (own > sh.getMaxColumns()) sh.insertColumnsAfter(sh.getMaxColumns(), 1);
      const old = sh.getRange(2, col.valorUnitario + 1, last - 1, 1).getValues();
      sh.getRange(1, own).setValue('Valor 2025');
      sh.getRange(2, own, last - 1, 1).setValues(old);
      const ownLetter = letter(own - 1);
      sh.getRange(2, col.valorUnitario + 1, last - 1, 1).setFormulas(Array.from({ length: last - 1 }, (_, i) => [`=ROUND(${ownLetter}${i + 2}*1.0462,2)`]));
    });
    expect(emu.formulas(SHEET, `${valor}2`)[0][0]).toMatch(/^=ROUND\(/);

    // Independently: the adjusted price of each record, in whole cents, half up.
    const adjusted = new Map([...before].map(([id, a]) => [id, Math.floor((Math.round(a.valorUnitario * 100) * 10_462 + 5_000) / 10_000)]));
    const oldCents = [...before.values()].reduce((n, a) => n + Math.round(a.valorUnitario * 100), 0);
    const newCents = [...adjusted.values()].reduce((n, c) => n + c, 0);

    const preview = ok(emu.run('previewSheetEdits', [SHEET]));
    expect(preview.count).toBe(300);
    expect(preview.invalid).toBe(0);
    expect(Math.round(preview.totals.before * 100)).toBe(oldCents);
    expect(Math.round(preview.totals.after * 100)).toBe(newCents);
    expect(Math.round(preview.totals.difference * 100)).toBe(newCents - oldCents);
    expect(preview.rows[0].fields[0]).toMatchObject({ label: 'Valor unitário' });

    await sb.clearLog();
    const end = push(emu);
    expect(end).toMatchObject({ status: 'done', counts: { ok: 300, failed: 0, pending: 0 } });
    const puts = await sb.requestLog({ method: 'PUT' });
    expect(puts).toHaveLength(300);
    expect(new Set(puts.map((p) => p.path)).size).toBe(300);

    // The service's own records now equal the sheet (and the independent computation).
    const after = await records();
    const sheetValues = emu.values(SHEET);
    for (const [id, row] of rowsById(emu)) {
      expect(after.get(id)?.valorUnitario).toBe(sheetValues[row - 1][col.valorUnitario]);
      expect(Math.round((after.get(id)?.valorUnitario as number) * 100)).toBe(adjusted.get(id));
    }

    await sb.clearLog();
    const again = ok(emu.run('startEditPushRun', [SHEET, seen(emu)]));
    expect(again).toMatchObject({ done: true, total: 0 });
    expect(again.message).toMatch(/Nenhuma alteração para enviar/);
    expect(await sb.requestLog()).toHaveLength(0);
    expect(ok(emu.run('previewSheetEdits', [SHEET])).count).toBe(0);
  });

  it('formulas typed as a Brazilian types them (ARRED, ;, decimal comma) or in English are pushed as their results', async () => {
    await seed(3, 0);
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'assinaturas', sheetName: SHEET, filters: {} });
    const valor = letter(columnsOf(emu, SHEET).valorUnitario);
    const ids = [...rowsById(emu)].sort((a, b) => a[1] - b[1]).map(([id]) => id);
    typeInto(emu, SHEET, `${valor}2`, [['=ARRED(100*1,0462;2)'], ['=ROUND(200*1.0462,2)'], ['=300*1,0462']]);
    expect(emu.values(SHEET, `${valor}2:${valor}4`)).toEqual([[104.62], [209.24], [313.86]]);

    await sb.clearLog();
    expect(push(emu)).toMatchObject({ status: 'done', counts: { ok: 3, failed: 0 } });
    expect(await sb.requestLog({ method: 'PUT' })).toHaveLength(3);
    const after = await records();
    expect(ids.map((id) => after.get(id)?.valorUnitario)).toEqual([104.62, 209.24, 313.86]);
  });

  it('after the user sorted the sheet and inserted rows of their own, each edit goes to its own record, plano or personalizado', async () => {
    await seed(8, 6);
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'assinaturas', sheetName: SHEET, filters: {} });
    const col = columnsOf(emu, SHEET);
    const all = await records();
    const custom = [...all.values()].find((a) => a.tipoContrato === 'PERSONALIZADO')!;
    const plan = [...all.values()].find((a) => a.tipoContrato === 'PLANO')!;
    onSheet(emu, (sh) => {
      sh.getRange(2, 1, sh.getLastRow() - 1, sh.getLastColumn()).sort({ column: col.nomeCliente + 1, ascending: false });
      sh.insertRows(3, 2);
      sh.getRange(3, 1, 1, 2).setValues([['Minha anotação', 'sem id']]);
    });
    const rows = rowsById(emu);
    onSheet(emu, (sh) => {
      sh.getRange(rows.get(custom.idAssinaturaContrato)!, col.valorUnitario + 1).setValue(777.77);
      sh.getRange(rows.get(plan.idAssinaturaContrato)!, col.quantidade + 1).setValue(5);
      sh.getRange(rows.get(plan.idAssinaturaContrato)!, col.descricaoAssinaturaContrato + 1).setValue('Plano revisto');
      // Edited where no update applies (a plan's price, a custom contract's quantity): not an edit the service takes.
      sh.getRange(rows.get(plan.idAssinaturaContrato)!, col.valorUnitario + 1).setValue(1);
    });
    const preview = ok(emu.run('previewSheetEdits', [SHEET]));
    expect(preview.count).toBe(2);
    // The rows move again before the push: records are found by id, never by row number.
    onSheet(emu, (sh) => sh.insertRows(2, 1));
    await sb.clearLog();
    const end = push(emu);
    expect(end.counts).toMatchObject({ ok: 2, failed: 0 });
    const puts = await sb.requestLog({ method: 'PUT' });
    expect(puts.map((p) => p.path).sort()).toEqual(
      [`/v2/assinaturascontratos/personalizado/${custom.idAssinaturaContrato}`, `/v2/assinaturascontratos/plano/${plan.idAssinaturaContrato}`].sort(),
    );
    const after = await records();
    expect(after.get(custom.idAssinaturaContrato)).toMatchObject({ valorUnitario: 777.77, descricaoAssinaturaContrato: custom.descricaoAssinaturaContrato });
    expect(after.get(plan.idAssinaturaContrato)).toMatchObject({ quantidade: 5, descricaoAssinaturaContrato: 'Plano revisto' });
    // The status sits beside each record's own row; the user's rows are untouched.
    const header = emu.values(SHEET)[0] as string[];
    const status = header.indexOf('Status do lote');
    const now = rowsById(emu);
    const values = emu.values(SHEET);
    expect(values[now.get(custom.idAssinaturaContrato)! - 1][status]).toBe('OK');
    expect(values[now.get(plan.idAssinaturaContrato)! - 1][status]).toBe('OK');
    expect(values.filter((r) => r[0] === 'Minha anotação')).toHaveLength(1);
    expect(values.filter((r) => r[status] === 'OK')).toHaveLength(2);
  });

  it('text typed into valor is an error naming the row and the column; nothing is sent for it, the valid edit goes', async () => {
    await seed(5, 0);
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'assinaturas', sheetName: SHEET, filters: {} });
    const col = columnsOf(emu, SHEET);
    const [bad, good] = [...(await records()).values()];
    const rows = rowsById(emu);
    const badRow = rows.get(bad.idAssinaturaContrato)!;
    onSheet(emu, (sh) => {
      sh.getRange(badRow, col.valorUnitario + 1).setValue('cento e dez');
      sh.getRange(rows.get(good.idAssinaturaContrato)!, col.valorUnitario + 1).setValue(150.5);
    });
    const where = `Linha ${badRow}, coluna "Valor unitário" (${letter(col.valorUnitario)})`;
    const preview = ok(emu.run('previewSheetEdits', [SHEET]));
    expect(preview).toMatchObject({ count: 2, invalid: 1 });
    expect(preview.rows.find((r: Rec) => r.row === badRow).problem).toContain(where);
    await sb.clearLog();
    const end = push(emu);
    expect(end.counts).toMatchObject({ ok: 1, failed: 1 });
    expect((await sb.requestLog({ method: 'PUT' })).map((p) => p.path)).toEqual([`/v2/assinaturascontratos/personalizado/${good.idAssinaturaContrato}`]);
    const header = emu.values(SHEET)[0] as string[];
    const line = emu.values(SHEET)[badRow - 1];
    expect(line[header.indexOf('Status do lote')]).toBe('ERRO');
    expect(String(line[header.indexOf('Mensagem')])).toContain(where);
    expect((await records()).get(bad.idAssinaturaContrato)?.valorUnitario).toBe(bad.valorUnitario);
  });

  it('a push killed at 6 minutes right after sending a batch is finished by the next step: rows already sent are read back, never sent twice', async () => {
    await seed(25, 0);
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'assinaturas', sheetName: SHEET, filters: {} });
    const col = columnsOf(emu, SHEET);
    onSheet(emu, (sh) => {
      const n = sh.getLastRow() - 1;
      const old = sh.getRange(2, col.valorUnitario + 1, n, 1).getValues();
      sh.getRange(2, col.valorUnitario + 1, n, 1).setValues(old.map(([v]) => [Math.round((v as number) * 110) / 100]));
    });
    await sb.clearLog();
    // Each wave of requests costs 3.5 minutes of the execution's time: the first batch's records are read, its PUTs go out,
    // and the kill comes at the first call after.
    const killed = emu.execute('startEditPushRun', [SHEET, seen(emu)], { costs: { urlFetchCallMs: 3.5 * 60_000 } });
    expect(killed.status).toBe('killed');
    const sentBeforeKill = (await sb.requestLog({ method: 'PUT' })).length;
    expect(sentBeforeKill).toBeGreaterThan(0);
    const form = emu.run('getBulkForm') as Rec;
    expect(form.jobs).toHaveLength(1);
    expect(form.jobs[0].label).toBe('Enviar alterações da planilha');
    // Rows caught in flight are PENDENTE: read back, and sent again only once a late write of the service could no longer land.
    emu.now += 11 * 60_000;
    const end = bulkToEnd(emu, ok(emu.run('continueBulkRun', [form.jobs[0].jobId])));
    expect(end.counts).toMatchObject({ ok: 25, failed: 0, pending: 0 });
    const puts = (await sb.requestLog({ method: 'PUT' })).map((p) => p.path);
    expect(puts).toHaveLength(25);
    expect(new Set(puts).size).toBe(25);
    const after = await records();
    const values = emu.values(SHEET);
    for (const [id, row] of rowsById(emu)) expect(after.get(id)?.valorUnitario).toBe(values[row - 1][col.valorUnitario]);
    await sb.clearLog();
    expect(ok(emu.run('startEditPushRun', [SHEET, seen(emu)])).message).toMatch(/Nenhuma alteração/);
    expect(await sb.requestLog()).toHaveLength(0);
  });
});

describe('a deleted report', () => {
  /** Keys of the hidden work sheet that still hold a value (a deleted key keeps its row, emptied). */
  const stored = (emu: GasEmulator, prefix: string) =>
    emu.withServices((s) => {
      const sh = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Faturamento · dados')!;
      return (sh.getDataRange().getValues() as unknown[][]).filter((r) => String(r[0]).startsWith(prefix) && r[1] !== '').map((r) => String(r[0]));
    });

  it('takes its edit snapshot out of the hidden sheet, and a push from its sheet then says there is no base', async () => {
    await seed(3, 0);
    const emu = emulator();
    connect(emu, sb);
    const { reportId } = importAll(emu, { listing: 'assinaturas', sheetName: SHEET, filters: {} });
    expect(stored(emu, 'faturamento.edicao.').length).toBeGreaterThan(0);
    emu.run('deleteReport', [reportId]);
    expect(stored(emu, 'faturamento.edicao.')).toEqual([]);
    expect(emu.run('startEditPushRun', [SHEET, ''])).toMatchObject({ ok: false, message: expect.stringMatching(/base de comparação/) });
  });
});
