/**
 * A bulk run as the sidebar drives it (Validar, Executar, steps, Cancelar,
 * "ir para as linhas com erro"), on an in-memory book against a small
 * stateful fake of the billing service: the set-up of the bulk wing's unit tests.
 */
import { expect } from 'vitest';
import type { HttpOutcome } from '../../../src/api/transport';
import type { BulkDeps } from '../../../src/core/bulk/state';
import { bulkJobStore } from '../../../src/core/bulk/stored-job';
import type { CellValue } from '../../../src/core/sheets/table';
import { MemoryStore, zone, trusted } from './fixtures';
import { MemoryBook, type MemorySheet } from './memory-book';
import { json, listOf, scripted } from './scripted';

export const NFSE_HEADER = ['ID da fatura'];
export const adesao = zone.instant({ year: 2026, month: 11, day: 1 });
export const customRow = (key: string, valor: CellValue = 100): CellValue[] => [
  key,
  321,
  adesao,
  '11/2026',
  'MENSAL',
  789,
  'Honorários',
  valor,
  'AGRUPADA',
  10,
];

/** The service: notes per invoice, subscriptions per key; `refuse`/`lose` script the answers to some invoices. */
export function fakeService(
  opts: {
    refuse?: Set<number>;
    lose?: Set<number>;
    drop?: Set<number>;
    /** Invoices whose first emission is answered 429. */
    throttle?: Set<number>;
    unauthorized?: boolean;
    customers?: Array<Record<string, unknown>>;
    /** Called as each request arrives (a slow service moves the clock; a test reads the sheet as the service is reached). */
    onRequest?: () => void;
  } = {},
) {
  const notes = new Map<number, Record<string, unknown>>();
  const subs = new Map<string, Record<string, unknown>>();
  /** Subscriptions by id, as updates find them. */
  const byId = new Map<number, Record<string, unknown>>();
  const posted: Array<Record<string, unknown>> = [];
  let nextId = 500;
  const service = scripted((req, url): HttpOutcome => {
    opts.onRequest?.();
    if (opts.unauthorized) return json(401, { message: 'chave inválida' });
    const body = JSON.parse(req.body ?? '{}') as Record<string, unknown>;
    if (req.method === 'POST') posted.push(body);
    if (req.method === 'POST' && url.pathname === '/v2/faturamento/nfse/emitir') {
      const id = body.idFatura as number;
      if (opts.throttle?.delete(id)) return { kind: 'response', status: 429, headers: { 'retry-after': '1' }, body: '{}' };
      if (opts.drop?.has(id)) return { kind: 'network-error', message: 'connection reset' };
      if (opts.refuse?.has(id)) return json(422, { message: ['Fatura cancelada'] });
      if (notes.has(id)) return json(400, { message: ['Fatura já possui nota'] });
      const note = { idNotaFiscalServico: nextId++, idFatura: id, numeroNotaFiscalServico: String(id * 10), statusNotaFiscalServico: 'AUTORIZADA' };
      notes.set(id, note);
      if (opts.lose?.delete(id)) return { kind: 'network-error', message: 'connection reset' };
      return json(200, { data: note });
    }
    if (req.method === 'GET' && url.pathname === '/v2/nfse') {
      const note = notes.get(Number(url.searchParams.get('idFatura')));
      return listOf(note ? [note] : []);
    }
    if (req.method === 'POST' && url.pathname.startsWith('/v2/assinaturascontratos/')) {
      const record = { idAssinaturaContrato: nextId++, idIntegracao: body.idIntegracao as string };
      subs.set(record.idIntegracao, record);
      return json(200, { data: record });
    }
    if (req.method === 'PUT') {
      const id = Number(url.pathname.split('/').pop());
      const record = {
        ...(byId.get(id) ?? {}),
        idAssinaturaContrato: id,
        quantidade: body.quantidade,
        descricaoAssinaturaContrato: body.descricaoAssinaturaContrato,
      };
      byId.set(id, record);
      return json(200, { data: record });
    }
    const byIdWanted = url.searchParams.get('idAssinaturaContrato');
    if (req.method === 'GET' && url.pathname === '/v2/assinaturascontratos' && byIdWanted) {
      const record = byId.get(Number(byIdWanted));
      return listOf(record ? [record] : []);
    }
    if (req.method === 'GET' && url.pathname === '/v2/assinaturascontratos') {
      const record = subs.get(url.searchParams.get('idIntegracao') ?? '');
      return listOf(record ? [record] : []);
    }
    if (req.method === 'GET' && url.pathname === '/v2/clientes') {
      const wanted = url.searchParams.get('cpfCnpj');
      return listOf((opts.customers ?? []).filter((c) => c.cpfCnpj === wanted));
    }
    throw new Error(`pedido fora do roteiro: ${req.method} ${req.url}`);
  });
  return { ...service, notes, subs, posted, byId };
}

/** The test's clock: every deps.now() moves it 10 ms, a slow service more. */
export const clock = { t: Date.UTC(2026, 10, 22, 12) };
/** A book as strict as Sheets about reading: a range of no rows or no columns is refused. */
function strictBook(): MemoryBook {
  const book = new MemoryBook();
  const create = book.create.bind(book);
  book.create = (name) => {
    const sheet = create(name);
    const read = sheet.read.bind(sheet);
    sheet.read = (row, column, numRows, numColumns) => {
      if (!(numRows >= 1 && numColumns >= 1)) throw new Error('The number of rows in the range must be at least 1.');
      return read(row, column, numRows, numColumns);
    };
    return sheet;
  };
  return book;
}

export function setUp(service = fakeService(), extra: Partial<BulkDeps> = {}) {
  const book = strictBook();
  const store = new MemoryStore();
  let n = 0;
  const deps: BulkDeps = {
    book,
    jobs: bulkJobStore(trusted(store)),
    zone,
    now: () => (clock.t += 10),
    sleep: () => {},
    newId: () => `gerado-${++n}`,
    clientFor: () => service.client,
    ...extra,
  };
  return { book, deps, service, store };
}

export const FAR = () => clock.t + 600_000;

/** Runs `start` in an execution that dies right after results reach the sheet: the stored job is still the one saved before the batch. */
export function killedAfterResults(sheet: MemorySheet, store: MemoryStore, start: () => unknown): void {
  const write = sheet.write.bind(sheet);
  sheet.write = (row, column, values) => {
    write(row, column, values);
    if (values.some((line) => line.includes('OK'))) store.frozen = true;
  };
  expect(start).toThrow('killed');
  sheet.write = write;
  store.frozen = false;
}
export const emit = (sheetName = 'Notas', scope: 'all' | 'selected' = 'all') => ({ operation: 'emitirNfse' as const, sheetName, connection: 'Empresa', scope });
export const statuses = (sheet: MemorySheet) => sheet.records().map((r) => r.Status);
