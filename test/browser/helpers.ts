/**
 * Browser tests of the add-on: the playground (the real bundle in the
 * emulator, the sandbox, the page) driven by Debian's Chromium through
 * playwright-core. Reusable for every sidebar:
 *
 *   const pg = await startPlayground({ port: 0 });
 *   const browser = await launchBrowser();
 *   const page = await openPlayground(browser, pg);
 *   await clickMenu(page, 'Conexões');            // Extensões › Faturamento › Conexões
 *   const sb = sidebar(page);                      // FrameLocator of the add-on's sidebar
 *   await sb.getByRole('button', { name: 'Salvar' }).click();
 *   expect(await readGrid(page, 'A1:C3')).toEqual([...]);
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Frame, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startPlayground, type Playground, type PlaygroundOptions } from '../../dev/playground/playground';
import { borrowSandbox } from '../../dev/sandbox/harness';

export { startPlayground, type Playground, type PlaygroundOptions };

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const ARTIFACTS = join(repoRoot, 'artifacts');

/** Launch flags that work in a container without a display or GPU, and keep the browser off the network (docs/testing.md). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Debian's /usr/bin/chromium (or CHROMIUM_PATH), headless. Playwright gives
 * every launch a fresh, empty temporary profile (it refuses --user-data-dir
 * in args for that reason) and deletes it on close.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/** A new page on the playground, drawn once (grid, menus, tabs). */
export async function openPlayground(browser: Browser, pg: Pick<Playground, 'url'>, viewport = { width: 1400, height: 860 }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  // Shorter than vitest's test timeout, so a stuck step names itself.
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (err) => console.error(`[page error] ${err.message}`));
  await page.goto(pg.url);
  await page.locator('body[data-version]').waitFor();
  return page;
}

export interface PlaygroundPage {
  pg: Playground;
  browser: Browser;
  page: Page;
}

let shared: Promise<Browser> | undefined;

/**
 * One Chromium for every file this test process runs, launched on first use
 * (each file's page lives in a context of its own, as fresh as a new browser's).
 * Playwright ends it, and deletes its profile, when the process exits.
 */
export function sharedBrowser(): Promise<Browser> {
  if (!shared) {
    // Vitest stops a worker with SIGTERM and kills it half a second later; Playwright's own handler closes
    // the browser at leisure and keeps the process alive. Exiting at once runs Playwright's exit hook,
    // which kills Chromium and deletes its profile synchronously (and the sandboxes' hook kills them).
    process.once('SIGTERM', () => process.exit(143));
  }
  shared ??= launchBrowser().then(
    (browser) => {
      // A browser that crashed is launched again for the next file.
      browser.on('disconnected', () => {
        shared = undefined;
      });
      return browser;
    },
    (err: unknown) => {
      shared = undefined;
      throw err;
    },
  );
  return shared;
}

/**
 * For a test file: starts a playground on a free port (with a borrowed sandbox)
 * and a page on it in a new browser context before the tests, and closes both
 * after them. Fields are set in beforeAll.
 */
export function usePlaygroundPage(options: PlaygroundOptions = {}): PlaygroundPage {
  const s = {} as PlaygroundPage;
  beforeAll(async () => {
    [s.pg, s.browser] = await Promise.all([startPlayground({ port: 0, sandbox: borrowSandbox, ...options }), sharedBrowser()]);
    s.page = await openPlayground(s.browser, s.pg);
  });
  afterAll(async () => {
    // The page owns its context (Browser.newPage): closing it leaves nothing of the file behind.
    await s.page?.context().close();
    await s.pg?.stop();
  });
  return s;
}

/** Clicks Extensões › <add-on menu> › ...path (the add-on's menu is "Faturamento" unless told). */
export async function clickMenu(page: Page, ...path: string[]): Promise<void> {
  const full = path[0] === 'Extensões' ? path : ['Extensões', 'Faturamento', ...path];
  await page.getByRole('menubar').getByRole('menuitem', { name: full[0], exact: true }).click();
  let scope = page.getByRole('menu', { name: full[0], exact: true });
  for (const caption of full.slice(1, -1)) {
    await scope.getByRole('menuitem', { name: caption, exact: true }).click();
    scope = page.getByRole('menu', { name: caption, exact: true });
  }
  await scope.getByRole('menuitem', { name: full[full.length - 1], exact: true }).click();
  // The item runs on the server: until the page has redrawn, a sidebar it opens has not replaced the old one yet.
  await page.locator('body:not([data-acting])').waitFor();
}

/** The add-on's sidebar iframe (re-resolved on every use: a new sidebar replaces the old). */
export function sidebar(page: Page): FrameLocator {
  return page.frameLocator('#sidebar-frame');
}

/** Title Sheets shows above the sidebar. */
export function sidebarTitle(page: Page): Locator {
  return page.locator('#sidebar-title');
}

/** The sidebar's Frame, for evaluate()/content(); waits for it to load. */
export async function sidebarFrame(page: Page): Promise<Frame> {
  const handle = await page.locator('#sidebar-frame').elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('no sidebar frame');
  await frame.waitForLoadState('load');
  return frame;
}

/** One grid cell by A1 ("B3"). */
export function cell(page: Page, a1: string): Locator {
  const m = /^([A-Z]+)(\d+)$/.exec(a1);
  if (!m) throw new Error(`cell(): not a cell reference: ${a1}`);
  let column = 0;
  for (const ch of m[1]) column = column * 26 + ch.charCodeAt(0) - 64;
  return page.locator(`#grid td[data-r="${m[2]}"][data-c="${column}"]`);
}

/** Display values the page shows in a rectangle ("A1:C3"), read from the DOM ('' for a row the page does not draw now). */
export async function readGrid(page: Page, range: string): Promise<string[][]> {
  const [from, to = from] = range.split(':');
  const parse = (ref: string) => {
    const m = /^([A-Z]+)(\d+)$/.exec(ref)!;
    let c = 0;
    for (const ch of m[1]) c = c * 26 + ch.charCodeAt(0) - 64;
    return { r: Number(m[2]), c };
  };
  const a = parse(from);
  const b = parse(to);
  return page.locator('#grid tbody').evaluate(
    (body, { a, b }) => {
      const rows = new Map<number, HTMLTableRowElement>();
      for (const tr of Array.from((body as HTMLTableSectionElement).rows)) {
        const head = tr.querySelector<HTMLElement>('th[data-row]');
        if (head) rows.set(Number(head.dataset.row), tr);
      }
      const out: string[][] = [];
      for (let r = a.r; r <= b.r; r++) {
        const row: string[] = [];
        for (let c = a.c; c <= b.c; c++) row.push(rows.get(r)?.cells[c]?.textContent ?? '');
        out.push(row);
      }
      return out;
    },
    { a, b },
  );
}

/** Scrolls the grid as a person does: to its top, its bottom, or a fraction of the way down. */
export async function scrollGrid(page: Page, where: 'top' | 'bottom' | number): Promise<void> {
  await page.locator('#grid-wrap').evaluate((wrap, where) => {
    const end = wrap.scrollHeight - wrap.clientHeight;
    wrap.scrollTop = where === 'top' ? 0 : where === 'bottom' ? end : end * where;
  }, where);
}

/** Pastes text at the active cell, as a block copied from a spreadsheet or an editor (lines and tabs) arrives. */
export async function paste(page: Page, text: string): Promise<void> {
  await page.evaluate((data) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', data);
    document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
  }, text);
}

/** Drags from one cell to another, as a user selects a range. */
export async function selectRange(page: Page, from: string, to = from): Promise<void> {
  await cell(page, from).hover();
  await page.mouse.down();
  await cell(page, to).hover();
  await page.mouse.up();
}

/** A sheet tab at the bottom. */
export function tab(page: Page, name: string): Locator {
  return page.getByRole('tab', { name, exact: true });
}

/** Saves a screenshot under artifacts/ (git-ignored) and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** A localhost URL where nothing listens (a port that was just free). */
export async function unreachableBaseUrl(): Promise<string> {
  const { createServer } = await import('node:net');
  const server = createServer();
  const port = await new Promise<number>((res) => server.listen(0, '127.0.0.1', () => res((server.address() as { port: number }).port)));
  await new Promise<void>((res) => server.close(() => res()));
  return `http://127.0.0.1:${port}`;
}
