/**
 * The Central do escritório in Chromium, as an accountant walks it: from the
 * menu, the month of every client company on the "Central" tab; from a
 * company's card, its Fechamento built from its own connection (the same
 * figures as its row), and back to the Central, where the same card now
 * opens the Fechamento it built.
 */
import { describe, expect, it } from 'vitest';
import { clickMenu, sidebar, sidebarTitle, tab, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage({ office: 10 });
type Rec = Record<string, any>;

/** A row of a tab, by the text of its first cell, keyed by the header row above it that starts with `first`. */
function rowOf(values: unknown[][], first: string, name: string): Rec {
  const at = values.findIndex((r) => r[0] === first);
  const header = values[at] as string[];
  const row = values.slice(at + 1).find((r) => r[0] === name)!;
  return Object.fromEntries(header.map((h, i) => [h, row?.[i]]));
}

describe('Central do escritório', () => {
  it('goes from the menu to the office month, to a company’s Fechamento, and back', async () => {
    const { emulator, sandbox } = t.pg;
    await clickMenu(t.page, 'Central do escritório…');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Central do escritório');
    const sb = sidebar(t.page);
    // Before its first refresh the card list says what to do, not that the office has no connection.
    await expect.poll(() => sb.locator('#list').textContent()).toBe('Nenhuma empresa lida ainda: clique em Atualizar a Central para ler as suas empresas.');
    await sb.getByLabel('Competência (MM/AAAA)').fill('10/2026');
    await sb.getByRole('button', { name: 'Atualizar a Central' }).click();
    // The demo connection and the office's ten companies, each read through its own connection.
    await expect.poll(() => sb.locator('#progress').textContent(), { timeout: 60_000 }).toMatch(/^Central atualizada: 11 empresas na competência 10\/2026/);
    await expect.poll(() => t.page.locator('#tabs [role="tab"][aria-selected="true"]').textContent()).toContain('Central');
    await expect.poll(() => sb.locator('[data-company]').count()).toBe(11);

    const company = sandbox.orgs.find((o) => o.office?.status === 'notas-a-emitir')!;
    const card = sb.locator(`[data-company="${company.name}"]`);
    await expect.poll(() => card.locator('.notice').first().textContent()).toBe('Pendências: 3 notas a emitir');
    const row = rowOf(emulator.values('Central'), 'Empresa', company.name);
    expect(row.Status).toBe('Pendências: 3 notas a emitir');

    // No Fechamento of it yet: the card builds one from the company's connection.
    await card.getByRole('button', { name: 'Abrir fechamento' }).click();
    await expect.poll(() => card.locator('[aria-live]').last().textContent(), { timeout: 90_000 }).toMatch(/^Fechamento de .* criado na aba "(.*)"\.$/);
    const said = (await card.locator('[aria-live]').last().textContent()) ?? '';
    const closingTab = /na aba "(.*)"\.$/.exec(said)![1];
    // Its row of the Central says at once where the company now has reports, and the card links to it.
    const here = emulator.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getName());
    expect(rowOf(emulator.values('Central'), 'Empresa', company.name).Planilhas).toBe(here);
    expect(await card.getByRole('link', { name: here }).count()).toBe(1);
    // The tab bar is redrawn after the card's answer: wait for it, as a person's eye does.
    await expect.poll(() => t.page.locator('#tabs [role="tab"][aria-selected="true"]').textContent()).toContain(closingTab);
    // The same figures as its row of the Central: the Fechamento's code computed both.
    const closing = emulator.values(closingTab) as unknown[][];
    const line = (label: string) => closing.find((r) => r[0] === label)!;
    expect(line('Faturas da competência (sem as canceladas)').slice(1, 3)).toEqual([row['Faturas (qtde)'], row['Faturas (valor)']]);
    expect(line('Faturas sem NFS-e')[1]).toBe(row['NFS-e a emitir (qtde)']);

    // Back to the Central: its tab is where it was, and the card now opens the Fechamento it built.
    await tab(t.page, 'Central').click();
    await expect.poll(() => t.page.locator('#tabs [role="tab"][aria-selected="true"]').textContent()).toContain('Central');
    await card.getByRole('button', { name: 'Abrir fechamento' }).click();
    await expect.poll(() => card.locator('[aria-live]').last().textContent()).toBe(`Fechamento de ${company.name} aberto na aba "${closingTab}".`);
    // The tab bar is redrawn after the card's answer: wait for it, as a person's eye does.
    await expect.poll(() => t.page.locator('#tabs [role="tab"][aria-selected="true"]').textContent()).toContain(closingTab);
  });
  it('finishes a Fechamento whose build was left halfway, running again the report it had imported', async () => {
    const { emulator, sandbox } = t.pg;
    const company = sandbox.orgs.find((o) => o.office?.status === 'vencidas')!;
    // A build left halfway (the sidebar closed, an import that failed): its invoices' report and tab are there.
    const name = `Fechamento 10-2026 · Faturas · ${company.name}`;
    const form = {
      connection: company.name,
      listing: 'faturas',
      filters: { competencia: '10/2026' },
      sheetName: name,
      name,
      incremental: false,
      newSheet: true,
    };
    let p = (emulator.run('startImportRun', [form]) as Rec).value as Rec;
    while (!p.done) p = emulator.run('continueReportRun', [p.reportId]) as Rec;
    const card = sidebar(t.page).locator(`[data-company="${company.name}"]`);
    await card.getByRole('button', { name: 'Abrir fechamento' }).click();
    const said = () => card.locator('[aria-live]').last().textContent();
    await expect.poll(said, { timeout: 90_000 }).toMatch(/criado na aba|Já existe uma aba/);
    expect(await said()).toMatch(/^Fechamento de .* criado na aba "(.*)"\.$/);
    expect(emulator.sheetNames().filter((n) => n.startsWith(name))).toEqual([name]);
  });
});
