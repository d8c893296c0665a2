/**
 * A consolidated report chosen in the real Importar sidebar: "Todas as minhas
 * conexões" pulls every connection of the user into one sheet, Empresa first,
 * and the Relatórios card names where it comes from.
 */
import { describe, expect, it } from 'vitest';
import { clickMenu, sidebar, sidebarTitle, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();

describe('a consolidated report in the browser', () => {
  it('chooses "Todas as minhas conexões" in Importar and gets every company in one sheet', async () => {
    const { sandbox, emulator } = t.pg;
    // The user's preset connection is the first organization's; two more companies of theirs.
    for (const org of [1, 2]) {
      const saved = emulator.run('saveConnection', [
        { name: `Empresa ${org + 1}`, baseUrl: sandbox.baseUrl, apiKey: sandbox.orgs[org].apiKey, isDefault: false },
      ]) as {
        ok: boolean;
      };
      expect(saved.ok).toBe(true);
    }
    const counts = await Promise.all(sandbox.orgs.map(async (o) => (await sandbox.dump(o.name, 'clientes')).length));
    await clickMenu(t.page, 'Importar dados…');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Importar dados');
    const sb = sidebar(t.page);
    await sb.getByLabel('O que importar').selectOption({ label: 'Clientes' });
    await sb.getByLabel('Conexão').selectOption({ label: 'Todas as minhas conexões (consolidado)' });
    await expect.poll(() => sb.locator('#companies-hint').isVisible()).toBe(true);
    await sb.getByRole('button', { name: 'Importar', exact: true }).click();
    const total = counts.reduce((a, b) => a + b, 0);
    await expect.poll(() => sb.locator('#result').textContent(), { timeout: 30_000 }).toBe(`Pronto: ${total.toLocaleString('pt-BR')} linhas em "Clientes".`);
    const values = emulator.values('Clientes');
    expect(values[0][0]).toBe('Empresa');
    expect(new Set(values.slice(1).map((r) => r[0])).size).toBe(3);

    await clickMenu(t.page, 'Relatórios');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Relatórios');
    await expect.poll(() => sidebar(t.page).locator('#list').textContent()).toContain('consolidado · empresas: Todas as minhas conexões');
  });
});
