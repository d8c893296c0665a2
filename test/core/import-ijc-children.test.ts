/**
 * An open child sheet (Clientes · Telefones) laid out by an earlier run, in a
 * later run that brings it nothing: its columns are found again from the
 * header notes (after Empresa and the connection in a consolidated sheet), so
 * the orphans it settles are told apart from the user's own cells beside them
 * and the header it unmarks keeps every column, a label the user cleared
 * given back its field's name.
 */
import { describe, expect, it } from 'vitest';
import { stepConsolidated } from '../../src/core/consolidated-job';
import { type CompanySpec, type ImportDeps, type ImportState, startImport, stepImport } from '../../src/core/import-job';
import { PARTIAL_MARK } from '../../src/core/sheet-names';
import type { MemorySheet } from '../bulk/memory-book';
import { customers, FakeService, zone } from './fake-service';
import { StrictBook } from './import-ijc-strict';

const T0 = Date.UTC(2026, 10, 22, 15);
const HOUR = 3_600_000;

const withPhones = (from: number, n: number) => customers(from, n).map((c) => ({ ...c, telefones: [{ numero: `11${c.idCliente}`, tipo: 'celular' }] }));
/** The same customers with the phone's keys in the other order. */
const reordered = (from: number, n: number) => customers(from, n).map((c) => ({ ...c, telefones: [{ tipo: 'fixo', numero: `22${c.idCliente}` }] }));

const STALE_NOTE = /^Este item não veio na última atualização do registro\./;

/** Runs of the Clientes report into one document: one company (`companies` empty) or consolidated. */
function world(data: Record<string, Array<Record<string, unknown>>>, consolidated: boolean) {
  const service = new FakeService(data);
  const book = new StrictBook();
  let clock = T0;
  service.onTrip = () => {
    clock += 1_000;
  };
  const now = () => clock;
  const deps: ImportDeps = { client: service.client('a', now), clientFor: (id) => service.client(id, now), book, zone, now };
  const specs: CompanySpec[] = Object.keys(data).map((id) => ({ id, name: `Empresa ${id}`, filters: {}, mode: 'replace' }));
  let sheetId: number | undefined;
  const run = (): ImportState => {
    clock += HOUR;
    let state = startImport(
      { listing: 'clientes', filters: {}, sheetName: 'Clientes', sheetId, mode: 'replace', ...(consolidated ? { companies: specs } : {}) },
      deps,
    );
    sheetId = state.sheetId;
    const options = { deadline: clock + 600_000 };
    for (let i = 0; i < 10 && state.status === 'running'; i++) state = consolidated ? stepConsolidated(state, deps, options) : stepImport(state, deps, options);
    expect(state.status).toBe('done');
    return state;
  };
  const phones = () => book.sheets.find((s) => s.name().includes('Telefones')) as MemorySheet;
  const report = () => book.byId(sheetId as number) as MemorySheet;
  return { service, run, phones, report };
}

const header = (sheet: MemorySheet) => sheet.grid[0].slice(0, sheet.lastColumn()).map(String);

describe.each([
  ['one company', false, 0],
  ['a consolidated sheet', true, 2],
] as const)('an open child sheet in %s', (_, consolidated, lead) => {
  it('a run that brings no record: orphans go, one with the user’s cell beside it stays marked, every header column unmarked', () => {
    const w = world({ a: withPhones(1, 3) }, consolidated);
    w.run();
    const sheet = w.phones();
    const laidOut = header(sheet);
    expect(laidOut).toHaveLength(lead + 3);
    const width = laidOut.length;
    // The user's column to the right, a remark on the second customer's phone; the label of "tipo" cleared.
    sheet.write(1, width + 1, [['Observação']]);
    sheet.write(3, width + 1, [['ligar de manhã']]);
    sheet.write(1, width, [['']]);
    // The previous run was left incomplete (its sheets still marked).
    sheet.write(1, 1, [[`${PARTIAL_MARK}${laidOut[0]}`]]);

    w.service.companies.a = [];
    w.run();
    expect(w.report().lastRow()).toBe(1);
    expect(sheet.lastRow()).toBe(2);
    expect(sheet.grid[1][width]).toBe('ligar de manhã');
    expect(sheet.notes[1]?.[0]).toMatch(STALE_NOTE);
    expect(header(sheet)).toEqual([...laidOut.slice(0, -1), 'tipo', 'Observação']);
  });

  it('a later run keeps the columns laid out, in their order, whatever order the keys come in', () => {
    const w = world({ a: withPhones(1, 2) }, consolidated);
    w.run();
    const sheet = w.phones();
    const laidOut = header(sheet);
    w.service.companies.a = reordered(1, 2);
    const state = w.run();
    expect(header(sheet)).toEqual(laidOut);
    expect(state.children.telefones.columns?.map((c) => c.key)).toEqual(['idCliente', 'numero', 'tipo']);
    expect(sheet.grid.slice(1, 3).map((r) => r.slice(lead + 1, lead + 3))).toEqual([
      ['221', 'fixo'],
      ['222', 'fixo'],
    ]);
  });
});
