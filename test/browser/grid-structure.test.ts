/**
 * Rows, columns, sort and tabs in the playground's grid, through the emulator's
 * own Spreadsheet API: after sorting, inserting and renaming in the browser, a
 * refresh of the report still writes each record beside the user's note. Also
 * the Importar option that brings card data, off unless ticked.
 */
import { describe, expect, it } from 'vitest';
import { columnLetters } from '../../dev/gas/a1';
import { cell, clickMenu, screenshot, sidebar, sidebarTitle, tab, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();
type Rec = Record<string, any>;

/** The column letters of a 0-based index. */
const letter = (index: number) => columnLetters(index + 1);

/** Imports customers into `sheet` from the Importar sidebar. */
async function importCustomers(sheet: string, withCard: boolean): Promise<void> {
  await clickMenu(t.page, 'Importar dados…');
  await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Importar dados');
  const sb = sidebar(t.page);
  await sb.getByLabel('O que importar').selectOption({ label: 'Clientes' });
  const card = sb.getByLabel('Incluir dados de cartão');
  expect(await card.isChecked()).toBe(false);
  if (withCard) await card.check();
  await sb.getByLabel('Nome da nova aba').fill(sheet);
  await sb.getByLabel('Nome do relatório').fill(sheet);
  await sb.getByRole('button', { name: 'Importar', exact: true }).click();
  await expect.poll(() => sb.locator('#result').textContent(), { timeout: 30_000 }).toMatch(new RegExp(`^Pronto: \\d+ linhas em "${sheet}"\\.$`));
}

const header = (sheet: string) => t.pg.emulator.values(sheet)[0].map(String);

async function button(label: string): Promise<void> {
  await t.page.getByRole('toolbar', { name: 'Linhas, colunas e abas' }).getByRole('button', { name: label, exact: true }).click();
  // The change runs on the server: read the sheet once the page has finished what the click started.
  await t.page.locator('body:not([data-acting])').waitFor();
}

describe('the grid edits structure like Sheets', () => {
  it('customers come without card columns unless "Incluir dados de cartão" is ticked', async () => {
    await importCustomers('Com cartão', true);
    expect(header('Com cartão')).toContain('Cartão (CPF do portador)');
    await importCustomers('Clientes', false);
    expect(header('Clientes').filter((h) => h.startsWith('Cartão'))).toEqual([]);
  });

  it('sort, insert a row and a column, rename the tab: a refresh keeps each note beside its record', async () => {
    await tab(t.page, 'Clientes').click();
    const customers = await t.pg.sandbox.dump<Rec>(t.pg.sandbox.orgs[0].name, 'clientes');
    // A column of the user's own, inserted between ours, with a note beside the record on row 3.
    await cell(t.page, 'B3').click();
    await button('Inserir coluna à esquerda');
    await expect.poll(() => t.pg.emulator.values('Clientes', 'B1')[0][0]).toBe('');
    const labels = header('Clientes');
    const idCol = letter(labels.indexOf('ID do cliente'));
    const nameCol = letter(labels.indexOf('Nome fantasia'));
    const [noted] = t.pg.emulator.values('Clientes', `${idCol}3`);
    await cell(t.page, 'B3').click();
    await t.page.keyboard.type('ligar na segunda');
    await t.page.keyboard.press('Enter');
    await expect.poll(() => t.pg.emulator.values('Clientes', 'B3')[0][0]).toBe('ligar na segunda');

    await cell(t.page, `${nameCol}2`).click();
    await button('Classificar Z→A');
    const names = t.pg.emulator
      .values('Clientes')
      .slice(1)
      .map((r) => String(r[labels.indexOf('Nome fantasia')]));
    expect(names).toEqual(names.slice().sort((a, b) => b.localeCompare(a)));
    await cell(t.page, 'A2').click();
    await button('Inserir linha acima');
    await expect.poll(() => t.pg.emulator.values('Clientes', 'A2')[0][0]).toBe('');
    t.page.once('dialog', (d) => void d.accept('Minha carteira'));
    await button('Renomear aba');
    await expect.poll(() => t.pg.emulator.sheetNames()).toContain('Minha carteira');
    await screenshot(t.page, 'grade-estrutura');

    await clickMenu(t.page, 'Relatórios');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Relatórios');
    const card = sidebar(t.page).locator('[data-report="Clientes"]');
    const runs = t.pg.emulator.values('Histórico').length;
    await card.getByRole('button', { name: 'Atualizar', exact: true }).click();
    // The run's line in Histórico is written when it ends.
    await expect.poll(() => t.pg.emulator.values('Histórico').length, { timeout: 30_000 }).toBe(runs + 1);
    expect(t.pg.emulator.values('Histórico').at(-1)!.map(String)).toContain('OK');

    expect(t.pg.emulator.sheetNames().filter((n) => n === 'Clientes')).toEqual([]);
    const rows = t.pg.emulator.values('Minha carteira');
    const id = labels.indexOf('ID do cliente');
    expect(rows[0].map(String)).toEqual(labels);
    // The note is still beside its record, wherever the sort put it; nothing was written into the user's column or row.
    expect(rows.filter((r) => r[1] === 'ligar na segunda').map((r) => r[id])).toEqual([noted[0]]);
    expect(rows.map((r) => r[1]).filter((v) => v !== '')).toEqual(['ligar na segunda']);
    expect(rows[1].every((v) => v === '')).toBe(true);
    expect(rows.slice(1).filter((r) => r[id] !== '').length).toBe(customers.length);
  });

  it('deletes a row, a column and a tab', async () => {
    await importCustomers('Rascunho', false);
    await tab(t.page, 'Rascunho').click();
    const before = t.pg.emulator.values('Rascunho');
    await cell(t.page, 'B3').click();
    await button('Excluir linha');
    await expect.poll(() => t.pg.emulator.values('Rascunho').length).toBe(before.length - 1);
    await button('Excluir coluna');
    await expect.poll(() => t.pg.emulator.values('Rascunho')[0].length).toBe(before[0].length - 1);
    expect(t.pg.emulator.values('Rascunho')[0][1]).toBe(before[0][2]);
    await button('Classificar A→Z');
    t.page.once('dialog', (d) => void d.accept());
    await button('Excluir aba');
    await expect.poll(() => t.pg.emulator.sheetNames()).not.toContain('Rascunho');
  });
});
