/**
 * Telling edits from what was last pulled, without the network: the snapshot
 * an import keeps (compact, split into parts, whole across an interrupted
 * save, per owner and connection), the fields of a row that differ, the
 * update a row becomes (the NFS-e text goes only when it changed) and the
 * preview's totals.
 */
import { describe, expect, it } from 'vitest';
import { EditPlan, editColumns, previewEdits } from '../../src/core/bulk/edits';
import { editableFields, encode, SnapshotStore } from '../../src/core/bulk/snapshot';
import type { CellValue } from '../../src/core/table';
import { MemoryStore, type Rec, zone } from './fixtures';
import { MemorySheet } from './memory-book';

/** A sheet whose columns carry metadata, as an import leaves them. */
class ImportedSheet extends MemorySheet {
  readonly columns = new Map<string, number>();
  override columnTags() {
    return this.columns;
  }
}

const FIELDS = ['idAssinaturaContrato', 'tipoContrato', 'valorUnitario', 'quantidade', 'descricaoAssinaturaContrato', 'discriminacaoNfse'];
const HEADER = ['ID da assinatura', 'Tipo de contrato', 'Valor unitário', 'Quantidade', 'Descrição', 'Discriminação da NFS-e'];
const owner = { id: 'u1', email: 'dona@example.com' };

function imported(records: Rec[]): { sheet: ImportedSheet; store: SnapshotStore } {
  const sheet = new ImportedSheet(7, 'Assinaturas');
  // A column of the user's first: ours are found by metadata, not position.
  sheet.write(1, 1, [['Minhas notas', ...HEADER]]);
  FIELDS.forEach((f, i) => sheet.columns.set(f, i + 2));
  sheet.write(
    2,
    1,
    records.map((r) => ['', ...FIELDS.map((f) => (r[f] ?? '') as CellValue)]),
  );
  const store = new SnapshotStore(new MemoryStore());
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
    const store = new SnapshotStore({
      ...backing,
      set: (k, v) => backing.map.set(k, v),
      get: (k) => backing.get(k),
      delete: (k) => backing.delete(k),
      keys: () => backing.keys(),
    });
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
    const store = new SnapshotStore(backing);
    store.pulled(7, owner, 'c1', [custom(1, 100)], 1);
    const dying = new SnapshotStore({
      get: (k) => backing.get(k),
      set: (k, v) => {
        if (!k.includes('#')) throw new Error('killed');
        backing.set(k, v);
      },
      delete: (k) => backing.delete(k),
      keys: () => backing.keys(),
    });
    expect(() => dying.pulled(7, owner, 'c1', [custom(1, 200)], 2)).toThrow('killed');
    expect(store.get(7)?.records.get('1')?.values[editableFields().indexOf('valorUnitario')]).toBe('100');
  });

  it('a pull by another owner or connection starts over instead of mixing organizations', () => {
    const store = new SnapshotStore(new MemoryStore());
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
    // A plan's price is not something the service lets the user update: not an edit.
    sheet.write(4, at('valorUnitario'), [[1]]);
    // Nor does typing "PLANO" over a custom contract's type change what it is.
    sheet.write(2, at('tipoContrato'), [['PLANO']]);
    const p = planOf(sheet, store);
    const preview = previewEdits(sheet, p);
    expect(preview.changed).toEqual([3, 4]);
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
