/**
 * `npm run assets`: the graphics the Google Workspace Marketplace listing asks
 * for, at Google's sizes (docs/deploy.md, "Listing assets"): screenshots of the
 * add-on at 1280×800 taken from the playground in Chromium, icons of 32 and
 * 128 px and a 220×140 banner, into artifacts/listing/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { type Playground, startPlayground } from '../playground/playground';
import { BANNER, bannerHtml, ICON_SIZES, iconSvg, page, SCREENSHOT } from './graphics';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LISTING_DIR = join(root, 'artifacts/listing');

/** Each screenshot: what is done in the playground before it is taken. */
const SCENES = {
  menu: async (p: Page) => {
    await p.getByRole('menubar').getByRole('menuitem', { name: 'Extensões', exact: true }).click();
    await p.getByRole('menu', { name: 'Extensões', exact: true }).getByRole('menuitem', { name: 'Faturamento', exact: true }).click();
    await p.getByRole('menu', { name: 'Faturamento', exact: true }).waitFor();
  },
  importar: async (p: Page) => {
    await menuItem(p, 'Importar dados…');
    const sb = p.frameLocator('#sidebar-frame');
    await sb.getByLabel('O que importar').selectOption({ label: 'Clientes' });
    await sb.getByRole('button', { name: 'Importar', exact: true }).click();
    await sb.locator('#result', { hasText: 'Pronto:' }).waitFor({ timeout: 60_000 });
    await p.getByRole('tab', { name: 'Clientes', exact: true }).click();
  },
  relatorios: async (p: Page) => {
    await menuItem(p, 'Relatórios');
    await p.locator('#sidebar-title', { hasText: 'Relatórios' }).waitFor();
  },
} satisfies Record<string, (p: Page) => Promise<void>>;

export type Scene = keyof typeof SCENES;

async function menuItem(p: Page, caption: string): Promise<void> {
  await SCENES.menu(p);
  await p.getByRole('menu', { name: 'Faturamento', exact: true }).getByRole('menuitem', { name: caption, exact: true }).click();
  // The item runs on the server; the page marks it until it has redrawn.
  await p.locator('body:not([data-acting])').waitFor();
}

async function shoot(browser: Browser, width: number, height: number, draw: (p: Page) => Promise<void>, file: string): Promise<string> {
  const p = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
  try {
    await draw(p);
    await p.screenshot({ path: file });
    return file;
  } finally {
    await p.close();
  }
}

/** The icons and the banner, then one screenshot per scene (in order: a scene may build on the one before). */
export async function makeListingAssets(options: {
  browser: Browser;
  playground: Pick<Playground, 'url'>;
  outDir?: string;
  scenes?: Scene[];
}): Promise<string[]> {
  const out = options.outDir ?? LISTING_DIR;
  mkdirSync(out, { recursive: true });
  const files: string[] = [];
  for (const size of ICON_SIZES)
    files.push(await shoot(options.browser, size, size, (p) => p.setContent(page(size, size, iconSvg(size))), join(out, `icon-${size}.png`)));
  files.push(
    await shoot(options.browser, BANNER.width, BANNER.height, (p) => p.setContent(bannerHtml()), join(out, `banner-${BANNER.width}x${BANNER.height}.png`)),
  );
  const scenes = options.scenes ?? (Object.keys(SCENES) as Scene[]);
  for (const [i, scene] of scenes.entries()) {
    const draw = async (p: Page) => {
      await p.goto(options.playground.url);
      await p.locator('body[data-version]').waitFor();
      // The listing shows the add-on in a spreadsheet, not the playground's own controls.
      await p.addStyleTag({ content: '#playground-bar{display:none !important}' });
      await SCENES[scene](p);
    };
    files.push(await shoot(options.browser, SCREENSHOT.width, SCREENSHOT.height, draw, join(out, `screenshot-${i + 1}-${scene}.png`)));
  }
  writeFileSync(join(out, 'README.txt'), `Made by npm run assets: ${files.map((f) => f.slice(out.length + 1)).join(', ')}\n`);
  return files;
}

/** Width and height from a PNG's header. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.toString('latin1', 1, 4) !== 'PNG') throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

async function main(): Promise<void> {
  const pg = await startPlayground({ port: 0, emulator: { spreadsheet: { name: 'Clientes do escritório' } } });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    for (const file of await makeListingAssets({ browser, playground: pg })) console.log(`assets: ${file.slice(root.length + 1)}`);
  } finally {
    await browser.close();
    await pg.stop();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
