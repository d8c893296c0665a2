/**
 * An open child sheet (Clientes · Telefones) laid out by an earlier run, in a
 * later run that brings it nothing: its columns are found again from the
 * header notes (after Empresa and the connection in a consolidated sheet), so
 * the orphans it settles are told apart from the user's own cells beside them
 * and the header it unmarks keeps every column, a label the user cleared
 * given back its field's name.
 */
import { describe, expect, it } from 'vitest';
import type { CompanySpec, ImportState } from '../../src/core/import-job';
import { PARTIAL_MARK } from '../../src/core/sheet-names';
import type { MemorySheet } from '../bulk/memory-book';
import { column, world as document, withPhones as phoned } from './import-ijc-world';

const withPhones = (from: number, n: number) => phoned(from, n, (id) => [{ numero: `11${id}`, tipo: 'celular' }]);
/** The same customers with the phone's keys in the other order. */
const reordered = (from: number, n: number) => phoned(from, n, (id) => [{ tipo: 'fixo', numero: `22${id}` }]);

const STALE_NOTE = /^Este item não veio na última atualização do registro\./;

/** Runs of the Clientes report into one document: one company, or consolidated (every key a company). */
function world(data: Record<string, Array<Record<string, unknown>>>, consolidated: boolean) {
  const w = document(data);
  const companies: CompanySpec[] = Object.keys(data).map((id) => ({ id, name: `Empresa ${id}`, filters: {}, mode: 'replace' }));
  const run = (): ImportState => {
    const state = w.run(consolidated ? { companies } : {});
    expect(state.status).toBe('done');
    return state;
  };
  return { service: w.service, run, phones: () => w.child('telefones'), report: w.sheet };
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

describe('an open child sheet, more cases', () => {
  it('a full refresh that leaves a single customer keeps its items', () => {
    const w = world({ a: withPhones(1, 3) }, false);
    w.run();
    w.service.companies.a = withPhones(2, 1);
    const state = w.run();
    expect(column(w.report(), 'ID do cliente')).toEqual([2]);
    expect(column(w.phones(), 'ID do cliente')).toEqual([2]);
    expect(state.children.telefones.rows).toBe(1);
  });

  it('a child sheet the user cleared whole is laid out again by the next run', () => {
    const w = world({ a: withPhones(1, 2) }, false);
    w.run();
    const sheet = w.phones();
    sheet.grid = [];
    sheet.notes = [];
    w.service.companies.a = [];
    expect(w.run().status).toBe('done');
    w.service.companies.a = withPhones(1, 1);
    w.run();
    expect(header(sheet)).toHaveLength(3);
    expect(column(sheet, 'ID do cliente')).toEqual([1]);
  });

  it('a column an earlier run laid out that this run brings no value for is still written as text', () => {
    const w = world({ a: withPhones(1, 2) }, false);
    w.run();
    const sheet = w.phones();
    w.service.companies.a = phoned(1, 2, (id) => [{ numero: `33${id}` }]);
    w.run();
    expect(header(sheet)).toHaveLength(3);
    expect(sheet.formats.get('2:3')).toBe('@');
    expect(sheet.formats.get('3:3')).toBe('@');
  });
});
