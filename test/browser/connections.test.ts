/**
 * The Conexões sidebar in a real browser: the add-on menu as onOpen built it,
 * adding a connection, "Testar conexão" against the sandbox with a good key,
 * a refused key and an address where nothing listens, and the key never
 * coming back to the t.page once saved.
 */
import { describe, expect, it } from 'vitest';
import { clickMenu, screenshot, sidebar, sidebarFrame, sidebarTitle, unreachableBaseUrl, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();

describe('Conexões in the browser', () => {
  it('shows the add-on menu under Extensões exactly as onOpen built it', async () => {
    await t.page.getByRole('menubar').getByRole('menuitem', { name: 'Extensões', exact: true }).click();
    await t.page.getByRole('menu', { name: 'Extensões' }).getByRole('menuitem', { name: 'Faturamento', exact: true }).click();
    const items = t.page.getByRole('menu', { name: 'Faturamento', exact: true }).getByRole('menuitem');
    await items.first().waitFor();
    const shown = await items.evaluateAll((els) => els.map((e) => [e.textContent, e.getAttribute('data-function')]));
    const built = t.pg.emulator.menuItems().map((m) => [m.path[m.path.length - 1], m.functionName]);
    expect(built.length).toBeGreaterThan(2);
    expect(shown).toEqual(built);
    await screenshot(t.page, 'menu-faturamento');
    await t.page.keyboard.press('Escape');
  });

  it('opens Conexões from the menu, in a 300 px sidebar, with the demo connection listed', async () => {
    await clickMenu(t.page, 'Conexões');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Conexões');
    const sb = sidebar(t.page);
    await sb.locator(`[data-connection="${t.pg.connectionName}"]`).waitFor();
    expect(await t.page.locator('#sidebar-frame').evaluate((f) => f.getBoundingClientRect().width)).toBe(300);
    expect(t.pg.emulator.ui.dialogs.at(-1)?.kind).toBe('sidebar');
  });

  it('adds a connection and tests it with a good key, a refused key and an unreachable address', async () => {
    const sb = sidebar(t.page);
    const other = t.pg.sandbox.orgs[1];
    const customers = (await t.pg.sandbox.dump(other.name, 'clientes')).length;
    await sb.getByRole('button', { name: 'Adicionar conexão' }).click();
    await sb.getByLabel('Nome').fill('Padaria Teste');
    await sb.getByLabel('Endereço base da API').fill(t.pg.sandbox.baseUrl);
    await sb.getByLabel('Chave de API').fill(other.apiKey);
    const result = sb.locator('#test-result');

    await sb.getByRole('button', { name: 'Testar conexão' }).click();
    // Every demo key has 60 customers: Testar says which company the key belongs to.
    await expect.poll(() => result.textContent()).toBe(`Conexão funcionando: ${customers} clientes na organização "${other.name}" (CNPJ 04.252.011/0001-10).`);
    expect(await result.getAttribute('class')).toContain('ok');
    await screenshot(t.page, 'conexoes-teste-ok');

    await sb.getByLabel('Chave de API').fill('chave-que-nao-existe-123');
    await sb.getByRole('button', { name: 'Testar conexão' }).click();
    await expect.poll(() => result.textContent()).toMatch(/^Chave de API recusada \(HTTP 401\)/);
    expect(await result.getAttribute('class')).toContain('error');
    await screenshot(t.page, 'conexoes-teste-401');

    await sb.getByLabel('Endereço base da API').fill(await unreachableBaseUrl());
    await sb.getByLabel('Chave de API').fill(other.apiKey);
    await sb.getByRole('button', { name: 'Testar conexão' }).click();
    await expect.poll(() => result.textContent()).toMatch(/^Não foi possível alcançar o endereço informado/);
  });

  it('saves the connection and never shows its key again: masked, with "Substituir"', async () => {
    const sb = sidebar(t.page);
    const key = t.pg.sandbox.orgs[1].apiKey;
    await sb.getByLabel('Endereço base da API').fill(t.pg.sandbox.baseUrl);
    await sb.getByRole('button', { name: 'Salvar' }).click();
    // Saved, then tried at once.
    await expect.poll(() => sb.locator('#status').textContent()).toMatch(/^Conexão "Padaria Teste" salva\. Conexão funcionando/);
    const card = sb.locator('[data-connection="Padaria Teste"]');
    await expect.poll(() => card.textContent()).toContain('Chave salva');

    // The bundle stored it (for this user only) ...
    const saved = t.pg.emulator.run('listConnections') as Array<{ name: string; hasKey: boolean }>;
    expect(saved.find((c) => c.name === 'Padaria Teste')?.hasKey).toBe(true);

    // ... and the editor shows a mask and a "Substituir" button, never the key.
    await card.getByRole('button', { name: 'Editar' }).click();
    await sb.getByRole('button', { name: 'Substituir' }).waitFor();
    expect(await sb.locator('#key-saved .masked').textContent()).toBe('••••••••••');
    expect(await sb.locator('#f-key').isHidden()).toBe(true);
    const frame = await sidebarFrame(t.page);
    const fieldValues = await frame.evaluate(() => Array.from(document.querySelectorAll('input')).map((i) => i.value));
    expect(fieldValues.join('\n')).not.toContain(key);
    expect(await frame.content()).not.toContain(key);
    expect(await t.page.content()).not.toContain(key);
    const state = await t.page.evaluate(() => fetch('/state').then((r) => r.text()));
    expect(state).not.toContain(key);
    await screenshot(t.page, 'conexoes-editar');
  });

  it('says at once when a key it just saved is refused by the service', async () => {
    const sb = sidebar(t.page);
    await sb.getByRole('button', { name: 'Substituir' }).click();
    await sb.getByLabel('Chave de API').fill('chave-recusada-456');
    await sb.getByRole('button', { name: 'Salvar' }).click();
    await expect.poll(() => sb.locator('#status').textContent()).toMatch(/^Conexão "Padaria Teste" salva, mas o teste falhou: Chave de API recusada/);
    expect(await sb.locator('#status').getAttribute('class')).toContain('error');
    // The card shows the refused key as a badge, never "Chave salva".
    const card = sb.locator('[data-connection="Padaria Teste"]');
    await expect.poll(() => card.locator('.badge.error').textContent()).toBe('Chave recusada');
    expect(await card.textContent()).not.toContain('Chave salva');
  });

  it('names local addresses in the allow-list hint, since the form saves them too', async () => {
    const sb = sidebar(t.page);
    await sb.getByRole('button', { name: 'Adicionar conexão' }).click();
    await expect
      .poll(() => sb.locator('#allowed-hint').textContent())
      .toMatch(/e endereços locais para testes \(localhost, 127\.0\.0\.1, \[::1\], com http ou https\)/);
  });
});
