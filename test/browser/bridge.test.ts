/**
 * google.script.run and google.script.host as the add-on's sidebars see them
 * in the playground: handlers and user objects, the server's error in the
 * failure handler, Apps Script's serialization rules, at most 10 calls in
 * flight, close(), and dialogs/toasts the bundle shows.
 */
import type { Frame, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { clickMenu, sidebarFrame, sidebarTitle, usePlaygroundPage } from './helpers';

type Handler = (value: unknown, userObject?: unknown) => void;
interface Runner {
  withSuccessHandler(fn: Handler): Runner;
  withFailureHandler(fn: Handler): Runner;
  withUserObject(o: unknown): Runner;
  [fn: string]: unknown;
}
/** The sidebar's window, with google.script as the bridge defines it. */
type GsWindow = Window & { google: { script: { run: Runner; host: { close(): void } } }; done: number };

const t = usePlaygroundPage();
let frame: Frame;

beforeAll(async () => {
  await clickMenu(t.page, 'Conexões');
  frame = await sidebarFrame(t.page);
});

describe('google.script.run in the sidebar', () => {
  it('calls the bundle asynchronously and hands the value and the user object to the success handler', async () => {
    const out = await frame.evaluate(
      () =>
        new Promise<{ sync: boolean; names: string[]; user: unknown }>((resolve) => {
          const gs = (window as unknown as GsWindow).google.script;
          let returned = false;
          const runner = gs.run
            .withUserObject({ tag: 'u1' })
            .withSuccessHandler((v, u) => resolve({ sync: !returned, names: (v as Array<{ name: string }>).map((c) => c.name), user: u }));
          (runner.listConnections as () => void)();

          returned = true;
        }),
    );
    expect(out).toEqual({ sync: false, names: [t.pg.connectionName], user: { tag: 'u1' } });
  });

  it("gives the failure handler an Error with the server's message", async () => {
    const direct = t.pg.emulator.execute('continueReportRun', ['nao-existe']);
    expect(direct.status).toBe('error');
    const out = await frame.evaluate(
      () =>
        new Promise<{ isError: boolean; message: string; user: unknown }>((resolve) => {
          const gs = (window as unknown as GsWindow).google.script;
          const r = gs.run.withSuccessHandler(() => resolve({ isError: false, message: 'succeeded', user: null }));
          (
            r.withFailureHandler((e, u) => resolve({ isError: e instanceof Error, message: (e as Error).message, user: u })).withUserObject(7)
              .continueReportRun as (id: string) => void
          )('nao-existe');
        }),
    );
    expect(out).toEqual({ isError: true, message: direct.error?.message, user: 7 });
  });

  it('refuses a Date argument as Apps Script does, and sends undefined in arrays as null', async () => {
    const rpc = t.page.waitForRequest((r) => r.url().endsWith('/rpc'));
    const message = await frame.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const gs = (window as unknown as GsWindow).google.script;
          const r = gs.run.withSuccessHandler(() => resolve('accepted')).withFailureHandler((e) => resolve((e as Error).message));
          (r.saveConnection as (x: unknown) => void)({
            name: 'Com data',
            baseUrl: 'http://127.0.0.1:1',
            apiKey: 'k',
            when: new Date(0),
            list: [1, undefined, 3],
          });
        }),
    );
    expect(message).toMatch(/illegal value in property: .*when.*Date/);
    expect(((await rpc).postDataJSON() as { args: Array<{ list: unknown[] }> }).args[0].list).toEqual([1, null, 3]);
    expect((t.pg.emulator.run('listConnections') as Array<{ name: string }>).map((c) => c.name)).not.toContain('Com data');
  });

  it('keeps at most 10 calls in flight: the 11th waits for one to finish', async () => {
    const held: Route[] = [];
    const releasedWhenSeen: number[] = [];
    let released = 0;
    await t.page.route('**/rpc', (route) => {
      releasedWhenSeen.push(released);
      held.push(route);
    });
    try {
      await frame.evaluate(() => {
        const gs = (window as unknown as GsWindow).google.script;
        const w = window as unknown as GsWindow;
        w.done = 0;
        for (let i = 0; i < 11; i++) (gs.run.withSuccessHandler(() => (w.done += 1)).listConnections as () => void)();
      });
      await expect.poll(() => held.length).toBe(10);
      released = 1;
      await held[0].continue();
      await expect.poll(() => held.length).toBe(11);
      expect(releasedWhenSeen).toEqual([...Array(10).fill(0), 1]);
      await Promise.all(held.slice(1).map((r) => r.continue()));
      await expect.poll(() => frame.evaluate(() => (window as unknown as GsWindow).done)).toBe(11);
    } finally {
      await t.page.unroute('**/rpc');
    }
  });

  it('google.script.host.close() closes the sidebar', async () => {
    await frame.evaluate(() => (window as unknown as GsWindow).google.script.host.close());
    await expect.poll(() => t.page.locator('#sidebar').isHidden()).toBe(true);
    expect(t.pg.session.surfaces.sidebar()).toBeNull();
    await clickMenu(t.page, 'Conexões');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Conexões');
  });
});

describe('dialogs and toasts the bundle shows', () => {
  it('shows a modal dialog with the bridge inside, closes it from the dialog, and shows a toast', async () => {
    t.pg.emulator.withServices((s) => {
      const html = s.HtmlService.createHtmlOutput('<p>Exportação pronta.</p><button onclick="google.script.host.close()">Fechar aviso</button>')
        .setWidth(360)
        .setHeight(120);
      s.SpreadsheetApp.getUi().showModalDialog(html, 'Aviso do complemento');
      s.SpreadsheetApp.getActiveSpreadsheet().toast('Importação concluída', 'Faturamento', 30);
    });
    t.pg.touch();
    const dialog = t.page.getByRole('dialog', { name: 'Aviso do complemento' });
    await dialog.waitFor();
    await t.page.getByRole('status').filter({ hasText: 'Importação concluída' }).waitFor();
    await dialog.frameLocator('iframe').getByRole('button', { name: 'Fechar aviso' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(t.pg.session.surfaces.dialogs()).toEqual([]);
  });
});
