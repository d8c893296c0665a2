/**
 * The playground's grid takes input like a spreadsheet: typing into a cell,
 * double-click to edit, pasting a tab-separated block, Delete to clear; all of
 * it through the emulator, so the add-on sees typed input parsed as Sheets does.
 */
import { describe, expect, it } from 'vitest';
import { cell, clickMenu, paste, readGrid, sidebar, sidebarTitle, tab, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();

describe('an editable grid', () => {
  it('types, edits, pastes a block and deletes, as typed input', async () => {
    await tab(t.page, 'Página1').click();
    await cell(t.page, 'B2').click();
    await t.page.keyboard.type('Consultoria');
    await t.page.keyboard.press('Enter');
    await expect.poll(() => readGrid(t.page, 'B2')).toEqual([['Consultoria']]);
    // Enter moves down, as in Sheets; a number typed is a number.
    await t.page.keyboard.type('1500,5');
    await t.page.keyboard.press('Tab');
    await expect.poll(() => t.pg.emulator.values('Página1', 'B3')[0][0]).toBe(1500.5);

    await cell(t.page, 'B2').dblclick();
    const editor = t.page.getByLabel('Editar B2');
    expect(await editor.inputValue()).toBe('Consultoria');
    await editor.fill('Suporte');
    await editor.press('Enter');
    await expect.poll(() => readGrid(t.page, 'B2')).toEqual([['Suporte']]);

    await cell(t.page, 'D5').click();
    await expect.poll(() => t.pg.emulator.spreadsheet.selection?.ranges).toEqual(['D5']);
    await paste(t.page, 'LOTE-1\t12/2026\t10\nLOTE-2\t01/2027\t15\n');
    await expect
      .poll(() => readGrid(t.page, 'D5:F6'))
      .toEqual([
        ['LOTE-1', '12/2026', '10'],
        ['LOTE-2', '01/2027', '15'],
      ]);
    expect(t.pg.emulator.values('Página1', 'F5:F6')).toEqual([[10], [15]]);

    await cell(t.page, 'D5').click();
    await cell(t.page, 'E6').click({ modifiers: ['Shift'] });
    await expect.poll(() => t.pg.emulator.spreadsheet.selection?.ranges).toEqual(['D5:E6']);
    await t.page.keyboard.press('Delete');
    await expect
      .poll(() => readGrid(t.page, 'D5:F6'))
      .toEqual([
        ['', '', '10'],
        ['', '', '15'],
      ]);
  });
});

describe("formulas in the spreadsheet's own language", () => {
  it('a pt_BR sheet takes =Q2*1,0462, =ARRED(Q3*1,0462;2) and =ROUND(Q4*1.0462,2), and the editor shows the formula', async () => {
    await tab(t.page, 'Página1').click();
    // One cell at a time, each seen in the emulator before the next is typed.
    const typeDown = async (column: string, texts: string[]) => {
      for (const [i, typed] of texts.entries()) {
        await cell(t.page, `${column}${i + 2}`).click();
        await t.page.keyboard.type(typed);
        await t.page.keyboard.press('Enter');
        await expect.poll(() => t.pg.emulator.values('Página1', `${column}${i + 2}`)[0][0]).not.toBe('');
      }
    };
    await typeDown('Q', ['100', '100', '100']);
    await typeDown('R', ['=Q2*1,0462', '=ARRED(Q3*1,0462;2)', '=ROUND(Q4*1.0462,2)']);
    await expect.poll(() => readGrid(t.page, 'R2:R4')).toEqual([['104,62'], ['104,62'], ['104,62']]);
    expect(t.pg.emulator.formulas('Página1', 'R2:R4')).toEqual([['=Q2*1.0462'], ['=ROUND(Q3*1.0462,2)'], ['=ROUND(Q4*1.0462,2)']]);

    await cell(t.page, 'R3').dblclick();
    expect(await t.page.getByLabel('Editar R3').inputValue()).toBe('=ARRED(Q3*1,0462;2)');
    await t.page.keyboard.press('Escape');
  });
});

describe('the keys follow the click', () => {
  it('a single click on a cell after using the sidebar sends the typing to the grid', async () => {
    await clickMenu(t.page, 'Importar dados…');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Importar dados');
    const field = sidebar(t.page).getByLabel('O que importar');
    await field.focus();
    await t.page.keyboard.press('ArrowDown');
    await tab(t.page, 'Página1').click();
    await field.focus();
    await cell(t.page, 'H9').click();
    await t.page.keyboard.type('Depois do painel');
    await t.page.keyboard.press('Enter');
    await expect.poll(() => t.pg.emulator.values('Página1', 'H9')[0][0]).toBe('Depois do painel');
  });
});
