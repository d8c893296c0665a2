/**
 * Telling edits from what was last pulled, without the network: the snapshot
 * an import keeps (compact, split into parts, whole across an interrupted
 * save, per owner and connection), the fields of a row that differ, the
 * update a row becomes (the NFS-e text goes only when it changed) and the
 * preview's totals.
 */
import { describe, expect, it } from 'vitest';
import { EditError, EditPlan, editColumns, previewEdits } from '../../../src/core/bulk/edits';
import { editableFields, encode, SnapshotStore } from '../../../src/core/bulk/snapshot';
import type { CellValue } from '../../../src/core/sheets/table';
import { MemoryStore, type Rec, zone, trusted } from './fixtures';
import { MemorySheet } from './memory-book';

/** A sheet whose columns carry metadata, as an import leaves them. */
class ImportedSheet extends MemorySheet {
  readonly columns = new Map<string, number>();
  override columnTags() {
    return this.columns;
  }
  /** As harsh as Sheets: a range of no rows is refused. */
  override read(row: number, column: number, numRows: number, numColumns: number) {
    if (numRows < 1 || numColumns < 1) throw new Error('The number of rows in the range must be at least 1.');
    return super.read(row, column, numRows, numColumns);
  }
}

const FIELDS = ['idAssinaturaContrato', 'tipoContrato', 'valorUnitario', 'quantidade', 'descricaoAssinaturaContrato', 'discriminacaoNfse'];
const HEADER = ['ID da assinatura', 'Tipo de contrato', 'Valor unitário', 'Quantidade', 'Descrição', 'Discriminação da NFS-e'];
const owner = { id: 'u1', email: 'dona@example.com' };

function imported(records: Rec[], backing = new MemoryStore()): { sheet: ImportedSheet; store: SnapshotStore } {
  const sheet = new ImportedSheet(7, 'Assinaturas');
  // A column of the user's first: ours are found by metadata, not position.
  sheet.write(1, 1, [['Minhas notas', ...HEADER]]);
  FIELDS.forEach((f, i) => sheet.columns.set(f, i + 2));
  sheet.write(
    2,
    1,
    records.map((r) => ['', ...FIELDS.map((f) => (r[f] ?? '') as CellValue)]),
  );
  const store = new SnapshotStore(trusted(backing));
  store.pulled(sheet.id, owner, 'c1', records, 1_000);
  return { sheet, store };
}

const custom = (id: number, valor: number, extra: Rec = {}): Rec => ({
  idAssinaturaContrato: id,
  tipoContrato: 'PERSONALIZADO',
  valorUnitario: valor,
  quantidade: 1,
  descricaoAssinaturaContrato: `Contrato ${id}`,
  discriminacaoNfse: 'Serviços contábeis',
  ...extra,
});
const plan = (id: number, quantidade: number): Rec => ({
  idAssinaturaContrato: id,
  tipoContrato: 'PLANO',
  valorUnitario: 80,
  quantidade,
  descricaoAssinaturaContrato: `Plano ${id}`,
  discriminacaoNfse: null,
});

function planOf(sheet: ImportedSheet, store: SnapshotStore): EditPlan {
  return new EditPlan(editColumns(sheet), store.get(sheet.id)!, sheet.name(), zone);
}

const at = (field: string) => FIELDS.indexOf(field) + 2;

describe('the snapshot an import keeps', () => {
  it('keeps numbers and short texts whole, long or multi-line texts as start, length and hash', () => {
    expect(encode(120.5)).toBe('120.5');
    expect(encode('  Contrato 1 ')).toBe('Contrato 1');
    expect(encode(null)).toBe('');
    const long = `${'x'.repeat(100)}`;
    expect(encode(long)).toMatch(/^x{40}…\\100:[0-9a-f]{8}$/);
    expect(encode(`${long}y`)).not.toBe(encode(long));
    expect(encode('linha 1\nlinha 2')).not.toContain('\n');
  });

  it('round-trips thousands of records through parts, and says whose pull it was', () => {
    const backing = new MemoryStore();
    const store = new SnapshotStore(
      trusted({
        ...backing,
        set: (k, v) => backing.map.set(k, v),
        get: (k) => backing.get(k),
        delete: (k) => backing.delete(k),
        keys: () => backing.keys(),
      }),
    );
    const records = Array.from({ length: 3_000 }, (_, i) =>
      custom(10_000 + i, 100 + i, { descricaoAssinaturaContrato: `Contrato número ${i} com um texto um pouco mais longo` }),
    );
    store.pulled(7, owner, 'c1', records, 5);
    expect([...backing.map.keys()].filter((k) => k.includes('#')).length).toBeGreaterThan(2);
    const back = store.get(7)!;
    expect(back).toMatchObject({ owner, connectionId: 'c1', at: 5 });
    expect(back.records.size).toBe(3_000);
    expect(back.records.get('10002')).toEqual({ type: 'PERSONALIZADO', values: editableFields().map((f) => encode(records[2][f])) });
  });

  it('a save killed before its head leaves the previous snapshot readable', () => {
    const backing = new MemoryStore();
    const store = new SnapshotStore(trusted(backing));
    store.pulled(7, owner, 'c1', [custom(1, 100)], 1);
    const dying = new SnapshotStore(
      trusted({
        get: (k) => backing.get(k),
        set: (k, v) => {
          if (!k.includes('#')) throw new Error('killed');
          backing.set(k, v);
        },
        delete: (k) => backing.delete(k),
        keys: () => backing.keys(),
      }),
    );
    expect(() => dying.pulled(7, owner, 'c1', [custom(1, 200)], 2)).toThrow('killed');
    expect(store.get(7)?.records.get('1')?.values[editableFields().indexOf('valorUnitario')]).toBe('100');
  });

  it('a pull by another owner or connection starts over instead of mixing organizations', () => {
    const store = new SnapshotStore(trusted());
    store.pulled(7, owner, 'c1', [custom(1, 100)], 1);
    store.pulled(7, owner, 'c2', [custom(2, 100)], 2);
    expect([...(store.get(7)?.records.keys() ?? [])]).toEqual(['2']);
  });
});

describe('telling edits from the snapshot', () => {
  it('finds only the rows whose editable fields changed, by the record type as pulled', () => {
    const { sheet, store } = imported([custom(1, 100), custom(2, 200), plan(3, 2)]);
    sheet.write(3, at('valorUnitario'), [[209.24]]);
    sheet.write(4, at('quantidade'), [[5]]);
    // A plan's price is not something the service lets the user update: not an edit, but listed with why.
    sheet.write(4, at('valorUnitario'), [[1]]);
    // Nor does typing "PLANO" over a custom contract's type change what it is.
    sheet.write(2, at('tipoContrato'), [['PLANO']]);
    const p = planOf(sheet, store);
    const preview = previewEdits(sheet, p);
    expect(preview.changed.map((c) => c.r)).toEqual([3, 4]);
    expect(preview.unsent).toEqual([
      {
        row: 4,
        id: '3',
        fields: [{ field: 'valorUnitario', label: 'Valor unitário', before: '80,00', after: '1,00' }],
        why: 'numa assinatura de plano o serviço altera só Quantidade e Descrição',
      },
    ]);
    expect(preview.rows.map((r) => [r.id, r.operation, r.fields.map((f) => `${f.label}: ${f.before} → ${f.after}`)])).toEqual([
      ['2', 'atualizarAssinaturaPersonalizada', ['Valor unitário: 200,00 → 209,24']],
      ['3', 'atualizarAssinaturaPlano', ['Quantidade: 2 → 5']],
    ]);
    expect(preview.totals).toEqual({ before: 200, after: 209.24, difference: 9.24 });
  });

  it('builds each row as its update; the NFS-e text goes (flag on) only when it changed', () => {
    const { sheet, store } = imported([custom(1, 100), custom(2, 200)]);
    sheet.write(2, at('valorUnitario'), [[110]]);
    sheet.write(3, at('discriminacaoNfse'), [['Honorários de novembro']]);
    const p = planOf(sheet, store);
    const [one, two] = [2, 3].map((r) => p.build(sheet.read(r, 1, 1, 8)[0], r)!.built);
    expect(one.issues).toEqual([]);
    expect(one.pathId).toBe(1);
    expect(one.body).toEqual({ valor: 110, descricaoAssinaturaContrato: 'Contrato 1', isAtualizaDiscriminacaoNfse: false, discriminacaoNfse: '' });
    expect(two.body).toMatchObject({ valor: 200, isAtualizaDiscriminacaoNfse: true, discriminacaoNfse: 'Honorários de novembro' });
  });

  it('rows of one type and flag go under the very same operation, so a push sends them together', () => {
    const { sheet, store } = imported([custom(1, 100), custom(2, 200), plan(3, 1)]);
    sheet.write(2, at('valorUnitario'), [[110]]);
    sheet.write(3, at('valorUnitario'), [[210]]);
    const p = planOf(sheet, store);
    const [one, two, three] = [2, 3, 4].map((r) => p.build(sheet.read(r, 1, 1, 8)[0], r)!.op);
    expect(one).toBe(two);
    expect(three).not.toBe(one);
  });

  it('the preview shows a valor with two decimals and a quantidade as typed, with a comma; a cell that is no number as it is', () => {
    const { sheet, store } = imported([custom(1, 100), plan(2, 1)]);
    sheet.write(2, at('valorUnitario'), [['caro']]);
    sheet.write(3, at('quantidade'), [['2.5']]);
    const preview = previewEdits(sheet, planOf(sheet, store));
    expect(preview.rows.map((r) => r.fields.map((f) => [f.before, f.after]))).toEqual([[['100,00', 'caro']], [['1', '2,5']]]);
  });

  it('a cell that is not a valor is a change with a problem naming the row and the sheet’s own column', () => {
    const { sheet, store } = imported([custom(1, 100), custom(2, 200)]);
    sheet.write(2, at('valorUnitario'), [['cento e dez']]);
    sheet.write(3, at('valorUnitario'), [['#DIV/0!']]);
    const preview = previewEdits(sheet, planOf(sheet, store));
    expect(preview).toMatchObject({ count: 2, invalid: 2 });
    expect(preview.rows[0].problem).toMatch(/^Linha 2, coluna "Valor unitário" \(D\): esperava um valor em reais/);
    expect(preview.rows[1].problem).toMatch(/^Linha 3, coluna "Valor unitário" \(D\): a célula mostra o erro de fórmula #DIV\/0!/);
    // Invalid rows count at their old valor: the totals say what would change if the rest went.
    expect(preview.totals.difference).toBe(0);
  });

  it('once settled with what was sent, a row is no longer an edit', () => {
    const { sheet, store } = imported([custom(1, 100)]);
    sheet.write(2, at('valorUnitario'), [[104.62]]);
    const p = planOf(sheet, store);
    const made = p.build(sheet.read(2, 1, 1, 8)[0], 2)!;
    p.settle('1', made.op, made.built.body);
    expect(previewEdits(sheet, p).count).toBe(0);
  });

  it('refuses a sheet that is not an import of subscriptions', () => {
    const sheet = new ImportedSheet(8, 'Outra');
    sheet.write(1, 1, [['a']]);
    expect(() => editColumns(sheet)).toThrow(/não é uma importação de Assinaturas/);
  });
});

describe('edits at their edges', () => {
  it('finds the columns a sheet still has, labelled by its own trimmed headers, and leaves out one the user deleted', () => {
    const sheet = new ImportedSheet(7, 'Assinaturas');
    sheet.write(1, 1, [['ID', '  Preço  ', '', 'Texto']]);
    sheet.columns.set('idAssinaturaContrato', 1).set('valorUnitario', 2).set('descricaoAssinaturaContrato', 3).set('discriminacaoNfse', 4);
    expect(editColumns(sheet)).toEqual({
      id: 1,
      fields: { valorUnitario: 2, descricaoAssinaturaContrato: 3, discriminacaoNfse: 4 },
      labels: { valorUnitario: 'Preço', descricaoAssinaturaContrato: 'descricaoAssinaturaContrato', discriminacaoNfse: 'Texto' },
      lastColumn: 4,
    });
  });

  it('refuses a consolidated sheet of several companies, saying to edit one company’s sheet', () => {
    const { sheet } = imported([custom(1, 100)]);
    sheet.columns.set('empresa', 9);
    const refused = (() => {
      try {
        editColumns(sheet);
      } catch (e) {
        return e as Error;
      }
    })();
    expect(refused).toBeInstanceOf(EditError);
    expect(refused).toMatchObject({ name: 'EditError', message: expect.stringMatching(/^Abas consolidadas de várias empresas ainda não enviam alterações/) });
  });

  it('without a Quantidade or Valor column, a plan’s and a contract’s other edits still go, with no valor in the totals', () => {
    const { sheet, store } = imported([custom(1, 100), plan(2, 3)]);
    sheet.columns.delete('quantidade');
    sheet.columns.delete('valorUnitario');
    sheet.write(2, at('descricaoAssinaturaContrato'), [['Contrato revisto']]);
    sheet.write(3, at('descricaoAssinaturaContrato'), [['Plano revisto']]);
    const p = planOf(sheet, store);
    expect(p.inputs).toEqual({ idAssinaturaContrato: 2, descricaoAssinaturaContrato: 6, discriminacaoNfse: 7 });
    const preview = previewEdits(sheet, p);
    expect(preview.rows.map((r) => [r.id, r.fields.map((f) => `${f.label}: ${f.before} → ${f.after}`), r.valor])).toEqual([
      ['1', ['Descrição: Contrato 1 → Contrato revisto'], undefined],
      ['2', ['Descrição: Plano 2 → Plano revisto'], undefined],
    ]);
    expect(preview.totals).toEqual({ before: 0, after: 0, difference: 0 });
  });

  it('shows a cleared valor as empty, and a valid change counts no problem, with its valor before and after', () => {
    const { sheet, store } = imported([custom(1, 100), custom(2, 200)]);
    sheet.write(2, at('valorUnitario'), [['']]);
    sheet.write(3, at('valorUnitario'), [[250]]);
    const preview = previewEdits(sheet, planOf(sheet, store));
    expect(preview).toMatchObject({ count: 2, invalid: 1 });
    expect(preview.rows.map((r) => [r.fields[0].after, r.valor])).toEqual([
      ['', { before: 100, after: null }],
      ['250,00', { before: 200, after: 250 }],
    ]);
    expect(preview.totals).toEqual({ before: 300, after: 350, difference: 50 });
  });

  it('rows the user added, or whose record no update applies to, are not edits; an id typed with spaces is still its record', () => {
    const { sheet, store } = imported([custom(1, 100), { ...custom(2, 100), tipoContrato: 'AVULSO' }]);
    sheet.write(3, at('valorUnitario'), [[300]]);
    sheet.write(4, 1, [['', '', '', 999, 1, 'Linha nova', '']]);
    sheet.write(5, 1, [['', 77, 'PERSONALIZADO', 999, 1, 'Outra nova', '']]);
    sheet.write(2, at('idAssinaturaContrato'), [[' 1 ']]);
    sheet.write(2, at('valorUnitario'), [[101]]);
    const p = planOf(sheet, store);
    const preview = previewEdits(sheet, p);
    expect(preview.changed.map((c) => c.r)).toEqual([2]);
    // The edit of a record no update applies to is told, never sent.
    expect(preview.unsent).toEqual([
      {
        row: 3,
        id: '2',
        fields: [{ field: 'valorUnitario', label: 'Valor unitário', before: '100,00', after: '300,00' }],
        why: 'o serviço não altera assinaturas do tipo "AVULSO" por aqui',
      },
    ]);
    expect(p.build(sheet.read(4, 1, 1, 8)[0], 4)).toBeNull();
  });

  it('an unchanged row builds as its update as pulled; changing both valor and NFS-e text sends the text', () => {
    const { sheet, store } = imported([custom(1, 100), custom(2, 200)]);
    sheet.write(3, at('valorUnitario'), [[210]]);
    sheet.write(3, at('discriminacaoNfse'), [['Honorários de dezembro']]);
    const p = planOf(sheet, store);
    expect(p.build(sheet.read(2, 1, 1, 8)[0], 2)?.built.body).toEqual({
      valor: 100,
      descricaoAssinaturaContrato: 'Contrato 1',
      isAtualizaDiscriminacaoNfse: false,
      discriminacaoNfse: '',
    });
    expect(p.build(sheet.read(3, 1, 1, 8)[0], 3)?.built.body).toMatchObject({
      valor: 210,
      isAtualizaDiscriminacaoNfse: true,
      discriminacaoNfse: 'Honorários de dezembro',
    });
  });

  it('settling takes only the fields sent, the NFS-e text only when its flag was on, and ignores a record it does not hold', () => {
    const { sheet, store } = imported([custom(1, 100), custom(2, 200)]);
    sheet.write(2, at('valorUnitario'), [[110]]);
    sheet.write(3, at('discriminacaoNfse'), [['Honorários de dezembro']]);
    const p = planOf(sheet, store);
    const op = p.build(sheet.read(2, 1, 1, 8)[0], 2)!.op;
    p.settle('1', op, { valor: 110 });
    p.settle('2', op, { isAtualizaDiscriminacaoNfse: true, discriminacaoNfse: 'Honorários de dezembro' });
    p.settle('99', op, { valor: 1 });
    expect(previewEdits(sheet, p).count).toBe(0);
    p.settle('2', op, { isAtualizaDiscriminacaoNfse: false, discriminacaoNfse: '' });
    expect(previewEdits(sheet, p).count).toBe(0);
  });

  it('a sheet of only its header, or of one changed row, previews what it has', () => {
    const { sheet, store } = imported([custom(1, 100)]);
    const empty = new ImportedSheet(9, 'Vazia');
    empty.write(1, 1, [['Minhas notas', ...HEADER]]);
    expect(previewEdits(empty, planOf(sheet, store))).toEqual({
      sheetName: 'Vazia',
      count: 0,
      invalid: 0,
      rows: [],
      more: 0,
      totals: { before: 0, after: 0, difference: 0 },
      unsent: [],
      unsentMore: 0,
      changed: [],
    });
    sheet.write(2, at('valorUnitario'), [[120]]);
    expect(previewEdits(sheet, planOf(sheet, store)).changed.map((c) => c.r)).toEqual([2]);
  });

  it('an optional field blank when pulled and still blank is no change', () => {
    const { sheet, store } = imported([custom(1, 100, { discriminacaoNfse: '' })]);
    expect(previewEdits(sheet, planOf(sheet, store)).count).toBe(0);
  });

  it('lists the first 300 changed rows and counts the rest', () => {
    const records = Array.from({ length: 302 }, (_, i) => custom(i + 1, 100));
    // The work store is a hidden sheet: a part is a cell of up to 50,000 characters, not a 9 KB property.
    const cells = new (class extends MemoryStore {
      override set(key: string, value: string) {
        this.map.set(key, value);
      }
    })();
    const { sheet, store } = imported(records, cells);
    sheet.write(
      2,
      at('valorUnitario'),
      records.map(() => [101]),
    );
    const preview = previewEdits(sheet, planOf(sheet, store));
    expect(preview).toMatchObject({ count: 302, more: 2 });
    expect(preview.rows).toHaveLength(300);
    expect(preview.totals.difference).toBe(302);
  });
});
