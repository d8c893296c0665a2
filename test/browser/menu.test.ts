/**
 * Every item of the add-on menu, clicked in the browser, opens the surface the
 * bundle showed (its title above the sidebar) and the sidebar's own scripts run
 * without uncaught errors: a smoke test that covers sidebars added later too.
 * The one item that is not a sidebar, Diagnóstico, writes its sheet.
 */
import { describe, expect, it } from 'vitest';
import { clickMenu, screenshot, sidebarFrame, sidebarTitle, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();

describe('the add-on menu', () => {
  it('opens a working sidebar for every item', async () => {
    const errors: string[] = [];
    t.page.on('pageerror', (err) => errors.push(err.message));
    t.page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    const items = t.pg.emulator.menuItems();
    expect(items.length).toBeGreaterThan(2);
    for (const item of items) {
      if (item.functionName === 'runDiagnostics') {
        await clickMenu(t.page, ...item.path.slice(1));
        await expect.poll(() => t.pg.emulator.sheetNames(), { message: item.functionName }).toContain('Diagnóstico');
        continue;
      }
      const before = t.pg.emulator.ui.dialogs.length;
      await clickMenu(t.page, ...item.path.slice(1));
      await expect.poll(() => t.pg.emulator.ui.dialogs.length, { message: item.functionName }).toBe(before + 1);
      const shown = t.pg.emulator.ui.dialogs[before];
      expect(shown.kind).toBe('sidebar');
      await expect.poll(() => sidebarTitle(t.page).textContent()).toBe(shown.title);
      const frame = await sidebarFrame(t.page);
      expect(await frame.locator('h1').first().textContent()).toBeTruthy();
      await screenshot(t.page, `menu-${item.functionName}`);
    }
    expect(errors).toEqual([]);
  });

  it('Ajuda opens the first-run guide, Sobre shows the version', async () => {
    await clickMenu(t.page, 'Ajuda e primeiros passos');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Ajuda');
    const frame = await sidebarFrame(t.page);
    expect(await frame.locator('h1').textContent()).toBe('Primeiros passos');
    expect(await frame.locator('ol.guide li').count()).toBe(5);
    await clickMenu(t.page, 'Sobre');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Sobre');
    const about = await sidebarFrame(t.page);
    await expect.poll(() => about.locator('#about').textContent()).toMatch(/versão \d+\.\d+\.\d+/);
  });

  it('a click on an item comes back once its sidebar has replaced the one open, so what is typed next lands in it', async () => {
    await clickMenu(t.page, 'Conexões');
    expect(await sidebarTitle(t.page).textContent()).toBe(t.pg.emulator.ui.dialogs.at(-1)!.title);
    for (const item of ['Importar dados…', 'Relatórios', 'Conexões']) {
      await clickMenu(t.page, item);
      const shown = t.pg.emulator.ui.dialogs.at(-1)!;
      expect(await sidebarTitle(t.page).textContent(), item).toBe(shown.title);
    }
  });
});
