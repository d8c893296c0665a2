/**
 * Builds what `clasp push` uploads: dist/Code.js, dist/appsscript.json, one
 * self-contained HTML file per sidebar and one file per lazy chunk
 * (`chunk-<name>.html`, its code, read only by an execution that loads it).
 *
 * Apps Script loads plain scripts and can only call top-level function
 * declarations, so the bundle is an IIFE behind one namespace and a generated
 * footer adds one forwarding `function` per export of src/main.ts. An IIFE
 * metafile lists no exports, hence the first, ESM-only pass that reads them.
 */
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkFile, lazyChunks } from './dev/build/lazy-chunks';
import { rememberBundle, sourceHash } from './dev/gas/bundle';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
const entry = join(root, 'src/main.ts');
export const NAMESPACE = 'FaturamentoAddon';

/** The ESM pass that only reads the entry's export names (an IIFE metafile lists none). */
export function entryOptions(): BuildOptions & { metafile: true; write: false } {
  return {
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    metafile: true,
    logLevel: 'silent',
    outdir: dist,
  };
}

export function exportsOf(metafile: Metafile): string[] {
  const output = Object.values(metafile.outputs).find((o) => o.entryPoint);
  if (!output) throw new Error('build: no output for src/main.ts');
  return [...output.exports].sort();
}

/** The API base URLs the build allows: BILLING_API_BASE_URLS, else addon.config.json's apiBaseUrls. */
export function configuredBaseUrls(): string[] {
  const envUrls = process.env.BILLING_API_BASE_URLS?.split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  const config = JSON.parse(readFileSync(join(root, 'addon.config.json'), 'utf8')) as { apiBaseUrls: string[] };
  return envUrls?.length ? envUrls : config.apiBaseUrls;
}

/** The kind of Google account the publisher says the add-on's users have: addon.config.json's `conta` (`workspace` or `pessoal`), else null (src/gas/account.ts). */
export function configuredAccount(): 'workspace' | 'consumer' | null {
  const config = JSON.parse(readFileSync(join(root, 'addon.config.json'), 'utf8')) as { conta?: string };
  if (config.conta === undefined) return null;
  if (config.conta === 'workspace') return 'workspace';
  if (config.conta === 'pessoal') return 'consumer';
  throw new Error(`addon.config.json: conta must be "workspace" or "pessoal", not ${JSON.stringify(config.conta)}`);
}

/** What the eager bundle and its lazy chunks (dev/build/lazy-chunks.ts) are both built with. */
export function sharedOptions(): BuildOptions {
  return {
    bundle: true,
    platform: 'neutral',
    mainFields: ['module', 'main'],
    // Apps Script's V8 runtime runs ES2020 (tsconfig's target too): no down-levelled `?.` and `??`.
    target: 'es2020',
    // Non-ASCII characters escaped: one character beyond Latin-1 makes V8 hold and scan the whole source as two-byte text.
    charset: 'ascii',
    // The connection form offers these and refuses any other host: UrlFetchApp could not reach it.
    define: {
      globalThis: '__bundleGlobal',
      __API_BASE_URLS__: JSON.stringify(configuredBaseUrls()),
      __ACCOUNT_KIND__: JSON.stringify(configuredAccount()),
    },
    inject: [join(root, 'src/build/shadow-global.ts')],
    logLevel: 'warning',
    legalComments: 'none',
    // Every execution parses the whole bundle first: smaller is a faster cold start (bench/cold-start.ts).
    // Names inside the bundle are shortened; the entry points, the namespace and error texts are not.
    minify: true,
  };
}

/**
 * The real pass: an IIFE that sets one namespace, and one forwarding top-level
 * function per export. The namespace is a plain object the entry fills with
 * its exports, not the module's namespace object, whose getters every
 * execution would define and copy before the function called.
 */
export function codeOptions(exportsList: string[]): BuildOptions {
  const footer = exportsList.map((name) => `function ${name}() { return ${NAMESPACE}.${name}.apply(this, arguments); }`).join('\n');
  const names = exportsList.join(', ');
  return {
    ...sharedOptions(),
    stdin: { contents: `import { ${names} } from ${JSON.stringify(entry)};\n${NAMESPACE} = { ${names} };`, resolveDir: root, loader: 'js' },
    format: 'iife',
    // The directive first, so the whole script stays strict as the sources are; the namespace is declared beside it.
    banner: { js: `"use strict";var ${NAMESPACE};` },
    footer: { js: footer },
  };
}

/**
 * dist/Code.js's text (the eager code), each lazy chunk's text, and the files
 * of the project that hold the chunks (`chunk-<name>.html`: the same text).
 */
export async function bundleParts(exportsList?: string[]): Promise<{ code: string; chunks: Record<string, string>; files: Record<string, string> }> {
  exportsList ??= await entryExports();
  const { plugin, define, sources } = await lazyChunks(root, entry, sharedOptions());
  const options = codeOptions(exportsList);
  const out = await build({ ...options, define: { ...options.define, ...define }, plugins: [plugin], write: false, outfile: join(dist, 'Code.js') });
  const files = Object.fromEntries(Object.entries(sources).map(([name, text]) => [chunkFile(name), text]));
  return { code: out.outputFiles[0].text, chunks: sources, files };
}

async function entryExports(): Promise<string[]> {
  return exportsOf((await build(entryOptions())).metafile);
}

/** Origins of the configured API base URLs, as urlFetchWhitelist wants them (prefix ending in "/"). */
export function whitelistFrom(baseUrls: string[]): string[] {
  const out = new Set<string>();
  for (const raw of baseUrls) {
    const url = new URL(raw.trim());
    if (url.protocol !== 'https:') throw new Error(`build: urlFetchWhitelist only takes https URLs: ${raw}`);
    out.add(`${url.origin}/`);
  }
  return [...out];
}

/** dist/appsscript.json: the project's manifest with the allow-list this build configures. */
export function builtManifest(): { oauthScopes: string[]; urlFetchWhitelist: string[] } & Record<string, unknown> {
  const manifest = JSON.parse(readFileSync(join(root, 'appsscript.json'), 'utf8'));
  manifest.urlFetchWhitelist = whitelistFrom(configuredBaseUrls());
  return manifest;
}

function writeManifest(): void {
  writeFileSync(join(dist, 'appsscript.json'), `${JSON.stringify(builtManifest(), null, 2)}\n`);
}

/**
 * Sidebars: src/ui/<Name>.html may reference `<script src="client/x.ts"></script>`
 * and `<link rel="stylesheet" href="x.css">`; both are inlined because
 * HtmlService serves one file and the sidebar must work without any CDN.
 */
async function buildHtml(): Promise<string[]> {
  const uiDir = join(root, 'src/ui');
  let files: string[] = [];
  try {
    files = readdirSync(uiDir).filter((f) => f.endsWith('.html'));
  } catch {
    return [];
  }
  for (const file of files) {
    let html = readFileSync(join(uiDir, file), 'utf8');
    const scripts = [...html.matchAll(/<script src="([^"]+\.ts)"><\/script>/g)];
    for (const [tag, src] of scripts) {
      const out = await build({
        entryPoints: [resolve(uiDir, src)],
        bundle: true,
        format: 'iife',
        target: 'es2019',
        write: false,
        charset: 'utf8',
        logLevel: 'warning',
      });
      // "</script" inside the code would end the inline script early.
      const code = out.outputFiles[0].text.replace(/<\/script/gi, '<\\/script');
      html = html.replace(tag, () => `<script>\n${code}</script>`);
    }
    const styles = [...html.matchAll(/<link rel="stylesheet" href="([^"]+\.css)">/g)];
    for (const [tag, href] of styles) {
      const css = readFileSync(resolve(uiDir, href), 'utf8');
      html = html.replace(tag, () => `<style>\n${css}</style>`);
    }
    writeFileSync(join(dist, file), html);
  }
  return files;
}

async function main(): Promise<void> {
  const hash = sourceHash();
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  const exportsList = await entryExports();
  const { code, files } = await bundleParts(exportsList);
  writeFileSync(join(dist, 'Code.js'), code);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dist, name), text);
  // The emulator's tests run this same text: they need not build it again.
  rememberBundle(hash, { code, files });
  writeManifest();
  const html = await buildHtml();
  // The emulator's tests compare the bundle's globals with this list.
  writeFileSync(
    join(dist, 'entrypoints.json'),
    `${JSON.stringify({ namespace: NAMESPACE, functions: exportsList, html, chunks: Object.keys(files) }, null, 2)}\n`,
  );
  const size = readFileSync(join(dist, 'Code.js')).length;
  const chunked = Object.values(files).reduce((sum, text) => sum + text.length, 0);
  console.log(
    `build: dist/Code.js ${(size / 1024).toFixed(0)} KB, ${exportsList.length} entry points, ${html.length} HTML files, ` +
      `${Object.keys(files).length} chunk files (${(chunked / 1024).toFixed(0)} KB)`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // `--parts`: the bundle's code and chunk files as JSON on stdout, for callers that must stay synchronous (dev/gas/bundle.ts).
  const run = process.argv.includes('--parts') ? bundleParts().then(({ code, files }) => process.stdout.write(JSON.stringify({ code, files }))) : main();
  run.catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
