/**
 * A tab belongs to one report, child tabs included: the form's refusals for
 * child tabs and the sheets the add-on keeps by name, and the mutual rule a run
 * follows whatever its stored report or pull says.
 */
import { describe, expect, it } from 'vitest';
import { CHILD_TAG, childTagValue, findChildSheet } from '../../../src/core/sheets/child-sheet';
import type { Report } from '../../../src/core/reports/reports';
import { SHEET_TAG } from '../../../src/core/sheets/sheet-layout';
import { ownSheetIds, runTargetProblem, startTargetProblem, targetNames, targetProblem } from '../../../src/core/trust/targets';
import { MemoryBook } from '../bulk/memory-book';

const report = (extra: Partial<Report>): Report => ({ id: 'r1', name: 'Faturas', sheetName: 'Faturas', ...extra }) as Report;

function book() {
  const b = new MemoryBook();
  const faturas = b.create('Faturas');
  faturas.setSheetTag(SHEET_TAG, 'relatorio:r1');
  b.create('Faturas · Itens').setSheetTag(CHILD_TAG, childTagValue(faturas.id, 'itens'));
  b.create('Órfã · Itens').setSheetTag(CHILD_TAG, '999:itens');
  b.create('Diagnóstico');
  b.create('Faturamento · dados');
  b.create('Futura').setSheetTag(SHEET_TAG, 'algo-novo');
  b.create('Livre');
  return { b, faturas, reports: [report({ sheetId: faturas.id })] };
}

describe('the form: a tab belongs to one report, and the add-on keeps its own', () => {
  it('refuses every child tab, naming its report when there is one, and each sheet the shell reserves by name', () => {
    const { b, reports } = book();
    const reserved = ['Diagnóstico', 'Faturamento · dados'];
    const problem = (name: string, id?: string) => targetProblem(b.byName(name) as never, reports, id, reserved);
    expect(problem('Faturas · Itens')).toBe(
      'A aba "Faturas · Itens" é uma aba ligada do relatório "Faturas" (itens, telefones, descontos…) e só recebe as listas dele. Escolha outra aba ou crie uma nova.',
    );
    // Not even as its own report's main tab, nor when its report is gone.
    expect(problem('Faturas · Itens', 'r1')).toMatch(/é uma aba ligada do relatório "Faturas"/);
    expect(problem('Órfã · Itens')).toMatch(/^A aba "Órfã · Itens" é uma aba ligada de um relatório /);
    expect(problem('Diagnóstico')).toBe('A aba "Diagnóstico" é do próprio complemento e não recebe importações. Escolha outra aba.');
    expect(problem('Faturamento · dados')).toMatch(/é do próprio complemento/);
    expect(problem('Futura')).toMatch(/é do próprio complemento/);
    expect(problem('Livre')).toBeNull();
    expect(targetNames(b, reports, 'r1', reserved)).toEqual(['Faturas', 'Livre']);
  });
});

describe('at run time: the sheet must name the report back', () => {
  it('writes only a sheet whose metadata names this very report', () => {
    const { b, faturas } = book();
    expect(runTargetProblem(faturas, report({}))).toBeNull();
    expect(runTargetProblem(faturas, report({ id: 'r2', name: 'NFS-e' }))).toBe(
      'A aba "Faturas" não é a aba do relatório "NFS-e" (ela não diz que é dele): nada foi gravado nela. Abra Relatórios › Editar e escolha de novo a aba de destino.',
    );
    for (const name of ['Faturas · Itens', 'Diagnóstico', 'Livre']) expect(runTargetProblem(b.byName(name) as never, report({}))).not.toBeNull();
    // By the stored id, or by name for a report that never ran; a sheet still to be made is the run's own.
    expect(startTargetProblem(b, report({ sheetId: b.byName('Livre')?.id }))).toMatch(/não é a aba do relatório/);
    expect(startTargetProblem(b, report({ sheetName: 'Diagnóstico' }))).toMatch(/não é a aba do relatório/);
    expect(startTargetProblem(b, report({ sheetName: 'Nova' }))).toBeNull();
    expect(startTargetProblem(b, report({ sheetId: 12345 }))).toBeNull();
  });

  it('a failed first import takes away only its own sheets, whatever the job names', () => {
    const { b, faturas } = book();
    const items = b.byName('Faturas · Itens')?.id as number;
    const other = b.byName('Livre')?.id as number;
    expect(ownSheetIds(b, report({}), { sheetId: faturas.id, children: { itens: { sheetId: items }, telefones: { sheetId: other } } })).toEqual([
      faturas.id,
      items,
    ]);
    expect(ownSheetIds(b, report({}), { sheetId: other, children: { itens: { sheetId: items } } })).toEqual([]);
    expect(ownSheetIds(b, report({ id: 'r2' }), { sheetId: faturas.id, children: {} })).toEqual([]);
  });

  it('a child list is never adopted by name into a sheet that is something else of ours', () => {
    const b = new MemoryBook();
    const parent = b.create('Faturas');
    b.create('Faturas · Itens').setSheetTag(SHEET_TAG, 'relatorio:r9');
    expect(findChildSheet(b, parent.id, 'itens', 'Faturas · Itens')).toBeNull();
    const legacy = b.create('Notas · Itens');
    expect(findChildSheet(b, parent.id, 'itensNota', 'Notas · Itens')).toBe(legacy);
  });
});
