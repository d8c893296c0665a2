/**
 * Template sheets: titled columns whose notes start with the field name,
 * formats set before anything is typed, dropdowns for choices, one example
 * row marked by sheet metadata, and for plans the linked Descontos sheet.
 */
import { describe, expect, it } from 'vitest';
import { bulkOperation, discountColumns, RESULT_NOTE, TEMPLATE_ROWS } from '../../../src/core/bulk/definitions';
import { createTemplate, EXAMPLE_TAG, exampleKey } from '../../../src/core/bulk/template';
import { SHEET_TAG } from '../../../src/core/sheets/sheet-layout';
import { zone } from './fixtures';
import { MemoryBook } from './memory-book';

describe('createTemplate', () => {
  it('titles, notes, formats, dropdowns and the example row of an operation', () => {
    const book = new MemoryBook();
    const op = bulkOperation('criarAssinaturaPersonalizada');
    const made = createTemplate(book, op, zone);
    const sheet = book.byId(made.sheetId)!;
    expect(made).toEqual({ sheetId: sheet.id, sheetName: 'Lote · Assinaturas personalizadas', catalogSheets: ['Produtos'] });
    expect(sheet.tags.get(SHEET_TAG)).toBe('modelo:criarAssinaturaPersonalizada');
    const labels = [...op.columns.map((c) => c.label), 'Status', 'ID da assinatura criada', 'Mensagem', 'Processado em'];
    expect(sheet.grid[0]).toEqual(labels);
    expect(sheet.notes[0][0]).toBe(`idIntegracao — ${op.columns[0].note} Opcional.`);
    // ID do cliente and CPF/CNPJ do cliente: either one will do, and each note says where the other is.
    expect(sheet.notes[0][1]).toBe(
      `idCliente — ${op.columns[1].note} Preencha esta coluna ou "CPF/CNPJ do cliente" (coluna K): uma das duas basta; se preencher as duas, precisam ser do mesmo cliente.`,
    );
    expect(sheet.notes[0][10]).toMatch(/^cpfCnpjCliente — .* Preencha esta coluna ou "ID do cliente" \(coluna B\): uma das duas basta;/);
    // Mensagem (column N) is wide enough to read its sentences; other columns keep the default.
    expect([...sheet.columnWidths]).toEqual([[14, 420]]);
    expect(sheet.notes[0][11]).toMatch(new RegExp(`^${RESULT_NOTE} Preenchido pelo complemento`));
    // Titles as text; below them text where digits must survive, dates and money as such.
    expect(labels.map((_, i) => sheet.formats.get(`1:${i + 1}`))).toEqual(labels.map(() => '@'));
    expect(labels.map((_, i) => sheet.formats.get(`${TEMPLATE_ROWS + 1}:${i + 1}`))).toEqual([
      '@',
      '0',
      'dd/MM/yyyy',
      '@',
      '@',
      '0',
      '@',
      '#,##0.00',
      '@',
      '0',
      '@',
      '@',
      '0',
      '@',
      'dd/MM/yyyy HH:mm:ss',
    ]);
    expect(sheet.formats.has(`${TEMPLATE_ROWS + 2}:1`)).toBe(false);
    expect(sheet.dropdowns).toEqual([
      { column: 5, choices: ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] },
      { column: 9, choices: ['AGRUPADA', 'INDIVIDUAL'] },
    ]);
    expect(sheet.frozen).toBe(1);
    // The example row: dates as dates, the status EXEMPLO and a message saying what it is.
    const example = sheet.grid[1];
    expect(example.slice(0, 2)).toEqual(['CLI-0001-2026', 123]);
    expect(example[2]).toEqual(zone.instant({ year: 2026, month: 11, day: 1 }));
    expect(example.slice(11)).toEqual(['EXEMPLO', '', 'Linha de exemplo: substitua pelos seus dados ou apague-a. Linhas EXEMPLO nunca são enviadas.', '']);
    expect(book.activated).toEqual({ sheetId: sheet.id, a1: ['A2'] });
  });

  it('marks the example row by its values in sheet metadata, a date by its instant', () => {
    const book = new MemoryBook();
    const made = createTemplate(book, bulkOperation('criarAssinaturaPersonalizada'), zone);
    const mark = JSON.parse(book.byId(made.sheetId)!.tags.get(EXAMPLE_TAG)!);
    expect(mark).toMatchObject({
      idIntegracao: 'CLI-0001-2026',
      idCliente: '123',
      dataAdesao: `d:${zone.instant({ year: 2026, month: 11, day: 1 }).getTime()}`,
      cpfCnpjCliente: '',
    });
  });

  it('yes/no columns get a Sim/Não dropdown', () => {
    const book = new MemoryBook();
    const made = createTemplate(book, bulkOperation('atualizarAssinaturaPersonalizada'), zone);
    expect(book.byId(made.sheetId)!.dropdowns).toEqual([{ column: 4, choices: ['Sim', 'Não'] }]);
  });

  it('never takes the name of a sheet already there', () => {
    const book = new MemoryBook();
    book.create('Lote · Emitir NFS-e');
    book.create('Lote · Emitir NFS-e (2)');
    expect(createTemplate(book, bulkOperation('emitirNfse'), zone).sheetName).toBe('Lote · Emitir NFS-e (3)');
    expect(book.sheetNames()).toHaveLength(3);
  });

  it('a plan template comes with its Descontos sheet, created once', () => {
    const book = new MemoryBook();
    const first = createTemplate(book, bulkOperation('criarAssinaturaPlano'), zone);
    expect(first.discountSheet).toBe('Descontos');
    const discounts = book.byName('Descontos')!;
    expect(discounts.tags.get(SHEET_TAG)).toBe('modelo:descontos');
    expect(discounts.grid[0]).toEqual(discountColumns.map((c) => c.label));
    expect(discounts.grid[1][0]).toBe('PLANO-0001');
    expect(discounts.dropdowns).toEqual([{ column: 4, choices: ['PERCENTUAL', 'VALOR'] }]);
    const second = createTemplate(book, bulkOperation('criarAssinaturaPlano'), zone);
    expect(second.discountSheet).toBeUndefined();
    expect(book.sheetNames().filter((n) => n === 'Descontos')).toHaveLength(1);
    expect(book.activated?.sheetId).toBe(second.sheetId);
    expect(createTemplate(book, bulkOperation('emitirNfse'), zone).discountSheet).toBeUndefined();
  });
});

describe('exampleKey', () => {
  it('a cell as the example mark compares it', () => {
    expect(exampleKey(' PLANO-0001 ')).toBe('PLANO-0001');
    expect(exampleKey(123)).toBe('123');
    expect(exampleKey(null)).toBe('');
    expect(exampleKey(undefined)).toBe('');
    expect(exampleKey(new Date(86_400_000))).toBe('d:86400000');
    // A Date from another realm (Apps Script's) is still a date.
    const foreign = Object.create(null, { [Symbol.toStringTag]: { value: 'Date' }, getTime: { value: () => 5 } });
    expect(exampleKey(foreign)).toBe('d:5');
  });
});

describe('what a template asks of the sheet', () => {
  it('room for the example and the rows to type, and each dropdown says its choices', () => {
    const sizes: Array<[number, number]> = [];
    const helps: string[] = [];
    const book = new MemoryBook();
    const create = book.create.bind(book);
    book.create = (name: string) => {
      const sheet = create(name);
      sheet.ensureSize = (...size: number[]) => void sizes.push([size[0], size[1]]);
      const dropdown = sheet.setDropdown.bind(sheet);
      sheet.setDropdown = (row: number, column: number, rows: number, choices: readonly string[], ...help: string[]) => {
        helps.push(help[0]);
        dropdown(row, column, rows, choices);
      };
      return sheet;
    };
    createTemplate(book, bulkOperation('criarAssinaturaPlano'), zone);
    const plano = bulkOperation('criarAssinaturaPlano');
    expect(sizes).toEqual([
      [TEMPLATE_ROWS + 1, plano.columns.length + plano.results.length],
      [TEMPLATE_ROWS + 1, discountColumns.length],
      // The Planos tab its ID do plano picks from: a header and the line that says how it fills.
      [2, 4],
    ]);
    expect(helps).toEqual(['Escolha: AGRUPADA, INDIVIDUAL.', 'Escolha: PERCENTUAL, VALOR.']);
    // The Descontos example row is its columns' examples, nothing after them.
    expect(book.byName('Descontos')!.grid[1]).toHaveLength(discountColumns.length);
  });
});
