/**
 * Enviar alterações da planilha in a real browser: an imported subscriptions
 * sheet, a formula typed into one valor cell of the grid, the preview in the
 * sidebar (old → new, totals), the push, and the sandbox's record after it;
 * and the walk's finding: a Valor unitário typed on a PLANO row (which the
 * service does not update) is listed with why, and the sidebar never says
 * nothing changed while the sheet differs from what was imported.
 */
import { describe, expect, it } from 'vitest';
import { columnLetters } from '../../dev/gas/a1';
import { cell, clickMenu, readGrid, sidebar, sidebarTitle, tab, usePlaygroundPage } from './helpers';

type Rec = Record<string, any>;

const t = usePlaygroundPage();
const sb = () => sidebar(t.page);

/** Imports Assinaturas e contratos into a new tab and opens it: the records, where valor sits, and each record's row. */
async function importSubscriptions() {
  const records = await t.pg.sandbox.dump<Rec>(t.pg.sandbox.orgs[0].name, 'assinaturas');
  await clickMenu(t.page, 'Importar dados…');
  await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Importar dados');
  await sb().getByLabel('O que importar').selectOption({ label: 'Assinaturas e contratos' });
  await sb().getByRole('button', { name: 'Importar', exact: true }).click();
  await expect.poll(() => sb().locator('#result').textContent(), { timeout: 30_000 }).toMatch(/^Pronto: \d+ linhas em "/);
  const sheet = /em "([^"]+)"/.exec((await sb().locator('#result').textContent()) ?? '')![1];
  await tab(t.page, sheet).click();

  const width = t.pg.emulator.spreadsheet.byName(sheet)!.lastColumn();
  const notes = t.pg.emulator.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheet)!.getRange(1, 1, 1, width).getNotes()[0]);
  const idCol = columnLetters(notes.indexOf('idAssinaturaContrato') + 1);
  const valorCol = columnLetters(notes.indexOf('valorUnitario') + 1);
  const ids = (await readGrid(t.page, `${idCol}2:${idCol}${records.length + 1}`)).map(([v]) => Number(v));
  return { records, sheet, valorCol, rowOf: (a: Rec) => ids.indexOf(a.idAssinaturaContrato) + 2 };
}

let imported: ReturnType<typeof importSubscriptions> | undefined;
/** The file's one import (a tab holds one report): each test edits records of its own. */
const importedSubscriptions = () => (imported ??= importSubscriptions());

describe('Enviar alterações da planilha', () => {
  it('previews a formula typed into valor and sends that one change', async () => {
    const { records, valorCol, rowOf } = await importedSubscriptions();
    const target = records.find((a) => a.tipoContrato === 'PERSONALIZADO' && a.statusAssinaturaContrato === 'ATIVO')!;
    const row = rowOf(target);

    await cell(t.page, `${valorCol}${row}`).click();
    await t.page.keyboard.type('=ROUND(100*1.0462,2)');
    await t.page.keyboard.press('Enter');
    await expect.poll(() => readGrid(t.page, `${valorCol}${row}`)).toEqual([['104,62']]);

    await t.pg.sandbox.clearLog();
    await clickMenu(t.page, 'Enviar alterações da planilha…');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Enviar alterações da planilha');
    await sb().getByRole('button', { name: 'Ver alterações' }).click();
    await expect.poll(() => sb().locator('#totals li').allTextContents()).toContain('Linhas alteradas: 1');
    const before = Number(target.valorUnitario).toFixed(2).replace('.', ',');
    await expect
      .poll(() => sb().locator('#changes li').allTextContents())
      .toEqual([`Linha ${row} · ID ${target.idAssinaturaContrato}: Valor unitário ${before} → 104,62`]);
    await sb().getByRole('button', { name: 'Enviar 1 alteração' }).click();
    await expect.poll(() => sb().locator('#result').textContent(), { timeout: 30_000 }).toMatch(/^1 linha enviada com sucesso/);

    const puts = await t.pg.sandbox.requestLog({ method: 'PUT' });
    expect(puts.map((p) => p.path)).toEqual([`/v2/assinaturascontratos/personalizado/${target.idAssinaturaContrato}`]);
    const after = (await t.pg.sandbox.dump<Rec>(t.pg.sandbox.orgs[0].name, 'assinaturas')).find((a) => a.idAssinaturaContrato === target.idAssinaturaContrato)!;
    expect(after.valorUnitario).toBe(104.62);
  });

  it('a Valor unitário typed on a PLANO row is listed with why, and the sidebar never says nothing changed', async () => {
    const { records, sheet, valorCol, rowOf } = await importedSubscriptions();
    // Back on the tab from the sidebar the previous test used.
    await tab(t.page, sheet).click();
    const target = records.find((a) => a.tipoContrato === 'PLANO' && a.statusAssinaturaContrato === 'ATIVO')!;
    const row = rowOf(target);
    const before = Number(target.valorUnitario).toFixed(2).replace('.', ',');

    await cell(t.page, `${valorCol}${row}`).click();
    await t.page.keyboard.type('1');
    await t.page.keyboard.press('Enter');
    await expect.poll(() => readGrid(t.page, `${valorCol}${row}`)).toEqual([['1,00']]);

    await t.pg.sandbox.clearLog();
    await clickMenu(t.page, 'Enviar alterações da planilha…');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Enviar alterações da planilha');
    await sb().getByRole('button', { name: 'Ver alterações' }).click();
    await expect
      .poll(() => sb().locator('#unsent li').allTextContents())
      .toEqual([
        `Linha ${row} · ID ${target.idAssinaturaContrato}: Valor unitário ${before} → 1,00 — não será enviada: numa assinatura de plano o serviço altera só Quantidade e Descrição.`,
      ]);
    await expect
      .poll(() => sb().locator('#result').textContent())
      .toMatch(/^Nenhuma alteração que o serviço aceite: 1 linha tem células editadas que não serão enviadas/);
    expect(await sb().locator('#result').textContent()).not.toMatch(/a aba está igual/);
    expect(await sb().locator('#send').isHidden()).toBe(true);
    expect(await t.pg.sandbox.requestLog({ method: 'PUT' })).toEqual([]);
  });
});
