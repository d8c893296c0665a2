/**
 * Painéis in the browser: a user imports charges, builds "Contas a receber por
 * faixa de vencimento" from the Painéis menu and sees its chart over the
 * dashboard sheet, drawn from the chart the add-on built.
 */
import { describe, expect, it } from 'vitest';
import { clickMenu, screenshot, sidebar, sidebarTitle, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();

describe('Painéis', () => {
  it('builds a dashboard from a saved report and shows its chart', async () => {
    await clickMenu(t.page, 'Importar dados…');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Importar dados');
    const imp = sidebar(t.page);
    await imp.getByLabel('O que importar').selectOption({ label: 'Cobranças e boletos' });
    await imp.getByLabel('Nome da nova aba').fill('Cobranças');
    await imp.getByLabel('Nome do relatório').fill('Cobranças');
    await imp.getByRole('button', { name: 'Importar', exact: true }).click();
    await expect.poll(() => imp.locator('#result').textContent(), { timeout: 30_000 }).toMatch(/^Pronto: \d+ linhas em "Cobranças"\.$/);

    await clickMenu(t.page, 'Painéis');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Painéis');
    const sb = sidebar(t.page);
    await sb.getByLabel('Painel', { exact: true }).selectOption({ label: 'Contas a receber por faixa de vencimento' });
    await sb.getByLabel('Relatório de origem').selectOption({ label: 'Cobranças' });
    await sb.getByRole('button', { name: 'Criar painel' }).click();
    await expect.poll(() => sb.locator('#status').textContent(), { timeout: 30_000 }).toMatch(/Painel "Contas a receber por faixa de vencimento" criado/);

    // The dashboard sheet is shown, with its chart floating over it: one bar per bucket.
    const chart = t.page.locator('figure.pg-chart[data-chart-type="COLUMN"]');
    await expect.poll(() => chart.locator('figcaption').textContent()).toBe('Contas a receber por faixa de vencimento');
    const bars = await chart.locator('svg rect title').allTextContents();
    expect(bars.map((b) => b.split(' · ')[0])).toEqual(['A vencer', '1–30 dias', '31–60 dias', '61–90 dias', 'Mais de 90 dias']);
    expect(await t.page.locator('#tabs [role="tab"][aria-selected="true"]').textContent()).toContain('Painel · Contas a receber');
    await expect.poll(() => sb.locator('[data-dashboard="Contas a receber por faixa de vencimento"]').textContent()).toMatch(/Fonte: Cobranças/);
    await screenshot(t.page, 'painel-vencimentos');
  });

  it('Faturas sem NFS-e: one click selects those invoices and opens Lançamentos em lote on "Emitir NFS-e", only the selected rows', async () => {
    for (const [listing, sheet] of [
      ['Faturas', 'Faturas'],
      ['NFS-e', 'Notas'],
    ]) {
      await clickMenu(t.page, 'Importar dados…');
      await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Importar dados');
      const imp = sidebar(t.page);
      await imp.getByLabel('O que importar').selectOption({ label: listing });
      await imp.getByLabel('Nome da nova aba').fill(sheet);
      await imp.getByLabel('Nome do relatório').fill(sheet);
      await imp.getByRole('button', { name: 'Importar', exact: true }).click();
      await expect.poll(() => imp.locator('#result').textContent(), { timeout: 30_000 }).toMatch(/^Pronto: \d+ linhas/);
    }
    await clickMenu(t.page, 'Painéis');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Painéis');
    const sb = sidebar(t.page);
    await sb.getByLabel('Painel', { exact: true }).selectOption({ label: 'Faturas sem NFS-e' });
    await sb.getByLabel('Relatório de origem').selectOption({ label: 'Faturas' });
    await sb.getByLabel('Relatório de NFS-e para comparar').selectOption({ label: 'Notas' });
    await sb.getByRole('button', { name: 'Criar painel' }).click();
    await expect.poll(() => sb.locator('#status').textContent(), { timeout: 30_000 }).toMatch(/Painel "Faturas sem NFS-e" criado/);
    const [invoices, notes] = await Promise.all([
      t.pg.sandbox.dump<Record<string, any>>(t.pg.sandbox.orgs[0].name, 'faturas'),
      t.pg.sandbox.dump<Record<string, any>>(t.pg.sandbox.orgs[0].name, 'nfse'),
    ]);
    const issued = new Set(notes.filter((n) => ['AUTORIZADA', 'EMITIDA'].includes(n.statusNotaFiscalServico)).map((n) => n.idFatura));
    const missing = invoices.filter((f) => f.statusFatura !== 'CANCELADA' && !issued.has(f.idFatura));
    await sb.locator('[data-dashboard="Faturas sem NFS-e"]').getByRole('button', { name: 'Emitir NFS-e destas faturas' }).click();
    await expect.poll(() => sidebarTitle(t.page).textContent(), { timeout: 30_000 }).toBe('Lançamentos em lote');
    const lote = sidebar(t.page);
    await expect.poll(() => lote.getByLabel('Operação').inputValue()).toBe('emitirNfse');
    await expect.poll(() => lote.getByLabel('Só as selecionadas').isChecked()).toBe(true);
    expect(await t.page.locator('#tabs [role="tab"][aria-selected="true"]').textContent()).toContain('Faturas');
    const selected = t.pg.emulator.spreadsheet.selection!.ranges.flatMap((a1) => {
      const [from, to] = a1.replace(/[A-Z]/g, '').split(':').map(Number);
      return Array.from({ length: (to ?? from) - from + 1 }, (_, i) => from + i);
    });
    expect(selected).toHaveLength(missing.length);
    await screenshot(t.page, 'painel-sem-nfse-lote');
  });
});
