/**
 * The end of a full pull: rows whose record did not come deleted as whole
 * rows when nothing of the user's is beside them, kept with a note (and one
 * warning) when there is, a user's own row left alone, a record on two rows
 * keeping the first; and the settling (stale rows, each child sheet's orphans,
 * the marks) done part by part when the step that wrote the last page has
 * little time left, the first part at least in a step that did nothing else,
 * the sheets marked incomplete until the last part. A consolidated pull
 * settles the same way, its plan counting every company's rows.
 */
import { describe, expect, it } from 'vitest';
import { CALL_MS, CELL_READ_MS } from '../../../src/core/deadline';
import { type CompanySpec, FINISH_CALLS, type ImportState, SETTLING_GOES_ON as GOES_ON } from '../../../src/core/pull/state';
import { RESULT_NOTE } from '../../../src/core/sheets/sheet-layout';
import { PARTIAL_MARK } from '../../../src/core/sheets/sheet-names';
import { customers } from '../fake-service';
import { StrictBook, type StrictSheet } from './strict-book';
import { column, company, world as document, finish, HOUR, pullToEnd, type Records, settled, started, T0, withPhones } from './world';

const NOTE = 'Este registro não veio na atualização completa de 22/11/2026 13:00. A linha ficou porque tem anotações suas; apague-a quando não precisar mais.';
/^Este registro não veio na atualização completa de 22\/11\/2026 13:00:00?\. A linha ficou porque tem anotações suas; apague-a quando não precisar mais\.$/;
const kept = (n: number) =>
  `${n} linha(s) de registros que não vieram nesta atualização ficaram na aba porque têm anotações suas (veja a nota na coluna ID do cliente).`;
/** Column 45: the user's own, to the right of the 38 of Clientes. */
const OWN = 45;

/** A second, full run of the report over the sheet `first` left, bringing `records`. */
function refresh(first: ReturnType<typeof settled>, records: Array<Record<string, unknown>>) {
  const run = started('clientes', { sheetId: first.state.sheetId }, first.book, T0 + HOUR);
  run.writer.write(records);
  finish(run);
  return run;
}
const notes = (sheet: StrictSheet) =>
  sheet.notes.flatMap((row, r) => (row ?? []).flatMap((n, c) => (r > 0 && n ? [[r + 1, c + 1, n] as [number, number, string]] : [])));

describe('rows whose record did not come in a full refresh', () => {
  it('are deleted as whole rows when nothing of the user is beside them', () => {
    const first = settled('clientes', customers(1, 6));
    const { state } = refresh(
      first,
      customers(1, 6).filter((c) => c.idCliente !== 2 && c.idCliente !== 5),
    );
    expect(first.sheet.column('ID do cliente')).toEqual([1, 3, 4, 6]);
    expect(first.sheet.column('Razão social')).toEqual(['Cliente 1', 'Cliente 3', 'Cliente 4', 'Cliente 6']);
    expect(notes(first.sheet)).toEqual([]);
    expect(state.warnings).toEqual([]);
    expect(state.status).toBe('running');
  });

  it('a refresh that brings nothing leaves only the header, and one that brings one record, that row', () => {
    const first = settled('clientes', customers(1, 1));
    refresh(first, []);
    expect(first.sheet.lastRow()).toBe(1);
    refresh(first, []);
    expect(first.sheet.lastRow()).toBe(1);
    refresh(first, customers(7, 1));
    expect(first.sheet.column('ID do cliente')).toEqual([7]);
  });

  it('stay, with a note on their id and one warning, when the user wrote beside them; rows below deleted ones are noted where they moved', () => {
    const first = settled('clientes', customers(1, 8));
    // Customers 4 and 7 (rows 5 and 8) have the user's cells; 2, 3, 6 and 8 go without.
    first.sheet.type(5, OWN, 'cobrar');
    first.sheet.type(8, OWN, 'ligar');
    const { state } = refresh(
      first,
      customers(1, 8).filter((c) => [1, 5].includes(c.idCliente as number)),
    );
    expect(first.sheet.column('ID do cliente')).toEqual([1, 4, 5, 7]);
    expect(first.sheet.grid.slice(1, 5).map((r) => r[OWN - 1] ?? '')).toEqual(['', 'cobrar', '', 'ligar']);
    const id = first.sheet.at('ID do cliente');
    expect(notes(first.sheet).map(([row, column]) => [row, column])).toEqual([
      [3, id],
      [5, id],
    ]);
    expect(notes(first.sheet).map(([, , note]) => note)).toEqual([NOTE, NOTE]);
    expect(state.warnings).toEqual([kept(2)]);
  });

  it('a cell of the user in our own columns is not theirs to keep: the row goes', () => {
    const first = settled('clientes', customers(1, 3));
    first.sheet.type(3, first.sheet.at('E-mail'), 'eu@exemplo.com');
    refresh(first, customers(1, 1));
    expect(first.sheet.column('ID do cliente')).toEqual([1]);
  });

  it('a row kept for the user’s notes has a blank "Recebido em": it is not a record any more, until its record comes again', () => {
    const first = settled('clientes', customers(1, 3));
    first.sheet.type(3, OWN, 'cobrar');
    const received = () => first.sheet.column('Recebido em').map((v) => (v === '' ? '' : 'data'));
    refresh(first, customers(1, 1));
    expect(first.sheet.column('ID do cliente')).toEqual([1, 2]);
    expect(received()).toEqual(['data', '']);
    refresh(first, customers(1, 2));
    expect(received()).toEqual(['data', 'data']);
  });

  it('the results a bulk run wrote beside a record (Status do lote, ID da NFS-e…) are the add-on’s, not the user’s: the row goes with its record', () => {
    const first = settled('clientes', customers(1, 4));
    first.sheet.ensureSize(5, OWN + 2);
    first.sheet.setNotes(1, OWN, [`${RESULT_NOTE} Preenchido pelo complemento: OK, ERRO…`, `  ${RESULT_NOTE} idNotaFiscalServico`, 'minha coluna']);
    first.sheet.type(2, OWN, 'OK');
    first.sheet.type(3, OWN, 'ERRO');
    first.sheet.type(3, OWN + 1, 901);
    first.sheet.type(4, OWN + 1, 902);
    first.sheet.type(4, OWN + 2, 'ligar');
    const { state } = refresh(first, customers(1, 1));
    // Customer 2 had only results beside it; customer 3 had the user's own cell too.
    expect(first.sheet.column('ID do cliente')).toEqual([1, 3]);
    expect(first.sheet.grid[2][OWN + 1]).toBe('ligar');
    expect(state.warnings).toEqual([kept(1)]);
  });

  it("a row of the user's own, with nothing in our columns, is left alone", () => {
    const first = settled('clientes', customers(1, 3));
    // Right beside our last column (38).
    first.sheet.type(5, 39, 'Total');
    const { state } = refresh(first, customers(1, 3));
    expect(first.sheet.column('ID do cliente')).toEqual([1, 2, 3, '']);
    expect(first.sheet.grid[4][38]).toBe('Total');
    expect(notes(first.sheet)).toEqual([]);
    expect(state.warnings).toEqual([]);
  });

  it('a record on two rows keeps the first; a row of our columns without an id is not a record', () => {
    const first = settled('clientes', customers(1, 3));
    const sheet = first.sheet;
    // The user copied customer 2's row below, and typed a name in an empty row of ours.
    sheet.ensureSize(6, 38);
    sheet.write(5, 1, sheet.read(3, 1, 1, 38));
    sheet.type(6, sheet.at('Razão social'), 'Sem id');
    refresh(
      first,
      customers(1, 3).map((c) => ({ ...c, razaoSocial: `Novo ${c.idCliente}` })),
    );
    expect(sheet.column('ID do cliente')).toEqual([1, 2, 3]);
    expect(sheet.column('Razão social')).toEqual(['Novo 1', 'Novo 2', 'Novo 3']);
  });

  it('a row the user copied during the run is a record on two rows: the copy goes', () => {
    const first = settled('clientes', customers(1, 3));
    const run = started('clientes', { sheetId: first.state.sheetId }, first.book, T0 + HOUR);
    run.writer.write(customers(1, 3));
    first.sheet.ensureSize(5, 38);
    first.sheet.write(5, 1, first.sheet.read(2, 1, 1, 38));
    finish(run);
    expect(first.sheet.column('ID do cliente')).toEqual([1, 2, 3]);
  });

  it('a row this run wrote whose id the user then cleared is not a record any more', () => {
    const first = settled('clientes', customers(1, 3));
    const run = started('clientes', { sheetId: first.state.sheetId }, first.book, T0 + HOUR);
    run.writer.write(customers(1, 3));
    first.sheet.grid[2][first.sheet.at('ID do cliente') - 1] = '';
    finish(run);
    expect(first.sheet.column('ID do cliente')).toEqual([1, 3]);
  });

  it('"Recebido em" tells the current rows to the second, either side of the run\'s start; text there is not a date', () => {
    const first = settled('clientes', customers(1, 4));
    const run = started('clientes', { sheetId: first.state.sheetId }, first.book, T0 + HOUR);
    run.writer.write(customers(1, 4));
    const at = first.sheet.at('Recebido em') - 1;
    // Sheets keeps date-times to the second: what was written may come back a little off.
    first.sheet.grid[1][at] = new Date(T0 + HOUR + 999);
    first.sheet.grid[2][at] = new Date(T0 + HOUR - 999);
    first.sheet.grid[3][at] = new Date(T0 + HOUR + 1000);
    first.sheet.grid[4][at] = 'ontem';
    finish(run);
    expect(first.sheet.column('ID do cliente')).toEqual([1, 2]);
  });

  it('are read in blocks near them, never the whole sheet across', () => {
    const first = settled('clientes', customers(1, 60));
    first.sheet.type(2, OWN, 'nota');
    first.sheet.forget();
    refresh(
      first,
      customers(1, 60).filter((c) => c.idCliente !== 2 && c.idCliente !== 30 && c.idCliente !== 50),
    );
    const across = first.sheet.reads.filter(([, column, , columns]) => column === 1 && columns > 1);
    // Rows 3 and 31 (customers 2 and 30) are 28 apart: two reads; row 51 is 20 below 31: read with it.
    expect(across.map(([row, , rows]) => [row, rows])).toEqual([
      [3, 1],
      [31, 21],
    ]);
    expect(across.every(([, , , columns]) => columns === OWN)).toBe(true);
  });
});

describe('a full refresh after records left the service', () => {
  it("deletes the rows of records that did not come, keeps one with the user's cells with a note saying why, and says so", () => {
    const book = new StrictBook();
    const first = pullToEnd(book, customers(1, 5));
    const sheet = book.byId(first.sheetId) as StrictSheet;
    const idAt = sheet.grid[0].findIndex((h) => String(h).endsWith('ID do cliente'));
    const width = sheet.lastColumn();
    sheet.type(1, width + 1, 'Observação');
    // Customer 4's row (row 5): below a row that goes, so it moves up one.
    sheet.type(5, width + 1, 'cobrar em dezembro');

    const second = pullToEnd(
      book,
      customers(1, 5).filter((c) => c.idCliente === 1 || c.idCliente === 3),
      'replace',
      T0 + 3_600_000,
    );
    const ids = sheet.grid.slice(1, sheet.lastRow()).map((r) => r[idAt]);
    expect(ids).toEqual([1, 3, 4]);
    expect(sheet.grid[3][width]).toBe('cobrar em dezembro');
    expect(sheet.notes[3]?.[idAt]).toMatch(/^Este registro não veio na atualização completa de .*apague-a quando não precisar mais\.$/);
    expect(
      sheet.notes
        .slice(1)
        .map((row) => row?.[idAt] ?? '')
        .filter(Boolean),
    ).toHaveLength(1);
    expect(second.warnings).toContain(
      `1 linha(s) de registros que não vieram nesta atualização ficaram na aba porque têm anotações suas (veja a nota na coluna ${sheet.grid[0][idAt]}).`,
    );
  });
});

/**
 * A document pulled once in full, from company `k` or consolidated from `companies`; `again` starts a second full
 * pull, `data` replacing what companies hold, whose round trips end `left` ms before the step's limit (a slow
 * service that took most of the execution).
 */
function world(first: Record<string, Records>, companies?: CompanySpec[]) {
  const w = document(first);
  const spec = companies ? { companies, mode: 'replace' as const } : {};
  expect(w.run(spec).status).toBe('done');
  const sheet = w.sheet();
  const phones = w.child('telefones');
  const again = (data: Record<string, Records>, left: number) => {
    w.tick(HOUR);
    Object.assign(w.service.companies, data);
    const limit = w.now() + 1_000_000;
    w.arriveAt(limit - left);
    const state = w.step(w.start(spec), { deadline: w.now() + 600_000, limit });
    w.arriveAt(undefined);
    return state;
  };
  /** A step of the settling with `left` ms before its limit. */
  const settle = (s: ImportState, left: number) => w.step(s, { deadline: w.now() + 600_000, limit: w.now() + left });
  const marked = () => [sheet, phones].map((s) => String(s.grid[0][0]).startsWith(PARTIAL_MARK));
  /** The last part, with no time left: the run ends done, every mark lifted. */
  const lastPart = (s: ImportState) => {
    const done = settle(s, 0);
    expect(done).toMatchObject({ status: 'done', settled: ['sweep', 'child:telefones', 'marks'] });
    expect(done.message).toBeUndefined();
    expect(marked()).toEqual([false, false]);
  };
  return {
    saved: w.saved,
    again,
    settle,
    lastPart,
    customers: () => column(sheet, 'ID do cliente'),
    /** A consolidated sheet's rows as "connection|customer". */
    keys: () => column(sheet, 'ID da conexão').map((c, i) => `${c}|${column(sheet, 'ID do cliente')[i]}`),
    phoneParents: () => column(phones, 'ID do cliente'),
    marked,
  };
}

/** Six customers with two phones each. */
const twoPhones = () => withPhones(1, 6, (id) => [{ numero: `11${id}` }, { numero: `12${id}` }]);

/** Each part starts only when its planned cost (`costs`, in the parts' order) fits before the limit. */
function expectEachPartToFit(settledWith: (left: number) => string[] | undefined, costs: number[]) {
  const parts = ['sweep', 'child:telefones', 'marks'];
  costs.forEach((cost, i) => {
    expect(settledWith(cost - 0.03)).toEqual(parts.slice(0, i));
    expect(settledWith(cost + 0.03)).toEqual(parts.slice(0, i + 1));
  });
}

describe('a settling that does not fit the step that wrote the last page', () => {
  it('is done part by part in the next steps, the first part at least each time, the sheets marked until the last', () => {
    const w = world({ k: withPhones(1, 6) });
    // Customers 2 and 5 left the service.
    const pulled = w.again({ k: withPhones(1, 6).filter((c) => c.idCliente !== 2 && c.idCliente !== 5) }, 100);
    expect(pulled).toMatchObject({ status: 'running', message: GOES_ON, rows: 4, settled: [] });
    expect(w.customers()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(w.marked()).toEqual([true, true]);

    // No time at all: the step still does the first part left, and only that one.
    const swept = w.settle(pulled, 0);
    expect(swept).toMatchObject({ status: 'running', message: GOES_ON, settled: ['sweep'], pages: pulled.pages });
    expect(w.customers()).toEqual([1, 3, 4, 6]);
    expect(w.phoneParents()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(w.marked()).toEqual([true, true]);
    expect(w.saved.at(-1)?.settled).toEqual(['sweep']);

    const orphans = w.settle(swept, 0);
    expect(orphans).toMatchObject({ status: 'running', settled: ['sweep', 'child:telefones'] });
    expect(w.phoneParents()).toEqual([1, 3, 4, 6]);
    expect(orphans.children.telefones.rows).toBe(4);
    expect(w.marked()).toEqual([true, true]);

    w.lastPart(orphans);
  });

  it('with room for every part, ends done in that step', () => {
    const w = world({ k: withPhones(1, 6) });
    const done = w.again({ k: withPhones(1, 3) }, 60_000);
    expect(done).toMatchObject({ status: 'done', settled: ['sweep', 'child:telefones', 'marks'] });
    expect(w.customers()).toEqual([1, 2, 3]);
    expect(w.phoneParents()).toEqual([1, 2, 3]);
    expect(w.marked()).toEqual([false, false]);
  });

  it('a listing that came back empty wrote nothing: its step does the first part even without time for it', () => {
    const w = world({ k: withPhones(1, 6) });
    const swept = w.again({ k: [] }, 100);
    expect(swept).toMatchObject({ status: 'running', message: GOES_ON, rows: 0, settled: ['sweep'] });
    expect(w.customers()).toEqual([]);
    expect(w.phoneParents()).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('what each part of the settling is planned to cost', () => {
  // Six customers with two phones each; the second run brings the same six: 6 report rows, 12 item rows.
  // The sweep reads the key and "Recebido em" of each row; a child's orphans, the parent keys and each item's parent; both then
  // make the finishing calls. Lifting the marks is calls only: the finishing ones and two per child list.
  it('a part starts only when its reads and calls fit before the limit', () => {
    expectEachPartToFit(
      (left) => world({ k: twoPhones() }).again({}, left).settled,
      [6 * 2 * CELL_READ_MS + FINISH_CALLS * CALL_MS, (6 + 12) * CELL_READ_MS + FINISH_CALLS * CALL_MS, (FINISH_CALLS + 2 * 2) * CALL_MS],
    );
  });

  // Two companies bring the same six customers again: 12 report rows, 24 item rows. The sweep also reads the connection of each
  // row, a child's orphans the parent's connection and each item's; lifting the marks reads the connection and the name of every
  // row of both sheets (the company names brought up to date).
  it("consolidated, a part starts only when its reads of every company's rows and its calls fit", () => {
    expectEachPartToFit(
      (left) => world({ a: twoPhones(), b: twoPhones() }, both).again({}, left).settled,
      [
        12 * 3 * CELL_READ_MS + FINISH_CALLS * CALL_MS,
        (12 * 2 + 24 * 3) * CELL_READ_MS + FINISH_CALLS * CALL_MS,
        (12 + 24) * 2 * CELL_READ_MS + (FINISH_CALLS + 2 * 2) * CALL_MS,
      ],
    );
  });
});

const both = [company('a'), company('b')];

describe('a consolidated settling that does not fit the step that wrote the last pages', () => {
  it('is done part by part in the next steps, the sheets marked until the last', () => {
    const w = world({ a: twoPhones(), b: twoPhones() }, both);
    // Company b's customers 2 to 6 left the service.
    const pulled = w.again({ b: twoPhones().slice(0, 1) }, 100);
    expect(pulled).toMatchObject({ status: 'running', message: GOES_ON, settled: [] });
    expect(pulled.companies?.map((c) => c.status)).toEqual(['done', 'done']);
    expect(w.customers()).toHaveLength(12);
    expect(w.marked()).toEqual([true, true]);

    // No time at all: each step still does the first part left, and only that one, leaving the state it was given as it was.
    const swept = w.settle(pulled, 0);
    expect(swept).toMatchObject({ status: 'running', message: GOES_ON, settled: ['sweep'], pages: pulled.pages });
    expect(pulled.settled).toEqual([]);
    expect(w.keys()).toEqual(['a|1', 'a|2', 'a|3', 'a|4', 'a|5', 'a|6', 'b|1']);
    expect(w.phoneParents()).toHaveLength(24);
    expect(w.marked()).toEqual([true, true]);

    const orphans = w.settle(swept, 0);
    expect(orphans).toMatchObject({ status: 'running', settled: ['sweep', 'child:telefones'] });
    expect(swept.settled).toEqual(['sweep']);
    expect(w.phoneParents()).toHaveLength(14);
    expect(w.marked()).toEqual([true, true]);

    w.lastPart(orphans);
  });

  it('with room for every part, ends done in that step', () => {
    const w = world({ a: twoPhones(), b: twoPhones() }, both);
    const done = w.again({ b: [] }, 60_000);
    expect(done).toMatchObject({ status: 'done', settled: ['sweep', 'child:telefones', 'marks'] });
    expect(w.keys()).toEqual(['a|1', 'a|2', 'a|3', 'a|4', 'a|5', 'a|6']);
    expect(w.marked()).toEqual([false, false]);
  });
});

describe('a sweep that finds every row a current record', () => {
  it("reads the sheet's last row once, and neither its width nor its header notes", () => {
    const first = settled('clientes', customers(1, 6));
    const run = started('clientes', { sheetId: first.state.sheetId }, first.book, T0 + HOUR);
    run.writer.write(customers(1, 6));
    const sheet = run.sheet;
    const asked: string[] = [];
    for (const name of ['lastRow', 'lastColumn', 'readNotes'] as const) {
      const own = (sheet[name] as (...args: unknown[]) => unknown).bind(sheet);
      (sheet as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
        asked.push(name);
        return own(...args);
      };
    }
    expect(finish(run)).toBe(true);
    expect(asked).toEqual(['lastRow']);
    expect(sheet.column('ID do cliente')).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
