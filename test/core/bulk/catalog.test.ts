/**
 * Products and plans picked by name: the Produtos (Planos) tab filled from the
 * imported subscriptions sheets, kept current by refreshes, the templates'
 * dropdown of "id — descrição", and a cell holding such a choice read as its id.
 */
import { describe, expect, it } from 'vitest';
import { pickedId, refreshCatalogs } from '../../../src/core/bulk/catalog';
import { readCell } from '../../../src/core/bulk/cell-readers';
import { bulkOperation, TEMPLATE_ROWS } from '../../../src/core/bulk/definitions';
import { createTemplate } from '../../../src/core/bulk/template';
import { LISTING_TAG, SHEET_TAG } from '../../../src/core/sheets/sheet-layout';
import type { CellValue } from '../../../src/core/sheets/table';
import { zone } from './fixtures';
import { MemoryBook, MemorySheet } from './memory-book';

/** An imported Assinaturas e contratos sheet: its columns carry metadata; a column of the user's comes first. */
class ImportedSheet extends MemorySheet {
  readonly columns = new Map<string, number>([
    ['idPlano', 2],
    ['descricaoPlano', 3],
    ['idProduto', 4],
    ['descricaoProduto', 5],
  ]);
  override columnTags() {
    return this.columns;
  }
}

function imported(book: MemoryBook, name: string, rows: CellValue[][]): ImportedSheet {
  const sheet = new ImportedSheet(900 + book.sheets.length, name);
  sheet.setSheetTag(LISTING_TAG, 'assinaturas');
  sheet.write(1, 1, [['Minhas notas', 'ID do plano', 'Plano', 'ID do produto', 'Produto']]);
  sheet.write(2, 1, rows);
  book.sheets.push(sheet);
  return sheet;
}

const custom = bulkOperation('criarAssinaturaPersonalizada');
const productColumn = custom.columns.findIndex((c) => c.field === 'idProduto') + 1;

describe('the Produtos tab and the template dropdown', () => {
  it('a template that picks a product comes with the Produtos tab, filled from the imported subscriptions, and a dropdown of "id — descrição"', () => {
    const book = new MemoryBook();
    imported(book, 'Assinaturas', [
      ['', '', '', 789, 'Honorários contábeis'],
      ['', 12, 'Plano completo', 790, 'Folha de pagamento'],
      ['', '', '', 789, 'Honorários contábeis'],
      ['', '', '', '', ''],
    ]);
    const made = createTemplate(book, custom, zone);
    expect(made.catalogSheets).toEqual(['Produtos']);
    const tab = book.byName('Produtos')!;
    expect(tab.tags.get(SHEET_TAG)).toBe('modelo:produtos');
    expect(tab.grid.slice(0, 3)).toEqual([
      ['ID do produto', 'Produto', 'Assinaturas', 'Abas de origem'],
      [790, 'Folha de pagamento', 1, 'Assinaturas'],
      [789, 'Honorários contábeis', 2, 'Assinaturas'],
    ]);
    expect(tab.notes[0][0]).toMatch(/^idProduto — .*reescrita a cada atualização desses relatórios: não edite aqui\.$/);
    const template = book.byId(made.sheetId)!;
    expect(template.dropdowns).toContainEqual({ column: productColumn, choices: ['790 — Folha de pagamento', '789 — Honorários contábeis'] });
    // No plan template, no Planos tab.
    expect(book.byName('Planos')).toBeNull();
    expect(template.notes[0][productColumn - 1]).toMatch(/Escolha na lista pelo nome .* A lista vem da aba Produtos/);
  });

  it('before any subscriptions are imported the tab says how it gets filled, and the column offers no list yet', () => {
    const book = new MemoryBook();
    const made = createTemplate(book, custom, zone);
    expect(book.byName('Produtos')!.grid[1]).toEqual([
      '',
      'Nenhum produto ainda: importe Assinaturas e contratos (Importar dados) e esta aba se preenche sozinha.',
      '',
      '',
    ]);
    expect(book.byId(made.sheetId)!.dropdowns.map((d) => d.column)).not.toContain(productColumn);
  });

  it('a refresh keeps the tab and every template dropdown current, and creates no tab nobody asked for', () => {
    const book = new MemoryBook();
    const subs = imported(book, 'Assinaturas', [['', '', '', 789, 'Honorários contábeis']]);
    expect(refreshCatalogs(book)).toEqual([]);
    expect(book.byName('Produtos')).toBeNull();
    const plan = createTemplate(book, bulkOperation('criarAssinaturaPlano'), zone);
    const made = createTemplate(book, custom, zone);
    expect(plan.catalogSheets).toEqual(['Planos']);
    // The report refreshed: one product changed its name, another came, one plan appeared.
    subs.write(2, 1, [
      ['', 12, 'Plano completo', 789, 'Honorários'],
      ['', '', '', 801, 'Consultoria'],
    ]);
    expect(refreshCatalogs(book)).toEqual(['Produtos', 'Planos']);
    expect(book.byName('Produtos')!.records()).toEqual([
      { 'ID do produto': 801, Produto: 'Consultoria', Assinaturas: 1, 'Abas de origem': 'Assinaturas' },
      { 'ID do produto': 789, Produto: 'Honorários', Assinaturas: 1, 'Abas de origem': 'Assinaturas' },
    ]);
    const dropdowns = book.byId(made.sheetId)!.dropdowns.filter((d) => d.column === productColumn);
    expect(dropdowns.at(-1)?.choices).toEqual(['801 — Consultoria', '789 — Honorários']);
    const planColumn = bulkOperation('criarAssinaturaPlano').columns.findIndex((c) => c.field === 'idPlano') + 1;
    expect(
      book
        .byId(plan.sheetId)!
        .dropdowns.filter((d) => d.column === planColumn)
        .at(-1)?.choices,
    ).toEqual(['12 — Plano completo']);
    expect(book.byName('Planos')!.grid[1]).toEqual([12, 'Plano completo', 1, 'Assinaturas']);
  });

  it('a refresh reads each imported sheet once for both tabs, its name once whatever its rows', () => {
    const book = new MemoryBook();
    const subs = imported(book, 'Assinaturas', [
      ['', 12, 'Plano completo', 789, 'Honorários'],
      ['', 12, 'Plano completo', 790, 'Folha'],
      ['', 13, 'Plano básico', 801, 'Consultoria'],
    ]);
    createTemplate(book, bulkOperation('criarAssinaturaPlano'), zone);
    createTemplate(book, custom, zone);
    const calls: string[] = [];
    for (const method of ['name', 'columnTags', 'lastRow'] as const) {
      const real = subs[method].bind(subs) as (...args: unknown[]) => unknown;
      (subs as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        calls.push(method);
        return real(...args);
      };
    }
    expect(refreshCatalogs(book)).toEqual(['Produtos', 'Planos']);
    expect(calls.sort()).toEqual(['columnTags', 'lastRow', 'name']);
    const plans = book.byName('Planos')!.records();
    expect(plans.map((r) => r['Abas de origem'])).toEqual(['Assinaturas', 'Assinaturas']);
  });

  it('fewer products than before: the rows left over are cleared', () => {
    const book = new MemoryBook();
    const subs = imported(book, 'Assinaturas', [
      ['', '', '', 1, 'A'],
      ['', '', '', 2, 'B'],
      ['', '', '', 3, 'C'],
    ]);
    createTemplate(book, custom, zone);
    const cleared: number[][] = [];
    const tab = book.byName('Produtos')!;
    tab.clear = (...range: number[]) => void cleared.push(range);
    subs.grid.splice(2);
    refreshCatalogs(book);
    expect(tab.grid[1]).toEqual([1, 'A', 1, 'Assinaturas']);
    expect(cleared).toEqual([[3, 1, 2, 4]]);
  });
});

describe('a product picked from the list', () => {
  const idProduto = custom.columns.find((c) => c.field === 'idProduto')!;
  const quantidade = bulkOperation('criarAssinaturaPlano').columns.find((c) => c.field === 'quantidade')!;

  it('sends its id; a typed id still works; other integer columns take no such text', () => {
    expect(pickedId('789 — Honorários contábeis')).toBe(789);
    expect(pickedId('789 Honorários')).toBeNull();
    expect(readCell(idProduto, '789 — Honorários contábeis', zone)).toEqual({ ok: true, value: 789 });
    expect(readCell(idProduto, 789, zone)).toEqual({ ok: true, value: 789 });
    expect(readCell(idProduto, 'Honorários', zone)).toMatchObject({ ok: false });
    expect(readCell(quantidade, '3 — três', zone)).toMatchObject({ ok: false });
  });

  it('the dropdown covers the rows a template formats', () => {
    const book = new MemoryBook();
    imported(book, 'Assinaturas', [['', '', '', 789, 'Honorários contábeis']]);
    const rows: number[] = [];
    const create = book.create.bind(book);
    book.create = (name: string) => {
      const sheet = create(name);
      const dropdown = sheet.setDropdown.bind(sheet);
      sheet.setDropdown = (row: number, column: number, n: number, choices: readonly string[]) => {
        if (column === productColumn && name !== 'Produtos') rows.push(row, n);
        dropdown(row, column, n, choices);
      };
      return sheet;
    };
    createTemplate(book, custom, zone);
    expect(rows).toEqual([2, TEMPLATE_ROWS]);
  });
});
