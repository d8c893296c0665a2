/**
 * Every execution parses the bundle before it runs; what most executions never
 * run is kept in it as text (dev/build/lazy-chunks.ts) and compiled only by an
 * execution that calls into it. The emulator counts what each execution
 * compiles with `Function`, and Apps Script, like it, keeps nothing between
 * executions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../dev/sandbox/harness';
import { borrowSandbox } from '../../dev/sandbox/harness';
import { bundleParts } from '../../build';
import { connect, emulator, importAll } from './helpers';

let sb: SandboxHandle;
let chunks: Record<string, string>;

/**
 * Under mutation testing, Stryker's instrumentation compiles `return this` (11 characters) once per
 * instrumented module to find the global object: far less than the smallest chunk (5 KB).
 */
const INSTRUMENTATION = 1_000;
/** Which chunk an execution's compiled characters amount to: none, or exactly one of them. */
const loaded = (chars: number | undefined) =>
  chars !== undefined && chars < INSTRUMENTATION
    ? 'none'
    : // Two chunks may be within the instrumentation's margin of each other: the closest below wins.
      (Object.keys(chunks)
        .filter((n) => chars !== undefined && chars >= chunks[n].length && chars < chunks[n].length + INSTRUMENTATION)
        .sort((a, b) => chunks[b].length - chunks[a].length)[0] ?? `${chars} characters`);

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 5, size: 'small' });
  chunks = (await bundleParts()).chunks;
});
afterAll(async () => {
  await sb?.stop();
});

describe('the bundle’s lazy chunks in the emulator', () => {
  it('opening the document, the sidebars’ listings and a report’s run compile only what each needs, every execution anew', () => {
    const emu = emulator();
    const compiled = () => loaded(emu.history.at(-1)?.counters.compiledChars);
    expect(loaded(emu.open('LIMITED').counters.compiledChars)).toBe('none');
    connect(emu, sb);
    expect(compiled()).toBe('none');
    const before = emu.history.length;
    importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes' });
    const steps = emu.history.slice(before).map((r) => [r.functionName, loaded(r.counters.compiledChars)]);
    // Each step of the run is its own execution: each compiles the import code, and nothing else.
    expect(steps.length).toBeGreaterThan(1);
    expect(steps).toEqual(steps.map(([name]) => [name, 'import']));
    emu.run('listReports');
    expect(compiled()).toBe('none');
    emu.run('getImportForm');
    expect(compiled()).toBe('none');
    emu.run('getBulkForm');
    expect(compiled()).toBe('bulk');
    emu.run('getDashboards');
    expect(compiled()).toBe('dashboards');
  });
});
