/**
 * The 10-million-cell check of a pull, figure by figure: with the spreadsheet
 * already at the limit, the refusal names exactly the cells the write would
 * reach, so each sheet's projected growth can be read off the message — the
 * report sheet grown to its rows on the width of its grid, a new child sheet
 * made with Sheets' 1,000 rows (cut to its columns plus room for notes, or 26
 * for an open one), an existing child sheet growing below what it holds. A
 * pull whose announced total would not fit is refused before anything is
 * written; Google's own refusal is told in the add-on's words.
 */
import { describe, expect, it } from 'vitest';
import { CELL_LIMIT_TEXT, failureMessage } from '../../../src/core/pull/cell-limit';
import { ImportError, type ImportState } from '../../../src/core/pull/state';
import { Writer } from '../../../src/core/pull/writer';
import { CELL_LIMIT } from '../../../src/core/sheets/sheet-port';
import { customers } from '../fake-service';
import { StrictBook } from './strict-book';
import { company, pulling, T0, world, startLooked } from './world';

/** Clientes without card data: 37 fields and "Recebido em". */
const CLIENTES_COLUMNS = 38;
/** Cobranças: 31 fields and "Recebido em"; its card events are a child of 11 known columns. */
const COBRANCAS_COLUMNS = 32;
const EVENTO_COLUMNS = 11;

const over = (cells: number) => `Esta importação levaria a planilha a ${(CELL_LIMIT + cells).toLocaleString('pt-BR')} células. ${CELL_LIMIT_TEXT}`;
const overWithChildren = (cells: number) =>
  `Esta importação (com as abas de itens) levaria a planilha a ${(CELL_LIMIT + cells).toLocaleString('pt-BR')} células. ${CELL_LIMIT_TEXT}`;

/** What `act` was refused with (or null when it went through). */
function refusal(act: () => void): string | null {
  try {
    act();
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(ImportError);
    return (err as Error).message;
  }
}

/** A writer for a fresh report sheet whose grid the test sets, in a spreadsheet already at the limit. */
function atLimit(listing: 'clientes' | 'cobrancas' = 'clientes', grid = { cells: 0, columns: 26 }) {
  const pull = pulling([], { listing, sheetName: listing });
  const sheet = pull.sheet();
  sheet.reportedCells = grid.cells;
  sheet.reportedColumns = grid.columns;
  pull.book.total = CELL_LIMIT;
  return { ...pull, writer: new Writer(pull.state, pull.deps) };
}

const cobrancas = (n: number, events: (i: number) => number) =>
  Array.from({ length: n }, (_, i) => ({
    idCobranca: i + 1,
    eventosCartao: Array.from({ length: events(i) }, (_, e) => ({ idEventoCartao: 100 * (i + 1) + e })),
  }));

describe('the rows a listing announces, checked before anything is written', () => {
  it('the report sheet grows to the announced rows and its header, on its own width', () => {
    const w = atLimit();
    expect(refusal(() => w.writer.expect(99, customers(1, 3)))).toBe(over(100 * CLIENTES_COLUMNS));
  });

  it('on the width of its grid when the grid is wider than our columns', () => {
    const w = atLimit('clientes', { cells: 0, columns: 50 });
    expect(refusal(() => w.writer.expect(99, customers(1, 3)))).toBe(over(100 * 50));
  });

  it('counting only the cells beyond those the grid already has', () => {
    const w = atLimit('clientes', { cells: 3_000, columns: 26 });
    expect(refusal(() => w.writer.expect(99, customers(1, 3)))).toBe(over(100 * CLIENTES_COLUMNS - 3_000));
    const roomy = atLimit('clientes', { cells: 100 * CLIENTES_COLUMNS, columns: 26 });
    expect(refusal(() => roomy.writer.expect(99, customers(1, 3)))).toBeNull();
  });

  it('reaching the limit exactly is allowed; one cell more is refused', () => {
    const w = atLimit();
    w.book.total = CELL_LIMIT - 100 * CLIENTES_COLUMNS;
    expect(refusal(() => w.writer.expect(99, customers(1, 3)))).toBeNull();
    w.book.total += 1;
    expect(refusal(() => w.writer.expect(99, customers(1, 3)))).toBe(
      `Esta importação levaria a planilha a ${(CELL_LIMIT + 1).toLocaleString('pt-BR')} células. ${CELL_LIMIT_TEXT}`,
    );
  });

  it('is not checked by an incremental refresh, whose announced rows are only what changed', () => {
    const w = atLimit();
    const merge = startLooked({ ...w.state.spec, mode: 'merge' }, w.deps);
    expect(refusal(() => new Writer(merge, w.deps).expect(1_000_000, customers(1, 3)))).toBeNull();
  });

  it('a new child sheet of known columns is made at 1,000 rows, cut to its columns and four more, at least a 26-column grid', () => {
    // Two events per charge: 2,000 event rows and the header, 15 columns wide.
    const w = atLimit('cobrancas');
    const sample = cobrancas(3, () => 2);
    const report = 1001 * COBRANCAS_COLUMNS;
    expect(refusal(() => w.writer.expect(1000, sample))).toBe(overWithChildren(report + 2001 * (EVENTO_COLUMNS + 4)));
    // Few events: Sheets' own 1,000 rows × 26 columns are what a new sheet costs, whatever it is cut to later.
    const few = atLimit('cobrancas');
    expect(
      refusal(() =>
        few.writer.expect(
          10,
          cobrancas(3, (i) => (i === 0 ? 1 : 0)),
        ),
      ),
    ).toBe(overWithChildren(11 * COBRANCAS_COLUMNS + 1000 * 26));
  });

  it("a child's rows are projected at the rate of the sample, rounded up", () => {
    const w = atLimit('cobrancas');
    // Two records in three bring an event: 3,001 records bring 2,000.67, so 2,001 rows.
    const sample = cobrancas(3, (i) => (i < 2 ? 1 : 0));
    expect(refusal(() => w.writer.expect(3001, sample))).toBe(overWithChildren(3002 * COBRANCAS_COLUMNS + 2002 * (EVENTO_COLUMNS + 4)));
  });

  it('a sample without items projects no child sheet, and an empty sample none either', () => {
    const w = atLimit('cobrancas');
    expect(
      refusal(() =>
        w.writer.expect(
          1000,
          cobrancas(3, () => 0),
        ),
      ),
    ).toBe(over(1001 * COBRANCAS_COLUMNS));
    expect(refusal(() => w.writer.expect(1000, []))).toBe(over(1001 * COBRANCAS_COLUMNS));
  });

  it('a new open child sheet keeps the 26 columns of a new grid', () => {
    const w = atLimit();
    const sample = customers(1, 3).map((c) => ({ ...c, telefones: [{ numero: '1' }, { numero: '2' }] }));
    // Two phones a customer: 3,000 customers bring 6,000 rows.
    expect(refusal(() => w.writer.expect(3000, sample))).toBe(overWithChildren(3001 * CLIENTES_COLUMNS + 6001 * 26));
  });
});

describe('the rows a write adds, checked before any of them is written', () => {
  /** A sheet a first pull filled with customers 1..5 (two phones each), refreshed by `mode` at the limit. */
  function refresh(mode: 'merge' | 'replace') {
    const book = new StrictBook();
    const phones = (from: number, n: number, each: number) =>
      customers(from, n).map((c) => ({ ...c, telefones: Array.from({ length: each }, (_, i) => ({ numero: `${c.idCliente}${i}` })) }));
    const first = pulling(phones(1, 5, 2), {}, book);
    const done = first.toEnd();
    expect(done.status).toBe('done');
    const state = startLooked({ ...done.spec, mode }, first.deps);
    const sheet = book.watched(state.sheetId);
    const child = book.watched(done.children.telefones.sheetId);
    for (const s of [sheet, child]) {
      s.reportedCells = 0;
      s.reportedColumns = 26;
    }
    book.total = CELL_LIMIT;
    return { book, state, sheet, child, phones, writer: new Writer(state, first.deps) };
  }

  it("counts the rows of ids the sheet does not hold yet below those it has, and the child rows below the child sheet's", () => {
    const r = refresh('merge');
    // Customers 4..8: three new ones below the five rows; one phone each below the ten phone rows.
    expect(refusal(() => r.writer.write(r.phones(4, 5, 1)))).toBe(overWithChildren(9 * CLIENTES_COLUMNS + 16 * 26));
    expect(r.sheet.lastRow()).toBe(6);
  });

  it('a write of ids the sheet holds, without items, adds nothing and goes through', () => {
    const r = refresh('merge');
    r.book.total = CELL_LIMIT - 6 * CLIENTES_COLUMNS;
    expect(refusal(() => r.writer.write(customers(1, 5, 'Novo')))).toBeNull();
    expect(r.sheet.records().map((x) => x['Razão social'] ?? x['Razao social'])).toEqual(['Novo 1', 'Novo 2', 'Novo 3', 'Novo 4', 'Novo 5']);
  });
});

describe('a pull whose announced total would not fit', () => {
  /** Pulls of `data` (one company, or consolidated from each key) into a fresh document whose report sheet's grid the user trimmed to its header. */
  function setup(data: Record<string, Array<Record<string, unknown>>>, consolidated = false) {
    const w = world(data);
    const state = w.start(consolidated ? { companies: Object.keys(data).map((id) => company(id)) } : {});
    w.sheet().size.rows = 1;
    return { ...w, state, ids: () => w.sheet().column('ID do cliente'), rows: () => w.sheet().column('ID do cliente') };
  }
  const step = (s: ReturnType<typeof setup>, state: ImportState) => s.step(state);

  it('the cell check counts the rows the service announced, not only those of the first pages', () => {
    const s = setup({ k: customers(1, 30) });
    // Room for the first pages' rows, not for all thirty.
    s.book.totalCells = () => 10_000_000 - 700;
    const state = s.step(s.state);
    expect(state.status).toBe('failed');
    expect(state.retryable).toBe(false);
    expect(state.message).toMatch(/^Esta importação levaria a planilha a /);
    expect(s.ids()).toEqual([]);
  });

  it('refuses before writing anything when the total the service announced would not fit, even if the first blocks would', () => {
    const s = setup({ k: customers(1, 30) });
    s.deps.flushRows = 6;
    // Room for a dozen rows or so, not for thirty.
    s.book.totalCells = () => 10_000_000 - 700;
    const state = s.step(s.state);
    expect(state).toMatchObject({ status: 'failed', retryable: false, rows: 0 });
    expect(state.message).toMatch(/^Esta importação levaria a planilha a /);
    expect(s.ids()).toEqual([]);
  });

  it('with more companies than one round trip asks, once the last of them told its total, before anything is written', () => {
    // Five companies are asked in the first round trip, the sixth in the second; eighteen rows do not fit, fifteen would.
    const s = setup(Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((id) => [id, customers(1, 3)])), true);
    s.book.total = CELL_LIMIT - 650;
    const state = step(s, s.state);
    expect(state).toMatchObject({ status: 'failed', retryable: false });
    expect(state.message).toMatch(/^Esta importação levaria a planilha a /);
    expect(s.rows()).toEqual([]);
  });

  it("counts the spreadsheet's cells (a call for every sheet) once for the total announced, and once for each block written, not at every wave", () => {
    const s = setup({ k: customers(1, 60) });
    // Twenty pages: three round trips, one block written at the end of the step.
    expect(s.step(s.state).status).toBe('done');
    expect(s.service.trips).toBe(3);
    expect(s.book.counted).toBe(2);
  });

  it('refuses up front when the companies together announce more rows than the spreadsheet can take', () => {
    const s = setup({ a: customers(1, 30), b: customers(100, 30) }, true);
    s.book.totalCells = () => 10_000_000 - 1_500;
    const state = step(s, s.state);
    expect(state.status).toBe('failed');
    expect(state.retryable).toBe(false);
    expect(state.message).toMatch(/^Esta importação levaria a planilha a [\d.]+ células\. O Google Planilhas aceita no máximo 10 milhões/);
    expect(s.rows()).toEqual([]);
    // One company alone fits.
    const t = setup({ a: customers(1, 30) }, true);
    t.book.totalCells = () => 10_000_000 - 1_500;
    expect(step(t, t.state).status).toBe('done');
  });
});

describe('the cells of child sheets', () => {
  const chargesFrom = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => ({ idCobranca: from + i, eventosCartao: [{ idEventoCartao: 100 * (from + i), tid: `t${from + i}` }] }));
  const phonesFrom = (from: number, n: number) => customers(from, n).map((c) => ({ ...c, telefones: [{ numero: `9${c.idCliente}`, ramal: 10 }] }));

  it('a replace run counts the rows its child sheet will hold, not those it holds now', () => {
    const book = new StrictBook();
    const pull = pulling(chargesFrom(1, 30), { listing: 'cobrancas', sheetName: 'Cobranças' }, book);
    const first = pull.toEnd();
    const state = startLooked({ ...first.spec, mode: 'replace' }, pull.deps);
    const child = book.watched(first.children.eventosCartao.sheetId);
    const sheet = book.watched(first.sheetId);
    for (const s of [child, sheet]) {
      s.reportedCells = 0;
      s.reportedColumns = 1;
    }
    book.total = CELL_LIMIT;
    const writer = new Writer(state, pull.deps);
    // 100 charges of one event each: 101 rows of 32 columns, and 101 rows of the child's 11.
    expect(() => writer.expect(100, chargesFrom(1, 3))).toThrow(overWithChildren(101 * 32 + 101 * 11));
  });

  it('the cell check counts the columns found so far in the sheet that holds them', () => {
    const pull = pulling(phonesFrom(1, 30));
    const first = pull.step(pull.state, T0 + 1_500);
    expect(first.status).toBe('running');
    const child = pull.book.watched(first.children.telefones.sheetId);
    const sheet = pull.sheet();
    for (const s of [child, sheet]) {
      s.reportedCells = 0;
      s.reportedColumns = 1;
    }
    pull.book.total = CELL_LIMIT;
    const rows = child.lastRow() - 1;
    // Three new customers below the report's rows, a phone each below the child's: the child has three columns now.
    expect(() => new Writer(first, pull.deps).write(phonesFrom(100, 3))).toThrow(overWithChildren((rows + 4) * 38 + (rows + 4) * 3));
  });
});

describe('a failure in words', () => {
  it("Google's refusal at the cell limit becomes the add-on's own advice, however Google words it", () => {
    for (const raw of [
      'This action would increase the number of cells in the workbook above the limit of 10000000 cells.',
      'above the limit of 10,000,000 cells',
      'The spreadsheet is over the 10 MILLION cell limit',
    ])
      expect(failureMessage(new Error(raw)), raw).toBe(CELL_LIMIT_TEXT);
  });

  it('any other failure as it was said, bounded; a thrown text or nothing at all still has words', () => {
    expect(failureMessage(new Error('Chave recusada'))).toBe('Chave recusada');
    expect(failureMessage('sem conexão')).toBe('sem conexão');
    expect(failureMessage(null)).toBe('null');
    expect(failureMessage(undefined)).toBe('undefined');
    const long = failureMessage(new Error('x'.repeat(5_000)));
    expect(long).toHaveLength(2_000);
    expect(long.endsWith('…')).toBe(true);
    expect(failureMessage(new Error('100000 cells'))).toBe('100000 cells');
  });
});
