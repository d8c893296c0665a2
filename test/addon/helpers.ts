/** Shared set-up of end-to-end tests: the real bundle in the emulator, talking to the sandbox over HTTP. */
import { LOCAL_TEST_SERVERS } from '../../dev/gas/allow-list';
import { GasEmulator, type EmulatorOptions, type RunOptions } from '../../dev/gas/runner';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { borrowSandbox, type SandboxHandle, type StartSandboxOptions } from '../../dev/sandbox/harness';
import type { ResetOptions } from '../../dev/sandbox/types';
import type { Rec } from '../core/bulk/fixtures';

export const SP = (iso: string) => new Date(`${iso}-03:00`);

export function emulator(options: EmulatorOptions = {}): GasEmulator {
  return new GasEmulator({ startAt: SP('2026-11-22T10:00:00'), countRealTime: false, urlFetchWhitelist: LOCAL_TEST_SERVERS, ...options });
}

export interface Progress {
  reportId: string;
  status: 'running' | 'done' | 'cancelled' | 'failed';
  done: boolean;
  rows: number;
  pages: number;
  message?: string;
  warnings: string[];
  incremental: boolean;
  canContinue?: boolean;
}

export function connect(emu: GasEmulator, sb: SandboxHandle, name = 'Demo', org = 0): void {
  const r = emu.run('saveConnection', [{ name, baseUrl: sb.baseUrl, apiKey: sb.orgs[org].apiKey, isDefault: true }]) as { ok: boolean };
  if (!r.ok) throw new Error(`saveConnection failed: ${JSON.stringify(r)}`);
}

/** Starts an import as the sidebar does and steps it to the end. */
export function importAll(emu: GasEmulator, form: Record<string, unknown>, opts: RunOptions = {}): Progress {
  const started = emu.run('startImportRun', [{ connection: 'Demo', ...form }], opts) as { ok: boolean; value: Progress; message?: string; field?: string };
  if (!started.ok) throw new Error(`startImportRun refused: ${started.field}: ${started.message}`);
  return finishRun(emu, started.value.reportId, opts);
}

export function finishRun(emu: GasEmulator, reportId: string, opts: RunOptions = {}): Progress {
  let p: Progress;
  let guard = 0;
  do {
    p = emu.run('continueReportRun', [reportId], opts) as Progress;
    if (++guard > 500) throw new Error('run never finished');
  } while (!p.done);
  return p;
}

/** Header notes hold the field names: maps field → 0-based column. */
export function columnsOf(emu: GasEmulator, sheet: string): Record<string, number> {
  const notes = emu.withServices((s) => {
    const sh = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheet)!;
    return sh.getRange(1, 1, 1, sh.getLastColumn()).getNotes()[0];
  });
  // The key is the note's first line; what its codes mean follows.
  return Object.fromEntries(notes.map((n, i) => [String(n).split('\n')[0], i]));
}

/** The value of a sidebar call's `{ ok: true, value }`, or the refusal's message as an error. */
export function ok<T = Rec>(outcome: unknown): T {
  const out = outcome as { ok: boolean; value: T; message?: string };
  if (!out.ok) throw new Error(`refused: ${out.message}`);
  return out.value;
}

/** Types rows as a person would, from `firstRow`: strings parsed by the Planilhas unless the cell is text. */
export function typeRows(emu: GasEmulator, sheet: string, firstRow: number, rows: unknown[][], opts: RunOptions = {}): void {
  emu.withServices((s) => {
    s.SpreadsheetApp.getActiveSpreadsheet()
      .getSheetByName(sheet)!
      .getRange(firstRow, 1, rows.length, rows[0].length)
      .setValues(rows as never);
  }, opts);
}

/** A "Criar assinaturas personalizadas" template with `n` valid rows typed below its example: the sheet's name. */
export function subscriptionSheet(
  emu: GasEmulator,
  cat: { clientes: number[]; produtos: number[] },
  n: number,
  label: string,
  value = 50,
  opts: RunOptions = {},
): string {
  const sheet = ok(emu.run('createBulkTemplate', ['criarAssinaturaPersonalizada'], opts)).sheetName as string;
  const rows = Array.from({ length: n }, (_, i) => [
    '',
    cat.clientes[i % cat.clientes.length],
    '05/11/2026',
    '11/2026',
    'MENSAL',
    cat.produtos[0],
    `${label} ${i}`,
    value + i,
    'AGRUPADA',
    10,
  ]);
  typeRows(emu, sheet, 3, rows, opts);
  return sheet;
}

/** Steps a started bulk run as the sidebar does until it ends. */
export function bulkToEnd(emu: GasEmulator, started: Rec): Rec {
  let p = started;
  for (let i = 0; !p.done; i++) {
    if (i > 200) throw new Error('never finished');
    p = ok(emu.run('continueBulkRun', [p.jobId]));
  }
  return p;
}

/** Starts a bulk run on every row as the sidebar does and steps it until it ends. */
export function executeBulk(emu: GasEmulator, form: Rec): Rec {
  return bulkToEnd(emu, ok(emu.run('startBulkRun', [{ connection: 'Demo', scope: 'all', ...form }])));
}

/** A sheet's data rows as objects keyed by the header's titles. */
export function rowsByHeader(emu: GasEmulator, sheet: string): Rec[] {
  const [header, ...rows] = emu.values(sheet) as unknown[][];
  return rows.map((r) => Object.fromEntries((header as string[]).map((h, i) => [h, r[i]])));
}

/**
 * The sandbox a test file's tests share: borrowed before them and stopped after, and, when `reset` is given, its data
 * made again before each (`true`: as it started). Read it through the function returned, once the tests run.
 */
export function sharedSandbox(options: StartSandboxOptions, reset?: ResetOptions | true): () => SandboxHandle {
  let sb: SandboxHandle | undefined;
  beforeAll(async () => {
    sb = await borrowSandbox(options);
  });
  afterAll(async () => {
    await sb?.stop();
  });
  const started = (): SandboxHandle => {
    if (!sb) throw new Error('sharedSandbox: read before the tests started');
    return sb;
  };
  if (reset) beforeEach(() => started().reset(reset === true ? undefined : reset));
  return started;
}
