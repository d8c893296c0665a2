/**
 * Code that most executions never run, kept out of the parse every execution
 * pays for. Apps Script parses the whole script before each call (menu,
 * trigger, sidebar poll), and parsing is most of that cold start. A chunk's
 * code goes into its own file of the project (`chunk-<name>.html`, beside the
 * sidebars' pages), which no execution parses unless it reads it: the first
 * time one of the chunk's functions is called in an execution, the loader
 * (src/gas/chunk-file.ts) reads the file, checks it against the length the
 * build recorded and compiles it with `new Function`.
 *
 * A chunk is named by its root modules. It holds them and every module only
 * they reach; a module the eager code (or two chunks) also reaches stays eager
 * and is shared, so classes and state exist once. The one exception is a
 * module listed in `COPIED_MODULES` that no eager code reaches: each chunk
 * that reaches it holds its own copy. The eager side sees a root
 * through a stub with one forwarding function per `export function`: a
 * constant or class imported across the boundary fails the build, since its
 * value would be needed before the chunk is loaded.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type BuildOptions, build, type Metafile, type Plugin } from 'esbuild';

/** The chunks and their roots (paths from the repository root). */
export const LAZY_CHUNKS: Record<string, readonly string[]> = {
  // Lançamentos em lote and Enviar alterações: their sidebar, the hourly run when a batch is unfinished, and the
  // Produtos and Planos tabs the templates pick from, refreshed after a subscriptions report runs; and the table of
  // the writes, which only a lot's rows and a Fechamento's issued invoices send.
  bulk: ['src/gas/lote-server.ts', 'src/gas/alteracoes-server.ts', 'src/core/bulk/job.ts', 'src/core/bulk/catalog.ts', 'src/api/writes.ts'],
  // Painéis: their sidebar, and the end of a run of a report that feeds one.
  dashboards: ['src/gas/paineis-server.ts', 'src/core/dashboards/refresh.ts'],
  // A report's run: starting it (from the Importar form, Relatórios or the hourly run) and its steps, never the
  // sidebars' listings and forms.
  import: [
    'src/core/pull/start.ts',
    'src/core/pull/step.ts',
    'src/core/pull/state.ts',
    'src/core/pull/layout.ts',
    'src/core/hourly/unchanged-run.ts',
    'src/core/runs/begin.ts',
    'src/core/runs/step.ts',
    'src/core/runs/form.ts',
  ],
  // Central do escritório: its sidebar, and the hourly run of a spreadsheet whose Central refreshes itself.
  central: ['src/gas/central-server.ts', 'src/gas/central-phase.ts'],
  // Ajuda › Diagnóstico.
  diagnostics: ['src/gas/diagnostics.ts'],
};

/**
 * Modules that two chunks reach and the eager code does not, copied into each
 * of those chunks rather than parsed by every execution. None keeps state of
 * its own at its top level (a `let` or `var`), and no object of theirs is told
 * apart by its class (`instanceof` one of their classes, anywhere in the
 * source): so two copies in one execution behave as one module, and the build
 * refuses a copied module that stops being so (`copiedModuleProblems`). What
 * they import stays shared as any module two chunks reach.
 */
export const COPIED_MODULES: readonly string[] = [
  // The Fechamento's close and its checks: the Painéis' Fechamento and the Central's month both draw it.
  'src/core/dashboards/kinds/fechamento/closing.ts',
  'src/core/dashboards/kinds/fechamento/conference.ts',
  'src/core/dashboards/sources.ts',
  'src/core/dashboards/page.ts',
  // A run's step budget and the share of a wave: a report's run and the Central's refresh both keep to them.
  'src/core/deadline.ts',
  'src/core/pull/wave-share.ts',
];

/**
 * Why a module may not be copied into several chunks: state kept at its top level (each copy would keep its own), or
 * one of its classes told apart by `instanceof` in `sources` (an object of one copy is not an instance of the other's).
 */
export function copiedModuleProblems(path: string, source: string, sources: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  const state = /^(?:export\s+)?(?:let|var)\s+(\w+)/m.exec(source);
  if (state) out.push(`${path} keeps state at its top level (${state[1]})`);
  for (const [, name] of source.matchAll(/^export\s+(?:abstract\s+)?class\s+(\w+)/gm)) {
    const told = new RegExp(`instanceof\\s+${name}\\b`);
    for (const [file, text] of sources) if (told.test(text)) out.push(`${file} tells ${name} of ${path} apart with instanceof`);
  }
  return out;
}

/** Every TypeScript source under `dir`, by path relative to `root`. */
function sourcesUnder(root: string, dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) for (const [p, t] of sourcesUnder(root, path)) out.set(p, t);
    else if (entry.name.endsWith('.ts')) out.set(path, readFileSync(join(root, path), 'utf8'));
  }
  return out;
}

const LOADER = 'lazy-loader';
/** The module whose `loadChunk(name, compile)` reads and checks a chunk's file: eager, whoever else imports it (the Diagnóstico does). */
export const CHUNK_FILE_MODULE = 'src/gas/chunk-file.ts';
const STUB = 'lazy-stub';
const SHARED = 'lazy-shared';

export interface Plan {
  /** Chunk of each root. */
  roots: Map<string, string>;
  /** Chunk of each module that is not eager. */
  owner: Map<string, string>;
  /** Modules every execution parses. */
  eager: Set<string>;
  /** Each module copied into the chunks that reach it, and those chunks. */
  copies: Map<string, Set<string>>;
}

/** The module graph of an ESM pass: each input's static imports, as paths from the root. */
async function graphOf(root: string, entry: string, options: BuildOptions): Promise<Metafile> {
  const out = await build({
    ...options,
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    write: false,
    metafile: true,
    minify: false,
    logLevel: 'silent',
    outdir: join(root, 'dist'),
  });
  return out.metafile;
}

export function planChunks(
  metafile: Metafile,
  entry: string,
  chunks: Record<string, readonly string[]>,
  alsoEager: readonly string[] = [],
  copied: readonly string[] = [],
): Plan {
  const imports = (p: string) => (metafile.inputs[p]?.imports ?? []).filter((i) => i.kind === 'import-statement' && !i.external).map((i) => i.path);
  const rootOf = new Map<string, string>();
  for (const [name, roots] of Object.entries(chunks))
    for (const r of roots) {
      if (!metafile.inputs[r]) throw new Error(`build: lazy chunk "${name}" names ${r}, which the bundle does not contain`);
      rootOf.set(r, name);
    }
  for (const c of copied)
    if (!metafile.inputs[c] || rootOf.has(c))
      throw new Error(`build: ${c}, to be copied into the lazy chunks that reach it, is not a module of the bundle or is a chunk's root`);
  const reach = (starts: string[], stop: (p: string) => boolean) => {
    const seen = new Set<string>();
    const stack = [...starts];
    while (stack.length) {
      const p = stack.pop() as string;
      if (seen.has(p) || stop(p)) continue;
      seen.add(p);
      stack.push(...imports(p));
    }
    return seen;
  };
  const eager = reach([entry, ...alsoEager], (p) => rootOf.has(p));
  // A module two chunks reach becomes eager, and so may what it imports: repeat until nothing moves.
  for (;;) {
    const owner = new Map<string, string>();
    const copies = new Map<string, Set<string>>();
    let moved = false;
    for (const [name, roots] of Object.entries(chunks)) {
      const mine = reach([...roots], (p) => eager.has(p) || (rootOf.has(p) && rootOf.get(p) !== name));
      for (const p of mine) {
        if (copied.includes(p)) {
          copies.set(p, (copies.get(p) ?? new Set()).add(name));
          continue;
        }
        const other = owner.get(p);
        if (other !== undefined && other !== name) {
          eager.add(p);
          moved = true;
        } else owner.set(p, name);
      }
    }
    if (!moved) return { roots: rootOf, owner, eager, copies };
    // What eager code imports is eager too, up to the roots it reaches through stubs.
    for (const p of reach([...eager], (p) => rootOf.has(p))) eager.add(p);
  }
}

/** `export function name` declarations of a root: what a stub can forward before its chunk is loaded. */
export function exportedFunctions(source: string): string[] {
  return [...source.matchAll(/^export (?:async )?function\s+([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]);
}

/** A module's exported values (not its types): what a chunk may take from the eager bundle. */
export function exportedValues(source: string): string[] {
  const declared = [...source.matchAll(/^export (?:async )?(?:function\*?|const|let|var|class|enum)\s+([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]);
  const listed = [...source.matchAll(/^export \{([^}]*)\}\s*;/gm)].flatMap((m) =>
    m[1]
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n && !n.startsWith('type '))
      .map((n) => n.split(/\s+as\s+/).pop() as string),
  );
  return [...declared, ...listed];
}

/** `__pick("<module>","<name>")`: how a chunk built names a value of the eager bundle (see `sharedShim`), until `numberPicks` numbers it. */
const PICK = /__pick\(\s*"([^"]+)",\s*"([^"]+)"\s*\)/g;

/** A module's exported names as esbuild resolves them, `export *` included (a package's index re-exports its parts). */
async function resolvedExports(root: string, path: string): Promise<string[]> {
  const out = await build({
    absWorkingDir: root,
    entryPoints: [path],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    metafile: true,
    logLevel: 'silent',
    outdir: join(root, 'dist'),
  });
  return Object.values(out.metafile.outputs).flatMap((o) => o.exports);
}

/**
 * A chunk's view of an eager module: each export read from the eager bundle
 * when the chunk is loaded. Marked pure, so the chunk keeps only the ones it
 * uses, and the eager bundle then hands over exactly those.
 */
let shimLocals = 0;

async function sharedShim(root: string, path: string): Promise<string> {
  const source = readFileSync(join(root, path), 'utf8');
  // A module of our own names each value where it declares it; only a package may gather its parts with `export *`.
  if (/^export \*/m.test(source) && !path.split('/').includes('node_modules'))
    throw new Error(`build: a lazy chunk imports ${path}, which re-exports with "export *": import from the module that declares the value`);
  const names = /^export \*/m.test(source) ? await resolvedExports(root, path) : exportedValues(source);
  // Renamed on export: a package may export a reserved word (zod's `catch`), which no `const` may be named; each local
  // is named once in the whole build, since the bundler does not tell apart the same local name of two shims.
  return names
    .map((n) => {
      const local = `__shared${++shimLocals}`;
      return `const ${local} = /* @__PURE__ */ __pick(${JSON.stringify(path)}, ${JSON.stringify(n)});\nexport { ${local} as ${n} };`;
    })
    .join('\n');
}

function stubSource(root: string, path: string, chunk: string): string {
  const names = exportedFunctions(readFileSync(join(root, path), 'utf8'));
  const access = `load(${JSON.stringify(chunk)})[${JSON.stringify(path)}]`;
  return [
    `import { load } from ${JSON.stringify(LOADER)};`,
    ...names.map((n) => `export function ${n}() { return ${access}.${n}.apply(this, arguments); }`),
  ].join('\n');
}

/**
 * Resolves every import as esbuild would, then: a chunk root owned by another
 * chunk (or by any chunk, on the eager side) becomes a stub; on a chunk's side
 * an eager module becomes a shim that takes its values from the eager bundle.
 */
function boundary(root: string, plan: Plan, side: string | null, loader: string): Plugin {
  return {
    name: 'lazy-boundary',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${LOADER}$`) }, () => ({ path: LOADER, namespace: LOADER }));
      b.onLoad({ filter: /.*/, namespace: LOADER }, () => ({ contents: loader, resolveDir: root, loader: 'js' }));
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === 'resolving' || args.kind === 'entry-point' || args.namespace !== 'file') return undefined;
        const found = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'resolving' });
        if (found.errors.length || !found.path) return undefined;
        const path = relative(root, found.path);
        const chunk = plan.owner.get(path);
        if (chunk !== undefined && chunk !== side && plan.roots.get(path) === chunk) return { path, namespace: STUB, pluginData: chunk };
        if (chunk !== undefined && chunk !== side)
          throw new Error(`build: ${relative(root, args.importer)} imports ${path}, inside lazy chunk "${chunk}" but not one of its roots`);
        if (side !== null && plan.eager.has(path)) return { path, namespace: SHARED };
        return undefined;
      });
      b.onLoad({ filter: /.*/, namespace: STUB }, (args) => ({
        contents: stubSource(root, args.path, args.pluginData as string),
        resolveDir: root,
        loader: 'js',
      }));
      b.onLoad({ filter: /.*/, namespace: SHARED }, async (args) => ({ contents: await sharedShim(root, args.path), resolveDir: root, loader: 'js' }));
    },
  };
}

/** The name of a chunk's file in the project, and what the build records of its text for the loader to check. */
export const chunkFile = (name: string): string => `chunk-${name}.html`;
const recordOf = (text: string) => ({ length: text.length, sha256: createHash('sha256').update(text, 'utf8').digest('hex') });

/**
 * Gives each eager value the chunks take a number, and has each chunk ask for
 * it by that number (`__pick(7)`): the loader, which every execution parses,
 * then holds one list of the values rather than a table of module paths and
 * export names. Returns the values in the order of their numbers.
 */
function numberPicks(sources: Record<string, string>): Array<{ path: string; value: string }> {
  const numbered = new Map<string, number>();
  const picks: Array<{ path: string; value: string }> = [];
  for (const name of Object.keys(sources))
    sources[name] = sources[name].replace(PICK, (_, path: string, value: string) => {
      const key = JSON.stringify([path, value]);
      let at = numbered.get(key);
      if (at === undefined) {
        at = picks.push({ path, value }) - 1;
        numbered.set(key, at);
      }
      return `__pick(${at})`;
    });
  return picks;
}

/**
 * Builds each chunk as the body of a function of (`__pick`, `__load`) that
 * returns its roots' module objects, then returns the plugin for the eager
 * bundle (stubs for the roots and a loader that reads each chunk's file and
 * hands it the eager values it uses), the `define` that gives the eager bundle
 * the chunks' records, and each chunk's text, to be written to its file.
 */
export async function lazyChunks(
  root: string,
  entry: string,
  options: BuildOptions,
  chunks: Record<string, readonly string[]> = LAZY_CHUNKS,
  fileModule: string = CHUNK_FILE_MODULE,
  copied: readonly string[] = chunks === LAZY_CHUNKS ? COPIED_MODULES : [],
): Promise<{ plugin: Plugin; define: Record<string, string>; sources: Record<string, string> }> {
  const plan = planChunks(await graphOf(root, entry, options), relative(root, entry), chunks, [fileModule], copied);
  if (copied.length) {
    const code = sourcesUnder(root, 'src');
    const problems = copied.flatMap((c) => copiedModuleProblems(c, code.get(c) ?? '', code));
    if (problems.length) throw new Error(`build: a module copied into several chunks must behave as one: ${problems.join('; ')}`);
  }
  const sources: Record<string, string> = {};
  for (const [name, roots] of Object.entries(chunks)) {
    const index = roots.map((r, i) => `import * as m${i} from ${JSON.stringify(join(root, r))};`).join('\n');
    const exported = `export default { ${roots.map((r, i) => `${JSON.stringify(r)}: m${i}`).join(', ')} };`;
    const out = await build({
      ...options,
      stdin: { contents: `${index}\n${exported}`, resolveDir: root, loader: 'js' },
      format: 'iife',
      globalName: '__chunk',
      banner: { js: '"use strict";' },
      footer: { js: 'return __chunk.default;' },
      write: false,
      plugins: [boundary(root, plan, name, 'export const load = __load;')],
    });
    sources[name] = out.outputFiles?.[0]?.text ?? '';
  }
  const picks = numberPicks(sources);
  const loader = [
    `import { loadChunk } from ${JSON.stringify(join(root, fileModule))};`,
    ...picks.map((p, at) => `import { ${p.value} as v${at} } from ${JSON.stringify(join(root, p.path))};`),
    // Gathered when a chunk is loaded, not when this module runs: an eager module that imports a root through its stub
    // imports this loader too, so its own values may not be set yet when the loader's top level runs.
    'let shared;',
    `const pick = (at) => (shared || (shared = [${picks.map((_, at) => `v${at}`).join(', ')}]))[at];`,
    'const loaded = {};',
    // One read and compile per chunk per execution, the first time one of its functions is called; a chunk that fails
    // is not kept, so every later call fails the same way instead of running part of it.
    'export function load(name) { return loaded[name] || (loaded[name] = loadChunk(name, (source) => new Function("__pick", "__load", source)(pick, load))); }',
  ].join('\n');
  const records = Object.fromEntries(Object.entries(sources).map(([name, text]) => [name, recordOf(text)]));
  return { plugin: boundary(root, plan, null, loader), define: { __CHUNK_FILES__: JSON.stringify(records) }, sources };
}
