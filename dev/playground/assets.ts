/** The page's files: HTML and CSS as written, the client scripts bundled with esbuild at start-up. */
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export interface Assets {
  'page.html': string;
  'app.css': string;
  'app.js': string;
  'bridge.js': string;
}

async function bundle(entry: string): Promise<string> {
  const out = await build({
    entryPoints: [join(here, 'client', entry)],
    bundle: true,
    format: 'iife',
    target: 'es2020',
    write: false,
    charset: 'utf8',
    logLevel: 'warning',
  });
  return out.outputFiles[0].text;
}

export async function loadAssets(): Promise<Assets> {
  const [app, bridge] = await Promise.all([bundle('app.ts'), bundle('bridge.ts')]);
  return {
    'page.html': readFileSync(join(here, 'page.html'), 'utf8'),
    'app.css': readFileSync(join(here, 'page.css'), 'utf8'),
    'app.js': app,
    'bridge.js': bridge,
  };
}
