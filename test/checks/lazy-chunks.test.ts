/**
 * The bundle's lazy chunks (dev/build/lazy-chunks.ts), on a small fixture
 * built with esbuild and run in a fresh vm context, as Apps Script would.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { copiedModuleProblems, exportedFunctions, exportedValues, lazyChunks, planChunks } from '../../dev/build/lazy-chunks';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/lazy');
const options = { bundle: true, platform: 'neutral' as const, logLevel: 'silent' as const };

async function bundle(entry: string, chunks: Record<string, string[]>) {
  const { plugin, sources } = await lazyChunks(fixtures, join(fixtures, entry), options, chunks, 'chunk-file.ts');
  const out = await build({ ...options, entryPoints: [join(fixtures, entry)], format: 'iife', globalName: 'Lib', plugins: [plugin], write: false });
  return { code: out.outputFiles[0].text, sources };
}

/** A fresh context that counts what is compiled with `Function`, with the chunks' files beside the code. */
function load(code: string, sources: Record<string, string>) {
  const compiled: number[] = [];
  const projectFiles = Object.fromEntries(Object.entries(sources).map(([name, text]) => [`chunk-${name}.html`, text]));
  const context = vm.createContext({ record: (n: number) => compiled.push(n), projectFiles });
  vm.runInContext(
    'globalThis.Function = new Proxy(Function, { construct: (t, args, nt) => { record(String(args[args.length - 1]).length); return Reflect.construct(t, args, nt); } });',
    context,
  );
  vm.runInContext(code, context);
  const lib = vm.runInContext('Lib', context) as { light(n: number): number; total(n: number): number; isSharedCounter(): boolean };
  return { lib, compiled };
}

describe('lazy chunks', () => {
  it('keep a root and what only it reaches in its own file, compiled once, on the first call of one of its functions', async () => {
    const { code, sources } = await bundle('main.ts', { heavy: ['heavy.ts'] });
    expect(sources.heavy).toContain('only-in-the-chunk');
    // The helper is only in the chunk's file, not in the code every execution parses.
    expect(code).not.toContain('only-in-the-chunk');
    const { lib, compiled } = load(code, sources);
    expect(lib.light(2)).toBe(20);
    expect(compiled).toEqual([]);
    expect(lib.total(3)).toBe('only-in-the-chunk'.length + 3 + 30);
    expect(lib.total(4)).toBe('only-in-the-chunk'.length + 4 + 40);
    expect(compiled).toEqual([sources.heavy.length]);
  });

  it('share the eager modules with the chunk: one class, not a copy', async () => {
    const { code, sources } = await bundle('main.ts', { heavy: ['heavy.ts'] });
    expect(sources.heavy).not.toMatch(/class\s/);
    expect(load(code, sources).lib.isSharedCounter()).toBe(true);
  });

  it('hand a chunk an eager constant set after the loader ran (its module imports another chunk’s root)', async () => {
    const { code, sources } = await bundle('late-main.ts', { heavy: ['heavy.ts'], late: ['late-root.ts'] });
    const { lib, compiled } = load(code, sources);
    expect(lib.total(1)).toBe(2);
    expect(compiled).toHaveLength(1);
    expect(lib.light(2)).toBe('only-in-the-chunk'.length + 2 + 20);
  });

  it('refuse at build time a constant imported across the boundary', async () => {
    await expect(bundle('wants-constant.ts', { heavy: ['heavy.ts'] })).rejects.toThrow(
      /No matching export in "lazy-stub:heavy.ts" for import "HEAVY_CONSTANT"/,
    );
  });

  it('refuse a root the bundle does not contain', async () => {
    await expect(bundle('main.ts', { heavy: ['missing.ts'] })).rejects.toThrow('build: lazy chunk "heavy" names missing.ts, which the bundle does not contain');
  });
});

describe('planning the chunks', () => {
  /** A metafile with only what the plan reads: each input's static imports. */
  const graph = (edges: Record<string, string[]>): Metafile => ({
    inputs: Object.fromEntries(
      Object.entries(edges).map(([p, to]) => [p, { bytes: 1, imports: to.map((path) => ({ path, kind: 'import-statement' as const, original: path })) }]),
    ),
    outputs: {},
  });

  /** Two chunks that both reach `both`, which imports `deep`. */
  const twoChunks: Record<string, string[]> = {
    main: ['a', 'b', 'util'],
    a: ['a-only', 'both'],
    b: ['b-only', 'both'],
    'a-only': [],
    'b-only': [],
    both: ['deep'],
    deep: [],
    util: [],
  };

  it('gives a chunk what only its roots reach; a module two chunks reach stays eager, with what it imports', () => {
    const plan = planChunks(graph(twoChunks), 'main', { A: ['a'], B: ['b'] });
    expect([...plan.eager].sort()).toEqual(['both', 'deep', 'main', 'util']);
    expect(Object.fromEntries(plan.owner)).toEqual({ a: 'A', 'a-only': 'A', b: 'B', 'b-only': 'B' });
  });

  it('refuses to copy a module that keeps state at its top level, or whose class something tells apart with instanceof', () => {
    const sources = new Map([
      ['src/a.ts', 'if (x instanceof Budget) y();'],
      ['src/b.ts', 'const ok = x instanceof BudgetLike;'],
    ]);
    expect(copiedModuleProblems('src/m.ts', 'export const A = 1;\nexport function f() { let n = 0; return n; }\nexport class Budget {}', new Map())).toEqual(
      [],
    );
    expect(copiedModuleProblems('src/m.ts', 'export class Budget {}\nexport class Tallies {}', sources)).toEqual([
      'src/a.ts tells Budget of src/m.ts apart with instanceof',
    ]);
    expect(copiedModuleProblems('src/m.ts', 'let calls = 0;\nexport const f = () => calls++;', new Map())).toEqual([
      'src/m.ts keeps state at its top level (calls)',
    ]);
    expect(copiedModuleProblems('src/m.ts', 'export var seen = new Set();', new Map())).toEqual(['src/m.ts keeps state at its top level (seen)']);
  });

  it('copies a module listed as copied into each chunk that reaches it; what it imports from both stays eager', () => {
    const edges = { ...twoChunks, util: ['shared-copy'], 'shared-copy': [] };
    const plan = planChunks(graph(edges), 'main', { A: ['a'], B: ['b'] }, [], ['both', 'shared-copy']);
    expect([...plan.eager].sort()).toEqual(['deep', 'main', 'shared-copy', 'util']);
    expect(Object.fromEntries([...plan.copies].map(([p, into]) => [p, [...into].sort()]))).toEqual({ both: ['A', 'B'] });
    expect(plan.owner.has('both')).toBe(false);
    expect(Object.fromEntries(plan.owner)).toEqual({ a: 'A', 'a-only': 'A', b: 'B', 'b-only': 'B' });
  });

  it('refuses to copy a module the bundle does not hold, or a chunk’s root', () => {
    const edges = graph({ main: ['a'], a: [] });
    expect(() => planChunks(edges, 'main', { A: ['a'] }, [], ['missing'])).toThrow('build: missing, to be copied');
    expect(() => planChunks(edges, 'main', { A: ['a'] }, [], ['a'])).toThrow('build: a, to be copied');
  });

  it('lets one chunk call another through its root, never taking it in', () => {
    const plan = planChunks(graph({ main: ['a'], a: ['b'], b: ['b-only'], 'b-only': [] }), 'main', { A: ['a'], B: ['b'] });
    expect(Object.fromEntries(plan.owner)).toEqual({ a: 'A', b: 'B', 'b-only': 'B' });
    expect([...plan.eager]).toEqual(['main']);
  });
});

describe('reading exports from source', () => {
  const source = [
    'export function one() {}',
    'export async function two() {}',
    'export const THREE = 3;',
    'export class Four {}',
    'export interface Five {}',
    'export type Six = string;',
    'const seven = 7;',
    'export { seven, type Five as Eight };',
    '  export function indented() {}',
  ].join('\n');

  it('finds the functions a stub can forward', () => {
    expect(exportedFunctions(source)).toEqual(['one', 'two']);
  });

  it('finds every exported value, never a type', () => {
    expect(exportedValues(source)).toEqual(['one', 'two', 'THREE', 'Four', 'seven']);
  });
});
