/**
 * A Fechamento of one company, in Chromium: "Criar um relatório para o painel"
 * asks which connection the reports it makes read (by default the one of a
 * report already chosen beside them), and the close names its company in its
 * title and its tab.
 */
import { describe, expect, it } from 'vitest';
import { clickMenu, sidebar, sidebarTitle, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();
type Rec = Record<string, any>;

describe('Fechamento of one company', () => {
  it('makes its reports with the connection chosen for them, and names the company in its title and tab', async () => {
    const { sandbox, emulator } = t.pg;
    const other = sandbox.orgs[1];
    expect((emulator.run('saveConnection', [{ name: 'Ipê', baseUrl: sandbox.baseUrl, apiKey: other.apiKey }]) as Rec).ok).toBe(true);
    await clickMenu(t.page, 'Painéis');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Painéis');
    const sb = sidebar(t.page);
    const connection = sb.getByLabel('Conexão dos relatórios criados');
    await sb.getByLabel('Painel', { exact: true }).selectOption({ label: 'Fechamento da competência' });
    // No report of its own yet: every source is made, so the connection is asked, the default one offered first.
    await expect.poll(() => connection.isVisible()).toBe(true);
    expect(await connection.inputValue()).toBe(t.pg.connectionName);
    expect(await sb.locator('#f-connection option').allTextContents()).toEqual([t.pg.connectionName, 'Ipê']);
    await connection.selectOption({ label: 'Ipê' });
    await sb.getByRole('button', { name: 'Criar painel' }).click();
    await expect.poll(() => sb.locator('#status').textContent(), { timeout: 60_000 }).toMatch(/^Painel "Fechamento da competência" criado/);

    const own = (await sandbox.dump<Rec>(other.name, 'clientes')).reduce((a, b) => (a.idCliente < b.idCliente ? a : b));
    expect(own.razaoSocial).toBe(other.name);
    const tab = `Painel · Fechamento da competência 10-2026 · ${other.name}`;
    expect(await t.page.locator('#tabs [role="tab"][aria-selected="true"]').textContent()).toContain(tab);
    const title = String(emulator.values(tab, 'A1:A1')[0][0]);
    expect(title).toMatch(new RegExp(`^Fechamento da competência 10/2026 · ${other.name} \\(CNPJ [\\d./-]{18}\\)$`));
    // The invoices it made are Ipê's.
    const made = emulator.values('Fechamento 10-2026 · Faturas') as unknown[][];
    const ids = new Set((await sandbox.dump<Rec>(other.name, 'faturas')).map((f) => f.idFatura));
    const column = (made[0] as string[]).indexOf('ID da fatura');
    expect(made.length).toBeGreaterThan(1);
    for (const row of made.slice(1)) expect(ids.has(row[column])).toBe(true);

    // A report of one company chosen beside a new one (the invoices report it just made, Ipê's): its connection is offered.
    expect(await sb.getByLabel('Relatório de origem').inputValue()).not.toBe('__novo__');
    await sb.getByLabel('Relatório de NFS-e para comparar').selectOption({ label: 'Criar um relatório para o painel (NFS-e da competência)' });
    await expect.poll(() => connection.isVisible()).toBe(true);
    expect(await connection.inputValue()).toBe('Ipê');
    await sb.getByLabel('Relatório de NFS-e para comparar').selectOption({ label: 'Fechamento 10-2026 · NFS-e' });
    await expect.poll(() => connection.isVisible()).toBe(false);
  });
});
