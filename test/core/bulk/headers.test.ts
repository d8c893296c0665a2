/**
 * Finding a sheet's columns by their title (or the field name its note starts
 * with), never by position; refusing a sheet that lacks a required column;
 * adding the columns a run fills; telling which operation a sheet was made for.
 */
import { describe, expect, it } from 'vitest';
import { PARTIAL_MARK } from '../../../src/core/sheets/sheet-names';
import { bulkOperation, RESULT_NOTE } from '../../../src/core/bulk/definitions';
import { columnLetter, ensureLayout, guessOperation, LayoutError, matchColumns, normalizeHeader, ownLabel } from '../../../src/core/bulk/headers';
import { CUSTOM_HEADER } from './fixtures';
import { MemoryBook, MemorySheet } from './memory-book';

/** A sheet that remembers how it was grown and styled. */
class WatchedSheet extends MemorySheet {
  sizes: Array<[number, number]> = [];
  styled: number[] = [];
  override ensureSize(...size: number[]) {
    this.sizes.push([size[0], size[1]]);
  }
  override setHeaderStyle(...columns: number[]) {
    this.styled.push(columns[0]);
  }
}

function sheetWith(header: string[], rows: string[][] = [], notes: string[] = []): WatchedSheet {
  const sheet = new WatchedSheet(5, 'Minha aba');
  sheet.write(1, 1, [header]);
  if (rows.length) sheet.write(2, 1, rows);
  if (notes.length) sheet.setNotes(1, 1, notes);
  return sheet;
}

const custom = bulkOperation('criarAssinaturaPersonalizada');
const nfse = bulkOperation('emitirNfse');

describe('reading titles', () => {
  it('titles compare without accents, case, punctuation, extra spaces or the mark of an incomplete import', () => {
    expect(normalizeHeader('  Competência   Inicial ')).toBe('competencia inicial');
    expect(normalizeHeader('CPF/CNPJ do cliente')).toBe('cpf cnpj do cliente');
    expect(normalizeHeader(`${PARTIAL_MARK}ID da Fatura`)).toBe('id da fatura');
    expect(normalizeHeader('Ação_nº 2')).toBe('acao n 2');
  });

  it('column letters go past Z as the spreadsheet names them', () => {
    expect([1, 2, 26, 27, 28, 52, 53, 702, 703].map(columnLetter)).toEqual(['A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
  });
});

describe('matchColumns', () => {
  it('finds each column by its title or its field name, wherever it is', () => {
    const labels = ['Observações', 'idfatura'];
    expect(matchColumns(nfse.columns, nfse.results, labels, [], 'Aba').inputs).toEqual({ idFatura: 2 });
    expect(matchColumns(nfse.columns, nfse.results, ['', 'ID DA FATURA'], [], 'Aba').inputs).toEqual({ idFatura: 2 });
  });

  it('finds a column by the field name its note starts with, whatever its title', () => {
    const m = matchColumns(nfse.columns, nfse.results, ['Minha coluna', 'Fatura nº'], ['', '  idFatura — id da fatura importada'], 'Aba');
    expect(m.inputs).toEqual({ idFatura: 2 });
    expect(m.problems).toEqual([]);
    expect(matchColumns(nfse.columns, nfse.results, ['Fatura nº'], ['idFatura'], 'Aba').inputs).toEqual({ idFatura: 1 });
    // Only a name the note starts with: one further in, or after punctuation, is not the column's field.
    expect(matchColumns(nfse.columns, nfse.results, ['Fatura nº'], ['— idFatura'], 'Aba').inputs).toEqual({});
    expect(matchColumns(nfse.columns, nfse.results, ['Fatura nº'], ['A fatura: idFatura'], 'Aba').inputs).toEqual({});
  });

  it('a missing required column is a problem naming it, the sheet and what to do', () => {
    const m = matchColumns(nfse.columns, nfse.results, ['Outra'], ['idCliente — nota'], 'Notas');
    expect(m.problems).toEqual([
      'Falta a coluna "ID da fatura" (idFatura) na linha 1 da aba "Notas": acrescente-a com esse título ou crie um modelo pela barra lateral.',
    ]);
  });

  it('a column twice is a problem naming both letters; the first one is used', () => {
    const m = matchColumns(nfse.columns, nfse.results, ['ID da fatura', 'x', 'idFatura'], [], 'Notas');
    expect(m.problems).toEqual(['A coluna "ID da fatura" aparece mais de uma vez na aba "Notas" (colunas A e C): deixe só uma.']);
    expect(m.inputs.idFatura).toBe(1);
  });

  it('the customer column may be left out when its CPF/CNPJ column is there, not otherwise', () => {
    const withCpf = CUSTOM_HEADER.filter((h) => h !== 'ID do cliente').concat('CPF/CNPJ do cliente');
    expect(matchColumns(custom.columns, custom.results, withCpf, [], 'Aba').problems).toEqual([]);
    const without = CUSTOM_HEADER.filter((h) => h !== 'ID do cliente');
    expect(matchColumns(custom.columns, custom.results, without, [], 'Aba').problems).toEqual([
      expect.stringContaining('Falta a coluna "ID do cliente" (idCliente)'),
    ]);
  });

  it('optional columns may be missing', () => {
    const m = matchColumns(custom.columns, custom.results, CUSTOM_HEADER.slice(1), [], 'Aba');
    expect(m.problems).toEqual([]);
    expect(m.inputs.idIntegracao).toBeUndefined();
    expect(m.inputs.idCliente).toBe(1);
  });

  it('result columns are ours by title only, and only when their note is ours or empty', () => {
    const labels = ['ID da fatura', 'Status', 'Status do lote', 'Mensagem', 'Número da NFS-e'];
    const notes = ['', 'statusFatura — status da fatura', `${RESULT_NOTE} Preenchido…`, '', 'numero — nota'];
    const m = matchColumns(nfse.columns, nfse.results, labels, notes, 'Faturas');
    expect(m.results).toEqual({ status: 3, mensagem: 4 });
    expect(Object.keys(m.results)).toEqual(['status', 'mensagem']);
    // A note typed with spaces around it, or only spaces, is still ours.
    const spaced = matchColumns(nfse.columns, nfse.results, ['ID da fatura', 'Status', 'Mensagem'], ['', `  ${RESULT_NOTE}`, '   '], 'Faturas');
    expect(spaced.results).toEqual({ status: 2, mensagem: 3 });
    // A data column sharing a result's field name is never taken for the result.
    expect(matchColumns(nfse.columns, nfse.results, ['ID da fatura', 'id'], [], 'Faturas').results).toEqual({});
  });
});

describe('ensureLayout', () => {
  it('appends the key column and the result columns after the last titled one, text headers with their notes', () => {
    const header = CUSTOM_HEADER.slice(1);
    const sheet = sheetWith(header, [['1', '2']]);
    const layout = ensureLayout(sheet, custom);
    const added = ['ID de integração', 'Status', 'ID da assinatura criada', 'Mensagem', 'Processado em'];
    expect(sheet.grid[0]).toEqual([...header, ...added]);
    expect(layout.inputs.idIntegracao).toBe(10);
    expect(layout.results).toEqual({ status: 11, id: 12, mensagem: 13, processadoEm: 14 });
    expect(layout.lastColumn).toBe(14);
    expect(sheet.notes[0][9]).toMatch(/^idIntegracao — Identificador da assinatura/);
    expect(sheet.notes[0][10]).toMatch(new RegExp(`^${RESULT_NOTE} Preenchido pelo complemento`));
    expect(sheet.sizes).toEqual([[2, 14]]);
    expect(sheet.styled).toEqual([14]);
    // Headers as text; below them each column's own format, over the rows that exist.
    expect([10, 11, 12, 13, 14].map((c) => sheet.formats.get(`1:${c}`))).toEqual(['@', '@', '@', '@', '@']);
    expect([10, 11, 12, 13, 14].map((c) => sheet.formats.get(`2:${c}`))).toEqual(['@', '@', '0', '@', 'dd/MM/yyyy HH:mm:ss']);
    expect(sheet.formats.has('3:10')).toBe(false);
    // The appended Mensagem is wide enough to read.
    expect([...sheet.columnWidths]).toEqual([[13, 420]]);
  });

  it('formats every row that exists, however many', () => {
    const sheet = sheetWith(['ID da fatura'], [['1'], ['2'], ['3']]);
    ensureLayout(sheet, nfse);
    expect(sheet.formats.get('4:2')).toBe('@');
    expect(sheet.formats.get('4:3')).toBe('0');
    expect(sheet.formats.has('5:2')).toBe(false);
  });

  it('a sheet with only its header gets room for one row below it', () => {
    const sheet = sheetWith(['ID da fatura']);
    ensureLayout(sheet, nfse);
    expect(sheet.sizes).toEqual([[2, 7]]);
    expect(sheet.formats.get('2:3')).toBe('0');
  });

  it("a result title the sheet already uses for its own column gets the batch's own title", () => {
    const sheet = sheetWith(['ID da fatura', 'Status'], [], ['', 'statusFatura — status da fatura']);
    const layout = ensureLayout(sheet, nfse);
    expect(sheet.grid[0].slice(2)).toEqual([ownLabel('Status'), 'ID da NFS-e', 'Número da NFS-e', 'Fatura conferida', 'Mensagem', 'Processado em']);
    expect(layout.results.status).toBe(3);
    // Found again by that title on the next run, nothing appended twice.
    const again = ensureLayout(sheet, nfse);
    expect(again.results).toEqual(layout.results);
    expect(sheet.grid[0]).toHaveLength(8);
  });

  it('a complete sheet is left as it is', () => {
    const header = ['ID da fatura', 'Status', 'ID da NFS-e', 'Número da NFS-e', 'Fatura conferida', 'Mensagem', 'Processado em', 'Notas minhas'];
    const sheet = sheetWith(header);
    const writes = sheet.writes;
    const layout = ensureLayout(sheet, nfse);
    expect(sheet.writes).toBe(writes);
    expect(sheet.styled).toEqual([]);
    expect(layout).toEqual({
      inputs: { idFatura: 1 },
      results: { status: 2, id: 3, numero: 4, chave: 5, mensagem: 6, processadoEm: 7 },
      // The user's own titled column is read too.
      lastColumn: 8,
    });
  });

  it('a creation sheet that has its key column gets only the result columns', () => {
    const sheet = sheetWith(CUSTOM_HEADER);
    const layout = ensureLayout(sheet, custom);
    expect(layout.inputs.idIntegracao).toBe(1);
    expect(sheet.grid[0].slice(10)).toEqual(['Status', 'ID da assinatura criada', 'Mensagem', 'Processado em']);
  });

  it('appends after the last titled column, not after trailing blank titles', () => {
    const sheet = sheetWith(['ID da fatura', '', 'Obs', ' ', ''], [['1', '', '', '', 'x']]);
    const layout = ensureLayout(sheet, nfse);
    expect(layout.results.status).toBe(4);
  });

  it('refuses a sheet lacking a required column, saying all that is wrong at once', () => {
    const sheet = sheetWith(['Descrição', 'Descrição']);
    expect(() => ensureLayout(sheet, custom)).toThrow(LayoutError);
    expect(() => ensureLayout(sheet, custom)).toThrow('deixe só uma. Falta a coluna');
    try {
      ensureLayout(sheet, custom);
    } catch (e) {
      expect((e as Error).message).toContain('A coluna "Descrição" aparece mais de uma vez');
      expect((e as Error).message).toContain('Falta a coluna "ID do cliente"');
      expect((e as Error).name).toBe('LayoutError');
    }
  });

  it("an imported sheet's inputs are the columns its metadata names, whatever their titles", () => {
    const sheet = sheetWith(['Assinatura', 'Quanto']);
    const layout = ensureLayout(sheet, bulkOperation('atualizarAssinaturaPlano'), [], { idAssinaturaContrato: 1, quantidade: 2 });
    expect(layout.inputs).toEqual({ idAssinaturaContrato: 1, quantidade: 2 });
    expect(layout.results).toEqual({ status: 3, mensagem: 4, processadoEm: 5 });
  });

  it('the last column counts inputs found past the titled ones', () => {
    const sheet = sheetWith(['Status', 'Mensagem', 'Processado em']);
    const layout = ensureLayout(sheet, bulkOperation('atualizarAssinaturaPlano'), [], { idAssinaturaContrato: 9 });
    expect(layout.lastColumn).toBe(9);
  });
});

describe('guessOperation', () => {
  const book = new MemoryBook();
  const guess = (header: string[], notes: string[] = []) => {
    const sheet = book.sheet(`aba ${book.sheets.length}`, header);
    if (notes.length) sheet.setNotes(1, 1, notes);
    return guessOperation(sheet);
  };

  it('the operation whose required columns are all there and most of the rest', () => {
    expect(guess(CUSTOM_HEADER)).toBe('criarAssinaturaPersonalizada');
    expect(guess(['ID da fatura', 'Cliente', 'Valor'])).toBe('emitirNfse');
    expect(guess(['ID da assinatura', 'Quantidade', 'Descrição'])).toBe('atualizarAssinaturaPlano');
    expect(guess(['ID da assinatura', 'Valor', 'Descrição', 'Atualizar discriminação da NFS-e'])).toBe('atualizarAssinaturaPersonalizada');
  });

  it('between two that fit fully, the one with more columns found', () => {
    const plano = bulkOperation('criarAssinaturaPlano')
      .columns.filter((c) => c.in === undefined)
      .map((c) => c.label);
    expect(guess(plano)).toBe('criarAssinaturaPlano');
  });

  it('a sheet with all of one operation’s columns beats one with only the required columns of another', () => {
    const required = custom.columns.filter((c) => c.required).map((c) => c.label);
    // Fits the custom creation by its required columns only, and the plan update fully.
    expect(guess([...required, 'ID da assinatura', 'Quantidade'])).toBe('atualizarAssinaturaPlano');
    // Fits the NFS-e emission and the plan update, both fully: the one with more columns found.
    expect(guess(['ID da fatura', 'ID da assinatura', 'Quantidade', 'Descrição'])).toBe('atualizarAssinaturaPlano');
    expect(guess(['ID da fatura'])).toBe('emitirNfse');
  });

  it('none when no operation fits, or the sheet is empty', () => {
    expect(guess(['Nome', 'E-mail'])).toBeNull();
    expect(guessOperation(book.create('vazia'))).toBeNull();
  });
});
