/**
 * What a consolidated pull does differently, through the one interface its
 * writer, settling and stepper ask: rows keyed by connection and id (two
 * companies' record 17 are two rows, on the report sheet and in child sheets),
 * Empresa and the connection first everywhere, companies the report no longer
 * names leaving the sheet, companies refreshed incrementally or failed keeping
 * their rows, renamed connections renamed on every sheet, a partial run
 * leaving every sheet marked, and what failed said company by company.
 */
import { describe, expect, it } from 'vitest';
import { childKeys, parentKey } from '../../../src/core/sheets/child-sheet';
import { failureText } from '../../../src/core/pull/consolidated';
import type { CompanySpec, ImportState } from '../../../src/core/pull/state';
import { Writer } from '../../../src/core/pull/writer';
import { resolveCompanies } from '../../../src/core/runs/plan-pull';
import { PARTIAL_MARK } from '../../../src/core/sheets/sheet-names';
import type { MemorySheet } from '../bulk/memory-book';
import { customers, refused } from '../fake-service';
import type { StrictSheet } from './strict-book';
import { company, world as document, finish, HOUR, pulling, started, T0, withPhones as phoned } from './world';

/** Rows by header label, whatever mark the first header carries while the run is not done. */
function rowsOf(sheet: StrictSheet): Array<Record<string, unknown>> {
  const header = sheet.header().map((h) => h.replace(PARTIAL_MARK, ''));
  return sheet.grid.slice(1, sheet.lastRow()).map((row) => Object.fromEntries(header.map((h, i) => [h, row?.[i] ?? ''])));
}

describe('what failed', () => {
  it('names each failed company and why, bounded', () => {
    const text = failureText([{ name: 'Empresa C', message: 'Chave recusada (401).' }]);
    expect(text).toMatch(/^Uma empresa falhou — "Empresa C": Chave recusada \(401\)\. As linhas/);
    expect(text).toMatch(/valores da última atualização boa/);
    const long = failureText(Array.from({ length: 20 }, (_, i) => ({ name: `E${i}`, message: 'x'.repeat(1000) })));
    expect(long.length).toBeLessThanOrEqual(1500);
    expect(long).toMatch(/^20 empresas falharam/);
  });

  it('joins several companies, trims only trailing dots, and says "falhou" when there is no message', () => {
    expect(failureText([{ name: 'A', message: 'Versão 2.1 recusada...' }, { name: 'B' }])).toBe(
      '2 empresas falharam — "A": Versão 2.1 recusada; "B": falhou. As linhas dessas empresas ficaram com os valores da última atualização boa, e a aba ficou marcada como incompleta.',
    );
  });
});

describe('the companies of a run', () => {
  const own = [
    { id: 'a', name: 'Empresa A' },
    { id: 'b', name: 'Empresa B' },
  ];
  it('"todas" is the owner\'s connections at the run; chosen ones by id, names as they are now', () => {
    expect(resolveCompanies({ all: true, ids: [] }, own)).toEqual(own);
    expect(resolveCompanies({ all: false, ids: ['b', 'b'] }, [{ id: 'b', name: 'Renomeada' }])).toEqual([{ id: 'b', name: 'Renomeada' }]);
  });
  it('a chosen connection the owner no longer has stays, to fail alone', () => {
    expect(resolveCompanies({ all: false, ids: ['a', 'z'] }, own)).toEqual([own[0], { id: 'z', name: 'conexão z (não existe mais)' }]);
  });
});

describe('child keys in a consolidated sheet', () => {
  it("two companies' record 17 are different parents", () => {
    const rows = [
      ['Empresa A', 'a', 17, 1],
      ['Empresa B', 'b', 17, 1],
      ['Empresa A', 'a', 17, 2],
    ];
    expect(rows.map((r) => parentKey(r, 2))).toEqual(['a|17', 'b|17', 'a|17']);
    expect(childKeys(rows, 3, 2)).toEqual(['a|17#1', 'b|17#1', 'a|17#2']);
    expect(childKeys(rows, null, 2)).toEqual(['a|17@1', 'b|17@1', 'a|17@2']);
    expect(parentKey(['Empresa A', 'a', '', 1], 2)).toBe('');
    expect(parentKey([17, 1])).toBe('17');
  });
});

describe('a consolidated sheet', () => {
  const companies: CompanySpec[] = [
    { id: 'k1', name: 'Alfa', filters: {}, mode: 'replace' },
    { id: 'k2', name: 'Beta', filters: {}, mode: 'replace' },
  ];

  function consolidated() {
    const pull = pulling([], { companies });
    return { ...pull, writer: new Writer(pull.state, pull.deps) };
  }

  it("two companies' record of the same id are two rows, each with its company and connection first", () => {
    const c = consolidated();
    c.writer.write(customers(1, 2), companies[0]);
    c.writer.write(customers(2, 2, 'Beta'), companies[1]);
    c.writer.write(customers(2, 1, 'Alfa novo'), companies[0]);
    const sheet = c.sheet();
    expect(rowsOf(sheet).map((r) => [r.Empresa, r['ID da conexão'], r['ID do cliente'], r['Razão social']])).toEqual([
      ['Alfa', 'k1', 1, 'Cliente 1'],
      ['Alfa', 'k1', 2, 'Alfa novo 2'],
      ['Beta', 'k2', 2, 'Beta 2'],
      ['Beta', 'k2', 3, 'Beta 3'],
    ]);
    expect(c.state.rows).toBe(5);
  });

  it('a second writer over the sheet finds the rows by connection and id, reading no row below the grid', () => {
    const c = consolidated();
    c.writer.write(customers(1, 2), companies[0]);
    c.writer.write(customers(1, 2), companies[1]);
    c.sheet().size.rows = 5;
    new Writer(c.state, c.deps).write(customers(2, 1, 'Beta novo'), companies[1]);
    expect(rowsOf(c.sheet()).map((r) => `${r['ID da conexão']}:${r['ID do cliente']}:${r['Razão social']}`)).toEqual([
      'k1:1:Cliente 1',
      'k1:2:Cliente 2',
      'k2:1:Cliente 1',
      'k2:2:Beta novo 2',
    ]);
  });

  it('a record of a company that came without its id is added, never written over a row of that company without an id', () => {
    const c = consolidated();
    c.writer.write(customers(1, 1), companies[0]);
    const sheet = c.sheet();
    const at = (key: string) => (sheet.columns.get(key) as number) - 1;
    sheet.write(3, 1, [['Alfa', 'k1']]);
    sheet.write(3, at('razaoSocial') + 1, [['linha sem id']]);
    new Writer(c.state, c.deps).write([{ idCliente: '', razaoSocial: 'Sem id' }], companies[0]);
    expect(rowsOf(sheet).map((r) => r['Razão social'])).toEqual(['Cliente 1', 'linha sem id', 'Sem id']);
  });

  it('child sheets start with Empresa and the connection, then the parent id', () => {
    const c = consolidated();
    c.writer.write(
      customers(1, 1).map((r) => ({ ...r, telefones: [{ numero: '11' }] })),
      companies[1],
    );
    const child = c.book.watched(c.state.children.telefones.sheetId);
    expect(child.header().slice(0, 4)).toEqual([`${PARTIAL_MARK}Empresa`, 'ID da conexão', 'ID do cliente', 'Número']);
    expect(child.grid[1].slice(0, 4)).toEqual(['Beta', 'k2', 1, '11']);
    expect(child.notes[0].slice(0, 3)).toEqual(['empresa', '$conexao', 'idCliente']);
  });
});

describe('a consolidated sheet refreshed in full', () => {
  const companies = [company('k1'), company('k2', 'merge')];

  function consolidated() {
    const first = started('clientes', { companies: [company('k1'), company('k2')] });
    first.writer.write(customers(1, 3), company('k1'));
    first.writer.write(customers(1, 3), company('k2'));
    finish(first);
    const run = started('clientes', { companies, sheetId: first.state.sheetId }, first.book, T0 + HOUR);
    const rows = () => {
      const [connection, id] = [first.sheet.at('ID da conexão'), first.sheet.at('ID do cliente')];
      return first.sheet.grid.slice(1, first.sheet.lastRow()).map((r) => `${r[connection - 1]}|${r[id - 1]}`);
    };
    return { first, run, rows };
  }

  it('keys rows by connection and id: the same id of two companies is two rows', () => {
    expect(consolidated().rows()).toEqual(['k1|1', 'k1|2', 'k1|3', 'k2|1', 'k2|2', 'k2|3']);
  });

  it('a company refreshed in full loses the rows that did not come; one refreshed incrementally keeps all of its', () => {
    const { run, rows } = consolidated();
    run.writer.write(customers(2, 1), company('k1'));
    finish(run);
    expect(rows()).toEqual(['k1|2', 'k2|1', 'k2|2', 'k2|3']);
  });

  it('a company that failed keeps its rows as they were', () => {
    const { run, rows } = consolidated();
    run.state.spec.companies = [company('k1'), company('k2')];
    run.writer.write(customers(3, 1), company('k1'));
    (run.state.companies ?? [])[1].status = 'failed';
    finish(run);
    expect(rows()).toEqual(['k1|3', 'k2|1', 'k2|2', 'k2|3']);
  });
});

/** Customers with two phones each. */
const twoPhones = (from: number, n: number) => phoned(from, n, (id) => [{ numero: `11${id}1` }, { numero: `11${id}2` }]);

/** Consolidated runs of the Clientes report into one sheet: `run(companies, mode)`. */
function companiesWorld(data: Record<string, Array<Record<string, unknown>>>) {
  const w = document(data);
  const run = (companies: CompanySpec[], mode: 'replace' | 'merge' = 'replace') => w.run({ companies, mode });
  return { ...w, run, phones: () => w.child('telefones') };
}

const named = (id: string, name = `Empresa ${id}`, mode: 'replace' | 'merge' = 'replace'): CompanySpec => company(id, mode, name);

/** Data rows as "Empresa|connection|id" (report sheet) by the header labels, whatever mark the first one carries. */
function keysOf(sheet: MemorySheet, id = 'ID do cliente'): string[] {
  const at = (label: string) => sheet.grid[0].findIndex((h) => String(h).endsWith(label));
  return sheet.grid.slice(1, sheet.lastRow()).map((r) => `${r[at('Empresa')]}|${r[at('ID da conexão')]}|${r[at(id)]}`);
}

/** A child sheet's rows as "Empresa|connection|parent id|phone". */
function phoneRows(sheet: MemorySheet): string[] {
  return sheet.grid.slice(1, sheet.lastRow()).map((r) => r.slice(0, 4).join('|'));
}

const marked = (sheet: MemorySheet) => String(sheet.grid[0][0]).startsWith(PARTIAL_MARK);

describe('a company the report no longer names', () => {
  it('leaves the sheet and its child sheet even when every company left is refreshed incrementally', () => {
    const w = companiesWorld({ a: twoPhones(1, 2), b: twoPhones(1, 2) });
    const first = w.run([named('a'), named('b')]);
    expect(first.status).toBe('done');
    expect(phoneRows(w.phones())).toHaveLength(8);

    // b is dropped from the report; a is refreshed incrementally and brings one new customer.
    w.service.companies.a = twoPhones(3, 1);
    const second = w.run([named('a', 'Empresa a', 'merge')], 'merge');
    expect(second.status).toBe('done');
    expect(keysOf(w.sheet())).toEqual(['Empresa a|a|1', 'Empresa a|a|2', 'Empresa a|a|3']);
    expect(phoneRows(w.phones())).toEqual([
      'Empresa a|a|1|1111',
      'Empresa a|a|1|1112',
      'Empresa a|a|2|1121',
      'Empresa a|a|2|1122',
      'Empresa a|a|3|1131',
      'Empresa a|a|3|1132',
    ]);
    expect(marked(w.sheet())).toBe(false);
    expect(marked(w.phones())).toBe(false);
  });

  it('an incremental run of the same companies leaves every row, its items and a row the user typed without a connection', () => {
    const w = companiesWorld({ a: twoPhones(1, 2), b: twoPhones(1, 2) });
    w.run([named('a'), named('b')]);
    const sheet = w.sheet();
    // A line the user typed below the data, in a column of their own.
    const width = sheet.lastColumn();
    sheet.type(7, width + 2, 'total conferido');
    // An item row whose customer is not on the report sheet (an orphan a full refresh would drop).
    const phones = w.phones();
    phones.grid[phones.lastRow()] = ['Empresa b', 'b', 99, '999'];

    Object.assign(w.service.companies, { a: [], b: [] });
    const before = sheet.written.length;
    const second = w.run([named('a', 'Empresa a', 'merge'), named('b', 'Empresa b', 'merge')], 'merge');
    expect(second.status).toBe('done');
    // Nothing came and no name changed: only the header is written (its row without a connection is not renamed).
    expect(sheet.written.slice(before).filter(([row]) => row > 1)).toEqual([]);
    expect(sheet.grid[6][width + 1]).toBe('total conferido');
    expect(sheet.notes[6]).toBeUndefined();
    expect(second.warnings.filter((x) => x.includes('linha(s)'))).toEqual([]);
    expect(phoneRows(phones)).toContain('Empresa b|b|99|999');
    expect(marked(sheet)).toBe(false);
  });
});

describe('an incremental run into a sheet with no rows', () => {
  it('the user having deleted every row of the report sheet, leaves the items on the child sheet alone', () => {
    const w = companiesWorld({ a: twoPhones(1, 2) });
    w.run([named('a')]);
    const sheet = w.sheet();
    sheet.grid = [sheet.grid[0]];
    Object.assign(w.service.companies, { a: [] });
    const second = w.run([named('a', 'Empresa a', 'merge')], 'merge');
    expect(second.status).toBe('done');
    expect(phoneRows(w.phones())).toHaveLength(4);
  });

  it('that brings nothing ends done, its header unmarked', () => {
    const w = companiesWorld({ a: [], b: [] });
    const state = w.run([named('a', 'Empresa a', 'merge'), named('b', 'Empresa b', 'merge')], 'merge');
    expect(state.status).toBe('done');
    expect(w.sheet().lastRow()).toBe(1);
    expect(marked(w.sheet())).toBe(false);
  });
});

describe('a full refresh of some companies while others are refreshed incrementally', () => {
  it('keeps the rows of an incremental company that did not come again, and drops those of a full one', () => {
    const w = companiesWorld({ a: twoPhones(1, 3), b: twoPhones(1, 3) });
    w.run([named('a'), named('b')]);
    // a: full refresh without customer 2; b: incremental, only customer 4 is new.
    Object.assign(w.service.companies, { a: twoPhones(1, 3).filter((c) => c.idCliente !== 2), b: twoPhones(4, 1) });
    const second = w.run([named('a'), named('b', 'Empresa b', 'merge')]);
    expect(second.status).toBe('done');
    expect(keysOf(w.sheet()).sort()).toEqual(['Empresa a|a|1', 'Empresa a|a|3', 'Empresa b|b|1', 'Empresa b|b|2', 'Empresa b|b|3', 'Empresa b|b|4']);
    expect(phoneRows(w.phones()).filter((r) => r.startsWith('Empresa a|a|2'))).toEqual([]);
    expect(phoneRows(w.phones()).filter((r) => r.startsWith('Empresa b'))).toHaveLength(8);
  });
});

describe('a connection renamed since the last run', () => {
  it('has its rows renamed on the report sheet and on the child sheet, even when it failed this run, and only those rows', () => {
    const w = companiesWorld({ a: twoPhones(1, 2), b: twoPhones(1, 2), c: twoPhones(1, 1) });
    w.run([named('a'), named('b'), named('c')]);
    // Interleave the companies' rows, as a user sorting by customer would.
    const sheet = w.sheet();
    const header = sheet.grid[0];
    const body = sheet.grid.slice(1, sheet.lastRow());
    const idAt = header.findIndex((h) => String(h).endsWith('ID do cliente'));
    sheet.grid = [header, ...body.sort((x, y) => Number(x[idAt]) - Number(y[idAt]) || String(x[1]).localeCompare(String(y[1])))];

    w.service.fault = ({ key }) => (key === 'b' ? refused(401) : undefined);
    const second = w.run([named('a'), named('b', 'Beta Ltda'), named('c')]);
    expect(second.status).toBe('done');
    expect(second.partial).toContain('"Beta Ltda"');
    expect(keysOf(sheet)).toEqual(['Empresa a|a|1', 'Beta Ltda|b|1', 'Empresa c|c|1', 'Empresa a|a|2', 'Beta Ltda|b|2']);
    const phones = phoneRows(w.phones());
    expect(phones.filter((r) => r.includes('|b|'))).toEqual(['Beta Ltda|b|1|1111', 'Beta Ltda|b|1|1112', 'Beta Ltda|b|2|1121', 'Beta Ltda|b|2|1122']);
    expect(phones.filter((r) => r.startsWith('Empresa b'))).toEqual([]);
  });
});

describe('a consolidated run that ends partial', () => {
  it('leaves the report sheet and its child sheet marked incomplete, the failed company keeping its rows and items', () => {
    const w = companiesWorld({ a: twoPhones(1, 2), b: twoPhones(1, 2) });
    w.run([named('a'), named('b')]);
    w.service.fault = ({ key }) => (key === 'b' ? refused(500, 'Erro interno') : undefined);
    const second = w.run([named('a'), named('b')]);
    expect(second.status).toBe('done');
    expect(second.partial).toMatch(/^Uma empresa falhou — "Empresa b": /);
    expect(marked(w.sheet())).toBe(true);
    expect(marked(w.phones())).toBe(true);
    expect(phoneRows(w.phones()).filter((r) => r.startsWith('Empresa b'))).toHaveLength(4);

    // The next run that succeeds lifts both marks.
    w.service.fault = () => undefined;
    const third = w.run([named('a'), named('b')]);
    expect(third.partial).toBeUndefined();
    expect(marked(w.sheet())).toBe(false);
    expect(marked(w.phones())).toBe(false);
  });
});

describe('a settling cut short by a kill', () => {
  it('goes on from the part it reached: the child sheet still loses the items of a company no longer named', () => {
    const w = companiesWorld({ a: twoPhones(1, 2), b: twoPhones(1, 2) });
    w.run([named('a'), named('b')]);
    const phones = w.phones();
    w.service.companies.a = [];
    // The execution is killed right after the sweep was saved.
    let killedAt: ImportState | undefined;
    w.deps.checkpoint = (s) => {
      if (!killedAt && s.settled?.includes('sweep')) {
        killedAt = structuredClone(s);
        throw new Error('execução encerrada');
      }
    };
    expect(() => w.run([named('a', 'Empresa a', 'merge')], 'merge')).toThrow('execução encerrada');
    expect(killedAt?.settled).toEqual(['sweep']);
    expect(keysOf(w.sheet())).toEqual(['Empresa a|a|1', 'Empresa a|a|2']);
    expect(phoneRows(phones).filter((r) => r.startsWith('Empresa b'))).toHaveLength(4);

    // The next execution resumes from what was saved.
    w.deps.checkpoint = undefined;
    const resumed = w.step(killedAt as ImportState);
    expect(resumed.status).toBe('done');
    expect(resumed.settled).toEqual(['sweep', 'child:telefones', 'marks']);
    expect(phoneRows(phones).filter((r) => r.startsWith('Empresa b'))).toEqual([]);
    expect(marked(w.sheet())).toBe(false);
  });
});

describe('a consolidated sheet of a single row', () => {
  it('a company no longer named that had one row leaves', () => {
    const w = companiesWorld({ a: [], b: twoPhones(1, 1) });
    w.run([named('a'), named('b')]);
    expect(keysOf(w.sheet())).toEqual(['Empresa b|b|1']);
    const second = w.run([named('a', 'Empresa a', 'merge')], 'merge');
    expect(second.status).toBe('done');
    expect(keysOf(w.sheet())).toEqual([]);
    expect(phoneRows(w.phones())).toEqual([]);
  });

  it('a renamed connection whose one row (and one item) this run could not refresh is renamed on both sheets', () => {
    const w = companiesWorld({ a: [], b: phoned(1, 1) });
    w.run([named('a'), named('b')]);
    w.service.fault = ({ key }) => (key === 'b' ? refused(500, 'Erro interno') : undefined);
    const second = w.run([named('a'), named('b', 'Beta Ltda')]);
    expect(second.partial).toMatch(/"Beta Ltda"/);
    expect(keysOf(w.sheet())).toEqual(['Beta Ltda|b|1']);
    expect(phoneRows(w.phones())).toEqual(['Beta Ltda|b|1|111']);
  });
});

describe('a consolidated sheet the user trimmed to its data', () => {
  it('is read no further than its last row: an incremental run and the renames settle within the grid', () => {
    const w = companiesWorld({ a: twoPhones(1, 2), b: twoPhones(1, 2) });
    w.run([named('a'), named('b')]);
    // The user deleted the empty rows below the data, on both sheets.
    w.sheet().size.rows = w.sheet().lastRow();
    w.phones().size.rows = w.phones().lastRow();
    Object.assign(w.service.companies, { a: [], b: [] });
    const second = w.run(
      [named('a', 'Alfa'), named('b', 'Empresa b', 'merge')].map((c) => ({ ...c, mode: 'merge' as const })),
      'merge',
    );
    expect(second.status).toBe('done');
    expect(keysOf(w.sheet())).toEqual(['Alfa|a|1', 'Alfa|a|2', 'Empresa b|b|1', 'Empresa b|b|2']);
    expect(phoneRows(w.phones()).filter((r) => r.startsWith('Alfa'))).toHaveLength(4);
  });
});
