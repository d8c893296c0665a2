import { describe, expect, it } from 'vitest';
import { listings } from '../../../src/api/operations';
import type { ListOperation } from '../../../src/api/operations';
import { intlZone } from '../../../src/api/calendar';
import { COLUMN_TAG, headerNote, noteKey, resolveLayout } from '../../../src/core/sheets/sheet-layout';
import type { SheetPort } from '../../../src/core/sheets/sheet-port';
import { CellConverter, recordRow, tableSpec } from '../../../src/core/sheets/table';

/** Just enough of a sheet for resolveLayout: header notes and column metadata. */
function sheetWithNotes(notes: string[]) {
  const tags = new Map<string, number>();
  const sheet = {
    id: 1,
    name: () => 'Antiga',
    lastRow: () => 1,
    lastColumn: () => notes.length,
    readNotes: (_r: number, c: number, n: number) => notes.slice(c - 1, c - 1 + n),
    columnTags: (key: string) => (key === COLUMN_TAG ? new Map(tags) : new Map()),
    tagColumn: (column: number, _key: string, value: string) => tags.set(value, column),
    untagColumn: (_key: string, value: string) => tags.delete(value),
    ensureSize: () => {},
    clear: () => {},
    setNotes: () => {},
    insertColumnsAfter: () => {},
    sheetTag: () => null,
    setSheetTag: () => {},
  };
  return { sheet: sheet as unknown as SheetPort, tags };
}

describe('header notes', () => {
  it('explain the codes under the key, and only the first line names the field', () => {
    const tx = tableSpec(listings.transacoes as ListOperation);
    const tipo = tx.columns.find((c) => c.key === 'tipoTransacao')!;
    const note = headerNote(tipo);
    expect(note.split('\n')[0]).toBe('tipoTransacao');
    expect(note).toMatch(/R = receita; D = despesa; T = transferência/);
    expect(noteKey(note)).toBe('tipoTransacao');
    const natureza = tableSpec(listings.transacoes as ListOperation)
      .children.find((c) => c.field === 'planosConta')!
      .columns.find((c) => c.key === 'tipoOperacao')!;
    expect(headerNote(natureza)).toMatch(/^tipoOperacao\nNatureza: C = crédito .*D = débito/);
    // A column whose values need no explanation keeps the bare key.
    expect(headerNote(tx.columns.find((c) => c.key === 'idTransacao')!)).toBe('idTransacao');
  });

  it('every enumeration and coded flag of every listing says what its values mean', () => {
    for (const op of Object.values(listings) as ListOperation[]) {
      for (const c of tableSpec(op).columns) {
        // The spec's coded fields: status*, tipo* and forma*Faturamento/Emissao, origem, situação, periodicidade, método/meio, ISS retido.
        if (/^(status|tipo|formaFaturamento|formaEmissao|origem|situacao|periodicidade|metodo|meio|competenciaPagamento|issRetido)/.test(c.key))
          expect(c.note, `${op.key}.${c.key}`).toBeTruthy();
      }
    }
  });

  it('a note the user wrote, or a sentence, names no field', () => {
    expect(noteKey('idFatura')).toBe('idFatura');
    expect(noteKey('  endereco.cidade  \nqualquer coisa')).toBe('endereco.cidade');
    expect(noteKey('$recebidoEm')).toBe('$recebidoEm');
    expect(noteKey('minha anotação sobre idFatura')).toBe('');
    expect(noteKey('idFatura — confere com o ERP')).toBe('');
    expect(noteKey('')).toBe('');
  });

  it('an old sheet is adopted by the key on the note first line, whatever follows it', () => {
    const spec = tableSpec(listings.transacoes as ListOperation);
    const columns = spec.columns.filter((c) => ['idTransacao', 'tipoTransacao', 'valor'].includes(c.key));
    const known = new Set(spec.columns.map((c) => c.key));
    // Column 2 is the user's own, with a note of theirs that starts with a field's name.
    const { sheet, tags } = sheetWithNotes([headerNote(columns[0]), 'tipoTransacao conferido por mim', headerNote(columns[1]), 'valor']);
    const layout = resolveLayout(sheet, columns, known, 'idTransacao', null);
    expect(layout.positions).toEqual([1, 3, 4]);
    expect(Object.fromEntries(tags)).toEqual({ idTransacao: 1, tipoTransacao: 3, valor: 4 });
  });
});

describe('booleans', () => {
  it('ISS retido reads Sim/Não like every boolean, from the codes the service sends', () => {
    const spec = tableSpec(listings.nfse as ListOperation);
    const iss = spec.columns.filter((c) => c.key === 'issRetido');
    const conv = new CellConverter(intlZone('America/Sao_Paulo'));
    expect(recordRow(iss, { issRetido: 2 }, conv)).toEqual(['Sim']);
    expect(recordRow(iss, { issRetido: 0 }, conv)).toEqual(['Não']);
    // A code the spec never showed is not guessed at.
    expect(recordRow(iss, { issRetido: 1 }, conv)).toEqual(['1']);
    // Every other boolean-like column is a boolean column too.
    for (const op of Object.values(listings) as ListOperation[]) {
      for (const c of tableSpec(op).columns) if (/^is[A-Z]|Retido$/.test(c.key.split('.').pop()!)) expect(c.cell, `${op.key}.${c.key}`).toBe('boolean');
    }
  });
});
