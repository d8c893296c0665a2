/**
 * The attacks on the hidden sheet, generalized: an owner's stored work of
 * every kind (two scheduled reports, an unfinished pull, an unfinished bulk
 * run, an edit snapshot, a dashboard) in a document shared with a second
 * editor who has a schedule of their own. Between the owners' hourly runs,
 * someone edits random cells of the hidden sheet by hand: any field of any
 * item (a number, a text, a field removed, the whole value put back as it was
 * an hour before), or a key. Then the two editors' triggers fire in random
 * orders, with and without the document. Checked against the sandbox's own
 * request log and the emulator's sheets and outbox: no request and no sheet
 * write is decided by a forged item, every forged item is kept as it was
 * left, and its owner is told once in Histórico and by e-mail.
 * Fixed seed; FC_SEED overrides it (FC_SEED=random explores).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { catalog, type Rec } from '../core/bulk/fixtures';
import { emulator, importAll, ok, SP, subscriptionSheet } from './helpers';

const ANA = 'contador@example.com.br';
const BRUNO = 'bruno@escritorio.com.br';
const WORK_SHEET = 'Faturamento · dados';
const SIZE = { faturas: 3_000, clientes: 20, cobrancas: 10, transacoes: 5, assinaturas: 6 };

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 31, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});

type Edit =
  | { kind: 'field'; row: number; path: number; to: number | string | boolean | null | 'remove' }
  | { kind: 'replay'; row: number }
  | { kind: 'text'; row: number; text: string }
  | { kind: 'key'; row: number; text: string };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('field' as const),
      row: fc.nat(60),
      path: fc.nat(400),
      to: fc.oneof(
        fc.integer({ min: -5, max: 2_000_000_000_000 }),
        fc.string({ maxLength: 6 }),
        fc.boolean(),
        fc.constant(null),
        fc.constant('remove' as const),
      ),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('replay' as const), row: fc.nat(60) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('text' as const), row: fc.nat(60), text: fc.string({ maxLength: 8 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('key' as const), row: fc.nat(60), text: fc.string({ minLength: 1, maxLength: 8 }) }) },
);
const firing = fc.record({ brunoFirst: fc.boolean(), documentContext: fc.boolean() });

function grid(emu: GasEmulator): string[][] {
  return (emu.values(WORK_SHEET) as unknown[][]).map((r) => [String(r[0]), String(r[1])]);
}

/** Every leaf of a JSON value, as a path of keys. */
function leaves(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object') return [path];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return entries.length === 0 ? [path] : entries.flatMap(([k, v]) => leaves(v, [...path, k]));
}

function setAt(root: unknown, path: Array<string | number>, to: unknown): unknown {
  if (path.length === 0) return to === 'remove' ? {} : to;
  const [head, ...rest] = path;
  const copy: any = Array.isArray(root) ? [...root] : { ...(root as object) };
  if (rest.length === 0 && to === 'remove') delete copy[head];
  else copy[head] = setAt(copy[head], rest, to);
  return copy;
}

/** The new text of a cell, or null when the edit would leave it as it is. */
function forge(e: Edit, key: string, value: string, before: Map<string, string>): { column: 1 | 2; text: string } | null {
  if (e.kind === 'key') return `${key}${e.text}` === key ? null : { column: 1, text: `${key}${e.text}` };
  if (e.kind === 'text') return { column: 2, text: e.text };
  if (e.kind === 'replay') {
    const old = before.get(key);
    return old !== undefined && old !== value ? { column: 2, text: old } : null;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return null;
  }
  const all = leaves(parsed);
  const text = JSON.stringify(setAt(parsed, all[e.path % all.length], e.to));
  return text === value ? null : { column: 2, text };
}

/** The item a key of the hidden sheet belongs to. */
const itemOf = (key: string) => key.replace(/#.*$/, '');

describe('forged edits of the hidden sheet', () => {
  it('never decide a request or a sheet write, are kept, and are told to their owner once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 3 }), fc.array(firing, { minLength: 2, maxLength: 3 }), async (edits, firings) => {
        await sb.reset({ size: SIZE });
        const cat = await catalog(sb);
        const emu = emulator();
        for (const [user, org] of [
          [ANA, 0],
          [BRUNO, 1],
        ] as const)
          ok(emu.run('saveConnection', [{ name: 'Demo', baseUrl: sb.baseUrl, apiKey: sb.orgs[org].apiKey, isDefault: true }], { user }));
        // Bruno's own schedule: his trigger fires too, in either order.
        importAll(emu, { listing: 'transacoes', sheetName: 'Transações', name: 'Transações' }, { user: BRUNO });
        const hisReport = (emu.run('listReports', [], { user: BRUNO }) as Rec[])[0].id;
        ok(emu.run('setReportSchedule', [hisReport, { kind: 'hourly' }, false], { user: BRUNO }));
        // Ana's work of every kind.
        importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes' });
        importAll(emu, { listing: 'cobrancas', sheetName: 'Cobranças', name: 'Cobranças' });
        importAll(emu, { listing: 'assinaturas', sheetName: 'Assinaturas', name: 'Assinaturas' });
        const reports = emu.run('listReports') as Rec[];
        const idOf = (name: string) => reports.find((r) => r.name === name)!.id as string;
        for (const name of ['Clientes', 'Cobranças']) ok(emu.run('setReportSchedule', [idOf(name), { kind: 'hourly' }, true]));
        ok(emu.run('createDashboard', [{ kind: 'vencimentos', reportId: idOf('Cobranças') }]));
        const pull = ok(emu.run('startImportRun', [{ connection: 'Demo', listing: 'faturas', sheetName: 'Faturas', filters: {}, name: 'Faturas' }]));
        const bulkSheet = subscriptionSheet(emu, cat, 6, 'Prop');
        ok(
          emu.run(
            'startBulkRun',
            [{ operation: 'criarAssinaturaPersonalizada', sheetName: bulkSheet, connection: 'Demo', scope: 'all', batchSize: 2, stepSeconds: 5 }],
            { costs: { urlFetchCallMs: 3000 } },
          ),
        );
        // A sheet no item names: nothing may ever write it.
        emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().insertSheet('Notas').getRange(1, 1).setValue('minhas notas'));
        const before = new Map(grid(emu).map(([k, v]) => [k, v]));
        // An hour of the owners' own runs: items move on, so an hour-old copy can be put back.
        emu.runDueTriggers(SP('2026-11-22T11:00:00'));

        // Someone edits the hidden sheet by hand.
        const forged = new Map<number, [string, string]>();
        for (const e of edits) {
          const rows = grid(emu);
          // Any cell of the owner's items (Bruno's report and the sheet's title row aside).
          const candidates = rows.map((_, i) => i).filter((i) => rows[i][0].startsWith('faturamento.') && rows[i][0] !== `faturamento.relatorio.${hisReport}`);
          const row = candidates[e.row % candidates.length];
          const [key, value] = rows[row];
          const change = forge(e, key, value, before);
          if (!change) continue;
          emu.withServices((s) =>
            s.SpreadsheetApp.getActiveSpreadsheet()
              .getSheetByName(WORK_SHEET)!
              .getRange(row + 1, change.column)
              .setValue(change.text),
          );
          forged.set(row, [key, change.text]);
        }
        const items = new Set([...forged.values()].map(([key]) => itemOf(key)));
        const sheetsBefore = new Map(['Clientes', 'Cobranças', 'Faturas', bulkSheet, 'Notas'].map((n) => [n, JSON.stringify(emu.values(n))]));
        const dashboardSheet = ((emu.run('getDashboards') as Rec).dashboards as Rec[])[0]?.sheetName as string | undefined;
        if (dashboardSheet) sheetsBefore.set(dashboardSheet, JSON.stringify(emu.values(dashboardSheet)));
        const rowsAfterForgery = grid(emu);
        await sb.clearLog();
        emu.mail.length = 0;

        firings.forEach((f, i) => {
          const hour = SP(`2026-11-22T${12 + i}:00:00`).getTime();
          const order = f.brunoFirst ? [BRUNO, ANA] : [ANA, BRUNO];
          order.forEach((user, n) => {
            const t = emu.triggers.triggers.find((x) => x.owner === user);
            if (t) t.nextRun = hour + (10 + n * 20) * 60_000;
          });
          emu.runDueTriggers(new Date(hour + 59 * 60_000), { documentContext: f.documentContext });
        });

        const log = await sb.requestLog();
        const ana = log.filter((e) => e.org === sb.orgs[0].name);
        const forgedKind = (prefix: string) => [...items].some((k) => k.startsWith(prefix));
        const reportForged = (name: string) => items.has(`faturamento.relatorio.${idOf(name)}`);
        // No request decided by a forged item.
        if (reportForged('Clientes')) expect(ana.filter((e) => e.path === '/v2/clientes')).toEqual([]);
        if (reportForged('Cobranças')) expect(ana.filter((e) => e.path === '/v2/financeiro/cobrancas')).toEqual([]);
        if (items.has(`faturamento.relatorio.${pull.reportId}`) || items.has(`faturamento.job.${pull.reportId}`))
          expect(ana.filter((e) => /faturas/.test(e.path))).toEqual([]);
        if (forgedKind('faturamento.lote.')) expect(ana.filter((e) => e.method !== 'GET')).toEqual([]);
        // Bruno's key did only his own schedule's work.
        expect(log.filter((e) => e.org === sb.orgs[1].name).every((e) => e.path === '/v2/financeiro/transacoes')).toBe(true);
        // No sheet write decided by a forged item: the sheets of forged items, and a sheet no item names, are as they were.
        expect(JSON.stringify(emu.values('Notas'))).toBe(sheetsBefore.get('Notas'));
        if (reportForged('Clientes')) expect(JSON.stringify(emu.values('Clientes'))).toBe(sheetsBefore.get('Clientes'));
        if (reportForged('Cobranças')) expect(JSON.stringify(emu.values('Cobranças'))).toBe(sheetsBefore.get('Cobranças'));
        if (forgedKind('faturamento.lote.')) expect(JSON.stringify(emu.values(bulkSheet))).toBe(sheetsBefore.get(bulkSheet));
        if (forgedKind('faturamento.painel.') && dashboardSheet) expect(JSON.stringify(emu.values(dashboardSheet))).toBe(sheetsBefore.get(dashboardSheet));
        // Nothing lost: each forged row is still there, as it was left.
        const after = grid(emu);
        for (const [row, [key]] of forged) expect(after[row], key).toEqual(rowsAfterForgery[row]);
        // The owner told, once per forged item that still names them, by their own run; Bruno told nothing.
        const notices = emu.mail.filter((m) => /alterad/.test(m.subject));
        expect(notices.every((m) => m.to === ANA && m.user === ANA)).toBe(true);
        expect(new Set(notices.map((m) => m.subject)).size).toBe(notices.length);
        const told = (emu.values('Histórico') as unknown[][]).filter((r) => /alterad[oa] fora do complemento/.test(String(r[6])));
        expect(told.length).toBe(notices.length);
        const namesAna = (key: string) => {
          const cell = after.find(([k]) => k === key)?.[1];
          try {
            return (JSON.parse(cell ?? '') as Rec).owner?.id !== undefined && JSON.parse(cell ?? '').owner.email === ANA;
          } catch {
            return false;
          }
        };
        const reportsForged = [...items].filter((k) => k.startsWith('faturamento.relatorio.') && !k.endsWith('#') && namesAna(k));
        expect(notices.length).toBeGreaterThanOrEqual(reportsForged.length);
      }),
      { numRuns: 5 },
    );
  }, 600_000);
});
