/**
 * "Filtros na planilha" in the browser: "faturas abertas que vencem este mês"
 * made as one saved report, the form saying what the service cannot filter,
 * the filters saved with the report and shown on its card.
 */
import { describe, expect, it } from 'vitest';
import { clickMenu, screenshot, sidebar, sidebarTitle, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();
type Rec = Record<string, any>;

describe('Filtros na planilha', () => {
  it('makes "Faturas abertas que vencem este mês" a saved report', async () => {
    await clickMenu(t.page, 'Importar dados…');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Importar dados');
    const sb = sidebar(t.page);
    await sb.getByLabel('O que importar').selectOption({ label: 'Faturas' });
    // The form says what the service cannot do for invoices.
    await expect.poll(() => sb.locator('#service-gap').textContent()).toMatch(/não filtra faturas por status, vencimento/);
    await sb.getByLabel('Competência: tipo').selectOption({ label: 'Mês atual' });
    await sb.getByRole('button', { name: 'Adicionar filtro na planilha' }).click();
    await sb.getByLabel('Filtro na planilha 1: coluna').selectOption({ label: 'Status' });
    await sb.getByLabel('Filtro na planilha 1: condição').selectOption({ label: 'é igual a' });
    await sb.getByLabel('Filtro na planilha 1: valor').fill('ABERTA');
    await sb.getByLabel('Nome da nova aba').fill('Faturas abertas');
    await sb.getByLabel('Nome do relatório').fill('Faturas abertas que vencem este mês');
    await screenshot(t.page, 'filtros-na-planilha');
    await sb.getByRole('button', { name: 'Importar', exact: true }).click();
    await expect
      .poll(() => sb.locator('#result').textContent(), { timeout: 30_000 })
      .toMatch(/^Pronto: (?:1 linha|(?!1 )\d[\d.]* linhas) em "Faturas abertas"\.$/);

    const dump = await t.pg.sandbox.dump<Rec>(t.pg.sandbox.orgs[0].name, 'faturas');
    const expected = dump.filter((f) => f.statusFatura === 'ABERTA' && f.competencia === '11/2026');
    expect(expected.length).toBeGreaterThan(0);
    expect(dump.filter((f) => f.competencia === '11/2026').length).toBeGreaterThan(expected.length);
    const values = t.pg.emulator.values('Faturas abertas');
    const header = values[0].map(String);
    const status = header.indexOf('Status');
    expect(values.slice(1).map((r) => r[status])).toEqual(expected.map(() => 'ABERTA'));
    expect(new Set(values.slice(1).map((r) => r[header.indexOf('ID da fatura')]))).toEqual(new Set(expected.map((f) => f.idFatura)));

    await clickMenu(t.page, 'Relatórios');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Relatórios');
    const card = sidebar(t.page).locator('[data-report="Faturas abertas que vencem este mês"]');
    await expect.poll(() => card.textContent()).toMatch(/Filtros na planilha \(aplicados pelo complemento\): Status é igual a ABERTA/);
  });

  it('refuses a filter it cannot apply, beside the filters, before sending', async () => {
    await clickMenu(t.page, 'Importar dados…');
    const sb = sidebar(t.page);
    await sb.getByLabel('O que importar').selectOption({ label: 'Faturas' });
    await sb.getByRole('button', { name: 'Adicionar filtro na planilha' }).click();
    await sb.getByLabel('Filtro na planilha 1: coluna').selectOption({ label: 'Valor total' });
    await sb.getByLabel('Filtro na planilha 1: condição').selectOption({ label: 'entre' });
    await sb.getByLabel('Filtro na planilha 1: de').fill('500');
    await sb.getByLabel('Filtro na planilha 1: até').fill('100');
    await sb.getByRole('button', { name: 'Importar', exact: true }).click();
    await expect
      .poll(() => sb.locator('[data-error-for="sheetFilter"]').textContent())
      .toMatch(/Filtro na planilha 1 \(Valor total\): o fim é anterior ao início/);
  });
});
