/**
 * Every execution parses the bundle before it runs; what most executions never
 * run is kept in files of the project (dev/build/lazy-chunks.ts), read and
 * compiled only by an execution that calls into it. The emulator counts what each execution
 * compiles with `Function`, and Apps Script, like it, keeps nothing between
 * executions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../dev/sandbox/harness';
import { borrowSandbox } from '../../dev/sandbox/harness';
import { bundleParts } from '../../build';
import type { Rec } from '../core/bulk/fixtures';
import { connect, emulator, importAll, SP } from './helpers';

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
    // A chunk's code is in its own file of the project: an execution that loads none reads none.
    const filesRead = () => emu.history.at(-1)?.counters.filesRead;
    expect(loaded(emu.open('LIMITED').counters.compiledChars)).toBe('none');
    expect(filesRead()).toBe(0);
    connect(emu, sb);
    expect(compiled()).toBe('none');
    expect(filesRead()).toBe(0);
    const before = emu.history.length;
    importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes' });
    const steps = emu.history.slice(before).map((r) => [r.functionName, loaded(r.counters.compiledChars)]);
    // Each step of the run is its own execution: each compiles the import code, and nothing else.
    expect(steps.length).toBeGreaterThan(1);
    expect(steps).toEqual(steps.map(([name]) => [name, 'import']));
    expect(emu.history.slice(before).map((r) => r.counters.filesRead)).toEqual(steps.map(() => 1));
    emu.run('listReports');
    expect(compiled()).toBe('none');
    expect(filesRead()).toBe(0);
    emu.run('getImportForm');
    expect(compiled()).toBe('none');
    expect(filesRead()).toBe(0);
    emu.run('getBulkForm');
    expect(compiled()).toBe('bulk');
    expect(filesRead()).toBe(1);
    emu.run('getDashboards');
    expect(compiled()).toBe('dashboards');
    expect(filesRead()).toBe(1);
  });

  it('the menu and an hourly run with nothing due compile nothing', () => {
    const emu = emulator();
    const compiled = () => loaded(emu.history.at(-1)?.counters.compiledChars);
    connect(emu, sb);
    expect(loaded(emu.open('FULL').counters.compiledChars)).toBe('none');
    const { reportId } = importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Diário' });
    expect((emu.run('setReportSchedule', [reportId, { kind: 'daily', hour: 7 }, false]) as Rec).ok).toBe(true);
    // Due at 7 the next morning: the trigger's runs until then, a few minutes into each hour, find nothing to do.
    const before = emu.history.length;
    for (let h = 11; h <= 30; h++) emu.runDueTriggers(SP(`2026-11-${h < 24 ? 22 : 23}T${String(h % 24).padStart(2, '0')}:05:00`));
    const runs = emu.history.slice(before).filter((r) => r.functionName === 'runScheduledReports');
    expect(runs.length).toBeGreaterThan(10);
    expect(runs.map((r) => loaded(r.counters.compiledChars))).toEqual(runs.map(() => 'none'));
    expect(runs.map((r) => r.counters.filesRead)).toEqual(runs.map(() => 0));
    expect((emu.run('listReports') as Rec[])[0].lastRun.origin).toBe('manual');
    // At 7 the report is due: that run compiles the import code.
    emu.runDueTriggers(SP('2026-11-23T07:05:00'));
    expect(emu.history.at(-1)?.functionName).toBe('runScheduledReports');
    expect(compiled()).toBe('import');
    expect(emu.history.at(-1)?.counters.filesRead).toBe(1);
    expect((emu.run('listReports') as Rec[])[0].lastRun.origin).toBe('agendado');
  });
});
