/**
 * One row → one request body or the problems that keep it from being sent,
 * each naming the row, the column (title and letter) and what to do.
 */
import { describe, expect, it } from 'vitest';
import { isChecked } from '../../../src/api/writes';
import { bulkOperation, discountColumns } from '../../../src/core/bulk/definitions';
import type { Layout } from '../../../src/core/bulk/headers';
import { buildRow, cellIssue, type Discounts, isBlankRow, issueText, readFields, statusOf } from '../../../src/core/bulk/rows';
import type { CellValue } from '../../../src/core/sheets/table';
import { zone } from './fixtures';

/** The operation's columns from A on, in the template's order (or only `fields`, in that order). */
function layoutOf(key: string, fields = bulkOperation(key).columns.map((c) => c.field)): Layout {
  return { inputs: Object.fromEntries(fields.map((f, i) => [f, i + 1])), results: {} as Layout['results'], lastColumn: fields.length };
}

const adesao = zone.instant({ year: 2026, month: 11, day: 1 });
/** criarAssinaturaPersonalizada, columns A…K: key, customer, date, competência, period, product, text, value, form, due day, CPF/CNPJ. */
const custom = (over: Partial<Record<number, CellValue>> = {}): CellValue[] => {
  const row: CellValue[] = ['A-1', 321, adesao, '11/2026', 'MENSAL', 789, 'Honorários', 150.5, 'AGRUPADA', 10, ''];
  for (const [i, v] of Object.entries(over)) row[Number(i)] = v as CellValue;
  return row;
};
const build = (key: string, row: CellValue[], discounts?: Discounts, layout = layoutOf(key)) =>
  buildRow(bulkOperation(key), layout, row, 7, 'Lote', zone, discounts);

describe('buildRow', () => {
  it('a complete creation row becomes its checked body, known by its idIntegracao', () => {
    const built = build('criarAssinaturaPersonalizada', custom());
    expect(built.issues).toEqual([]);
    expect(built).toMatchObject({ key: 'A-1', needsKey: false });
    expect(built.find).toBeUndefined();
    expect(built.body).toEqual({
      idIntegracao: 'A-1',
      idCliente: 321,
      dataAdesao: '2026-11-01',
      competenciaInicial: '11/2026',
      periodicidade: 'MENSAL',
      idProduto: 789,
      descricaoAssinaturaContrato: 'Honorários',
      valor: 150.5,
      formaFaturamentoAssinatura: 'AGRUPADA',
      diaVencimentoCobranca: 10,
    });
    expect(isChecked(built.body)).toBe(true);
  });

  it('a blank ID de integração is generated later: the row is valid, its body waits for the key unchecked', () => {
    const built = build('criarAssinaturaPersonalizada', custom({ 0: '' }));
    expect(built.issues).toEqual([]);
    expect(built.needsKey).toBe(true);
    expect(built.key).toBeUndefined();
    expect(Object.keys(built.body).sort()).toEqual(
      [
        'idCliente',
        'dataAdesao',
        'competenciaInicial',
        'periodicidade',
        'idProduto',
        'descricaoAssinaturaContrato',
        'valor',
        'formaFaturamentoAssinatura',
        'diaVencimentoCobranca',
      ].sort(),
    );
    expect(isChecked(built.body)).toBe(false);
  });

  it('a customer named by CPF/CNPJ is found before sending; the CPF/CNPJ itself is never sent', () => {
    const built = build('criarAssinaturaPersonalizada', custom({ 1: '', 10: '123.456.789-09' }));
    expect(built.issues).toEqual([]);
    expect(built.find).toEqual({ field: 'idCliente', value: '12345678909', column: 11, label: 'CPF/CNPJ do cliente' });
    expect(built.body).not.toHaveProperty('cpfCnpjCliente');
    expect(built.body).not.toHaveProperty('idCliente');
    expect(isChecked(built.body)).toBe(false);
    // Both filled: the found customer must agree with the typed one, so both are kept.
    const both = build('criarAssinaturaPersonalizada', custom({ 10: '12345678909' }));
    expect(both.find?.value).toBe('12345678909');
    expect(both.body.idCliente).toBe(321);
    expect(isChecked(both.body)).toBe(true);
  });

  it('neither the customer nor its CPF/CNPJ: one problem on the customer cell naming both columns', () => {
    const built = build('criarAssinaturaPersonalizada', custom({ 1: '' }));
    expect(built.issues).toEqual([
      {
        sheet: 'Lote',
        row: 7,
        column: 2,
        message: 'Linha 7, coluna "ID do cliente" (B): está vazia, e "CPF/CNPJ do cliente" (K) também: preencha uma das duas.',
      },
    ]);
  });

  it('a bad CPF/CNPJ is reported on its own cell only, not on the blank customer', () => {
    const built = build('criarAssinaturaPersonalizada', custom({ 1: '', 10: '123' }));
    expect(built.issues).toHaveLength(1);
    expect(built.issues[0]).toMatchObject({ column: 11 });
    expect(built.issues[0].message).toMatch(/^Linha 7, coluna "CPF\/CNPJ do cliente" \(K\): /);
  });

  it('a required cell left blank says what the column wants, its first sentence only', () => {
    // Without the CPF/CNPJ column there is no alternative to the customer.
    const layout = layoutOf(
      'criarAssinaturaPersonalizada',
      bulkOperation('criarAssinaturaPersonalizada')
        .columns.map((c) => c.field)
        .slice(0, 10),
    );
    const built = build('criarAssinaturaPersonalizada', custom({ 1: '   ' }), undefined, layout);
    expect(built.issues.map((i) => i.message)).toEqual([
      'Linha 7, coluna "ID do cliente" (B): está vazia. ID do cliente no serviço de faturamento (número inteiro).',
    ]);
  });

  it('a required column missing from the layout is reported without a letter', () => {
    const fields = bulkOperation('emitirNfse').columns.map((c) => c.field);
    const built = buildRow(bulkOperation('emitirNfse'), { inputs: {}, results: {} as Layout['results'], lastColumn: 1 }, [1001], 3, 'Notas', zone);
    expect(fields).toEqual(['idFatura']);
    expect(built.issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/^Linha 3, coluna "ID da fatura": está vazia\. ID da fatura cuja NFS-e será emitida \(número inteiro\)\.$/),
    ]);
    expect(built.issues[0].column).toBeUndefined();
  });

  it('a bad cell names its row, column title and letter', () => {
    const built = build('criarAssinaturaPersonalizada', custom({ 7: 'dez reais' }));
    expect(built.issues).toHaveLength(1);
    expect(built.issues[0]).toMatchObject({ sheet: 'Lote', row: 7, column: 8 });
    expect(built.issues[0].message).toMatch(/^Linha 7, coluna "Valor" \(H\): .+\.$/);
  });

  it('an update sends its record id in the path, and the NFS-e text only when its flag is Sim', () => {
    const key = 'atualizarAssinaturaPersonalizada';
    const on = build(key, [456, 99.9, 'Reajuste', 'Sim', 'Serviços contábeis']);
    expect(on.issues).toEqual([]);
    expect(on).toMatchObject({ pathId: 456, key: 456, needsKey: false });
    expect(on.body).toEqual({
      valor: 99.9,
      descricaoAssinaturaContrato: 'Reajuste',
      isAtualizaDiscriminacaoNfse: true,
      discriminacaoNfse: 'Serviços contábeis',
    });
    const off = build(key, [456, 99.9, 'Reajuste', 'Não', 'Texto que não vai']);
    expect(off.body.discriminacaoNfse).toBe('');
    const blank = build(key, [456, 99.9, 'Reajuste', 'Não', '']);
    expect(blank.issues).toEqual([]);
    expect(blank.body.discriminacaoNfse).toBe('');
  });

  it('a rule across cells is reported on the cell it names', () => {
    const built = build('atualizarAssinaturaPersonalizada', [456, 99.9, 'Reajuste', 'Sim', '']);
    expect(built.issues.map((i) => i.message)).toEqual([
      'Linha 7, coluna "Discriminação da NFS-e" (E): está vazia, mas "Atualizar discriminação da NFS-e" é Sim: escreva o texto da nota ou mude para Não.',
    ]);
  });

  it('an emission is known by its invoice', () => {
    const built = build('emitirNfse', [1001]);
    expect(built).toMatchObject({ key: 1001, needsKey: false, body: { idFatura: 1001 }, issues: [] });
    expect(built.pathId).toBeUndefined();
  });

  it('a plan subscription carries the discounts linked to its key, and their problems', () => {
    const key = 'criarAssinaturaPlano';
    const row: CellValue[] = ['P-1', 321, adesao, '11/2026', 12, 1, 'AGRUPADA', 10, ''];
    const discount = {
      idIntegracao: 'P-1-D1',
      descricao: 'Fidelidade',
      tipoDesconto: 'VALOR',
      valorDesconto: 10,
      competenciaInicial: '11/2026',
      competenciaFinal: '10/2027',
    };
    const problem = { sheet: 'Descontos', row: 4, column: 5, message: 'Aba "Descontos": Linha 4 …' };
    const linked: Discounts = { byKey: new Map([['P-1', { bodies: [discount], issues: [] }]]) };
    const withDiscount = build(key, row, linked);
    expect(withDiscount.issues).toEqual([]);
    expect(withDiscount.body.descontos).toEqual([discount]);
    expect(build(key, ['P-2', ...row.slice(1)], linked).body.descontos).toEqual([]);
    expect(build(key, row).body.descontos).toEqual([]);
    const faulty: Discounts = { byKey: new Map([['P-1', { bodies: [discount], issues: [problem] }]]) };
    expect(build(key, row, faulty).issues).toEqual([problem]);
    // A plan row without its key has no discounts, even one linked to "undefined".
    const stray: Discounts = { byKey: new Map([['undefined', { bodies: [discount], issues: [problem] }]]) };
    const keyless = build(key, ['', ...row.slice(1)], stray);
    expect(keyless.issues).toEqual([]);
    expect(keyless.body.descontos).toEqual([]);
  });

  it('what the request check refuses beyond the cells is reported too, on the row', () => {
    const row: CellValue[] = ['P-1', 321, adesao, '11/2026', 12, 1, 'AGRUPADA', 10, ''];
    const linked: Discounts = { byKey: new Map([['P-1', { bodies: [{ descricao: 'Sem tipo' }], issues: [] }]]) };
    const built = build('criarAssinaturaPlano', row, linked);
    expect(built.issues.length).toBeGreaterThan(0);
    expect(built.issues[0]).toMatchObject({ row: 7, column: undefined });
    expect(built.issues[0].message).toMatch(/^Linha 7, coluna "descontos\.0\.[a-zA-Z]+": .+\.$/);
  });
});

describe('readFields', () => {
  it('a rule naming a field that is no column is reported under the field name', () => {
    const { issues } = readFields(discountColumns, { assinatura: 1 }, ['P-1'], 9, 'Descontos', zone, [{ field: 'extra', check: () => 'não pode' }]);
    expect(issues.map((i) => i.message)).toContain('Linha 9, coluna "extra": não pode.');
  });

  it('reads each column at its position, whatever the order', () => {
    const { values } = readFields(discountColumns, { assinatura: 3, descricao: 1 }, ['Fidelidade', 'lixo', 'P-9'], 2, 'Descontos', zone);
    expect(values).toMatchObject({ assinatura: 'P-9', descricao: 'Fidelidade' });
  });
});

describe('small readers', () => {
  it('a row is blank when every input cell is empty or spaces, whatever lies outside them', () => {
    const inputs = { a: 1, b: 3 };
    expect(isBlankRow(inputs, ['', 'resultado', null] as unknown as CellValue[])).toBe(true);
    expect(isBlankRow(inputs, [undefined, 'x', '   '] as unknown as CellValue[])).toBe(true);
    expect(isBlankRow(inputs, ['', '', 0])).toBe(false);
    expect(isBlankRow(inputs, ['x', '', ''])).toBe(false);
    expect(isBlankRow(inputs, ['', '', false])).toBe(false);
    expect(isBlankRow(inputs, ['', '', adesao])).toBe(false);
  });

  it('a status typed by hand reads in upper case without surrounding spaces', () => {
    expect(statusOf(' ok ')).toBe('OK');
    expect(statusOf('Pendente')).toBe('PENDENTE');
    expect(statusOf(null)).toBe('');
    expect(statusOf(undefined)).toBe('');
  });

  it('problems join into one cell, cut at 2,000 characters', () => {
    const issue = (message: string) => cellIssue('S', 2, 1, 'Col', message);
    expect(issueText([issue('um.'), issue('dois.')])).toBe('Linha 2, coluna "Col" (A): um. · Linha 2, coluna "Col" (A): dois.');
    const long = issueText([{ sheet: 'S', row: 2, message: 'x'.repeat(2_500) }]);
    expect(long).toBe(`${'x'.repeat(2_000)}…`);
    expect(issueText([{ sheet: 'S', row: 2, message: 'y'.repeat(2_000) }])).toBe('y'.repeat(2_000));
  });
});
