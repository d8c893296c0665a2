/**
 * A bulk template in the grid, as the accountant uses it: the product column's
 * dropdown opens and fills the cell with the pick, and a row inserted into the
 * template keeps its formats, so a CPF typed there keeps its leading zero.
 */
import { describe, expect, it } from 'vitest';
import { cell, clickMenu, readGrid, sidebar, sidebarTitle, tab, usePlaygroundPage } from './helpers';

type Rec = Record<string, any>;

const t = usePlaygroundPage();
const SHEET = 'Lote · Assinaturas personalizadas';
const sb = () => sidebar(t.page);

async function button(label: string): Promise<void> {
  await t.page.getByRole('toolbar', { name: 'Linhas, colunas e abas' }).getByRole('button', { name: label, exact: true }).click();
  await t.page.locator('body:not([data-acting])').waitFor();
}

/** Imported subscriptions, then the template; once for the file, by whichever test comes first. */
async function makeTemplate(): Promise<void> {
  // Imported subscriptions fill the Produtos tab, and the template's product column picks from it.
  await clickMenu(t.page, 'Importar dados…');
  await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Importar dados');
  await sb().getByLabel('O que importar').selectOption({ label: 'Assinaturas e contratos' });
  await sb().getByRole('button', { name: 'Importar', exact: true }).click();
  await expect.poll(() => sb().locator('#result').textContent(), { timeout: 30_000 }).toMatch(/^Pronto: \d+ linhas em "/);
  await clickMenu(t.page, 'Lançamentos em lote');
  await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Lançamentos em lote');
  await sb().getByLabel('Operação').selectOption({ label: 'Criar assinaturas personalizadas' });
  await sb().getByRole('button', { name: 'Criar aba modelo' }).click();
  await expect.poll(() => tab(t.page, SHEET).getAttribute('aria-selected')).toBe('true');
  await expect.poll(() => readGrid(t.page, 'F1')).toEqual([['ID do produto']]);
}
let made: Promise<void> | undefined;
const template = () => (made ??= makeTemplate());

describe('dropdowns', () => {
  it('the product dropdown opens its list and the pick fills the cell', async () => {
    await template();
    const products = (await t.pg.sandbox.dump<Rec>(t.pg.sandbox.orgs[0].name, 'produtos')).map((p) => String(p.idProduto));
    await cell(t.page, 'F3').getByRole('button', { name: 'Mostrar opções' }).click();
    const list = t.page.getByRole('listbox', { name: 'Opções de F3' });
    await list.waitFor();
    const choices = await list.getByRole('option').allTextContents();
    expect(choices.length).toBeGreaterThan(1);
    expect(choices.every((c) => products.includes(c.split(' — ')[0]))).toBe(true);
    await list.getByRole('option', { name: choices[1], exact: true }).click();
    await expect.poll(() => t.pg.emulator.values(SHEET, 'F3')[0][0]).toBe(choices[1]);
    await expect.poll(() => readGrid(t.page, 'F3')).toEqual([[choices[1]]]);
    expect(await list.count()).toBe(0);
  });

  it('a list of values opens with the keyboard too, narrows as one types, and Escape leaves the cell as it was', async () => {
    await template();
    await cell(t.page, 'E3').click();
    await t.page.keyboard.press('Alt+ArrowDown');
    const list = t.page.getByRole('listbox', { name: 'Opções de E3' });
    expect(await list.getByRole('option').allTextContents()).toEqual(['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL']);
    await t.page.keyboard.type('tri');
    await expect.poll(() => list.getByRole('option').allTextContents()).toEqual(['TRIMESTRAL']);
    await t.page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
    expect(t.pg.emulator.values(SHEET, 'E3')[0][0]).toBe('');
    await t.page.keyboard.press('Alt+ArrowDown');
    await t.page.keyboard.type('sem');
    await t.page.keyboard.press('Enter');
    await expect.poll(() => t.pg.emulator.values(SHEET, 'E3')[0][0]).toBe('SEMESTRAL');
  });
});

describe('inserted rows', () => {
  it('a row inserted into the template keeps its formats: a CPF typed there stays text with its leading zero', async () => {
    await template();
    // Above the example row: it moves down to row 3, and the new row 2 is a row of the template.
    await cell(t.page, 'K2').click();
    await expect.poll(() => t.pg.emulator.spreadsheet.selection?.ranges).toEqual(['K2']);
    await button('Inserir linha acima');
    await expect.poll(() => readGrid(t.page, 'A3')).toEqual([['CLI-0001-2026']]);
    await cell(t.page, 'K2').click();
    await t.page.keyboard.type('01234567890');
    await t.page.keyboard.press('Enter');
    await expect.poll(() => t.pg.emulator.values(SHEET, 'K2')[0][0]).toBe('01234567890');
    await expect.poll(() => readGrid(t.page, 'K2')).toEqual([['01234567890']]);
    expect(await cell(t.page, 'K2').evaluate((el) => getComputedStyle(el).textAlign)).toBe('left');
    // The new row has the template's dropdowns too.
    expect(await cell(t.page, 'E2').getByRole('button', { name: 'Mostrar opções' }).count()).toBe(1);
  });
});
