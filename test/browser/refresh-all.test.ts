/**
 * "Atualizar todos" in Relatórios says what happened: nothing to refresh is
 * not "Todos os 0 relatórios atualizados", and a consolidated report in which
 * one company failed is PARCIAL, not "atualizado".
 */
import { describe, expect, it } from 'vitest';
import { clickMenu, sidebar, sidebarTitle, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();

async function refreshAll(): Promise<string> {
  await clickMenu(t.page, 'Relatórios');
  await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Relatórios');
  const sb = sidebar(t.page);
  await sb.getByRole('button', { name: 'Atualizar todos' }).click();
  // Each report's progress shows there while it runs; the summary comes when the button is free again.
  await expect.poll(() => sb.getByRole('button', { name: 'Atualizar todos' }).isEnabled(), { timeout: 30_000 }).toBe(true);
  await expect.poll(() => sb.locator('#status').textContent(), { timeout: 30_000 }).not.toMatch(/^$|Atualizando|Importando/);
  return (await sb.locator('#status').textContent()) ?? '';
}

describe('Atualizar todos', () => {
  it('with no report, says there is none to refresh', async () => {
    expect(await refreshAll()).toBe('Você ainda não tem relatórios para atualizar: crie um em "Nova importação".');
  });

  it('says which report was only partly refreshed when one company of a consolidated report failed', async () => {
    const { sandbox, emulator } = t.pg;
    const saved = emulator.run('saveConnection', [{ name: 'Ipê', baseUrl: sandbox.baseUrl, apiKey: sandbox.orgs[1].apiKey }]) as { ok: boolean };
    expect(saved.ok).toBe(true);
    await clickMenu(t.page, 'Importar dados…');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Importar dados');
    const imp = sidebar(t.page);
    await imp.getByLabel('O que importar').selectOption({ label: 'Clientes' });
    await imp.getByLabel('Conexão').selectOption({ label: 'Todas as minhas conexões (consolidado)' });
    await imp.getByRole('button', { name: 'Importar', exact: true }).click();
    await expect.poll(() => imp.locator('#result').textContent(), { timeout: 30_000 }).toMatch(/^Pronto: /);
    // Ipê's service now refuses everything: the report ends PARCIAL.
    await sandbox.configure({ addFaults: [{ kind: 'status', status: 400, org: sandbox.orgs[1].name }] });
    expect(await refreshAll()).toMatch(/^0 atualizados; parcialmente \(alguma empresa falhou, veja o cartão\): "[^"]+"\.$/);
    expect(await sidebar(t.page).locator('#status').getAttribute('class')).toContain('warn');
  });
});
