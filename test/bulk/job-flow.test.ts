/**
 * A bulk run as the sidebar drives it (Validar, Executar, steps, Cancelar,
 * "ir para as linhas com erro"), on an in-memory book against a small
 * stateful fake of the billing service: what the rows, the counts and the
 * messages say, what is sent and what never is.
 */
import { describe, expect, it } from 'vitest';
import type { HttpOutcome } from '../../src/api/transport';
import { cancelBulk, continueBulk, continueBulkJob, failedRanges } from '../../src/core/bulk/job';
import { startBulk } from '../../src/core/bulk/launch';
import { keyField } from '../../src/core/bulk/row-plan';
import { BulkError, type BulkDeps, progressOf } from '../../src/core/bulk/state';
import { validateSheet } from '../../src/core/bulk/validate';
import { bulkJobStore } from '../../src/core/bulk/stored-job';
import { bulkOperation, discountColumns } from '../../src/core/bulk/definitions';
import { createTemplate } from '../../src/core/bulk/template';
import { FAULT_COLOR } from '../../src/core/bulk/sheet-io';
import type { CellValue } from '../../src/core/table';
import { CUSTOM_HEADER, MemoryStore, zone } from './fixtures';
import { MemoryBook, type MemorySheet } from './memory-book';
import { foreignDates } from './foreign-dates';
import { json, listOf, scripted } from './scripted';

const NFSE_HEADER = ['ID da fatura'];
const adesao = zone.instant({ year: 2026, month: 11, day: 1 });
const customRow = (key: string, valor: CellValue = 100): CellValue[] => [key, 321, adesao, '11/2026', 'MENSAL', 789, 'Honorários', valor, 'AGRUPADA', 10];

/** The service: notes per invoice, subscriptions per key; `refuse`/`lose` script the answers to some invoices. */
function fakeService(
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

let clock = Date.UTC(2026, 10, 22, 12);
function setUp(service = fakeService(), extra: Partial<BulkDeps> = {}) {
  const book = new MemoryBook();
  const store = new MemoryStore();
  let n = 0;
  const deps: BulkDeps = {
    book,
    jobs: bulkJobStore(store),
    zone,
    now: () => (clock += 10),
    sleep: () => {},
    newId: () => `gerado-${++n}`,
    clientFor: () => service.client,
    ...extra,
  };
  return { book, deps, service, store };
}

const FAR = () => clock + 600_000;

/** Runs `start` in an execution that dies right after results reach the sheet: the stored job is still the one saved before the batch. */
function killedAfterResults(sheet: MemorySheet, store: MemoryStore, start: () => unknown): void {
  const write = sheet.write.bind(sheet);
  sheet.write = (row, column, values) => {
    write(row, column, values);
    if (values.some((line) => line.includes('OK'))) store.frozen = true;
  };
  expect(start).toThrow('killed');
  sheet.write = write;
  store.frozen = false;
}
const emit = (sheetName = 'Notas', scope: 'all' | 'selected' = 'all') => ({ operation: 'emitirNfse' as const, sheetName, connection: 'Empresa', scope });
const statuses = (sheet: MemorySheet) => sheet.records().map((r) => r.Status);

describe('emitting notes from rows', () => {
  it('emits each valid row once, writes the note beside it and counts what happened', () => {
    const { book, deps, service } = setUp();
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], ['abc'], [''], [1002]]);
    const p = startBulk(deps, emit(), FAR());
    expect(p).toMatchObject({ status: 'done', done: true, total: 3, processed: 3, counts: { ok: 2, failed: 1, existing: 0, skipped: 0, pending: 0 } });
    expect(p.message).toBe('2 linhas enviadas com sucesso, 1 com erro.');
    expect(p.label).toBe('Emitir NFS-e de faturas');
    expect(p.owner).toBeNull();
    expect(sheet.grid[0]).toEqual(['ID da fatura', 'Status', 'ID da NFS-e', 'Número da NFS-e', 'Fatura conferida', 'Mensagem', 'Processado em']);
    const rows = sheet.records();
    expect(rows[0]).toMatchObject({ Status: 'OK', 'ID da NFS-e': 500, 'Número da NFS-e': '10010', 'Fatura conferida': 1001 });
    expect(rows[1].Status).toBe('ERRO');
    expect(rows[1].Mensagem).toMatch(/^Linha 3, coluna "ID da fatura" \(A\): /);
    expect(sheet.backgrounds[2][0]).toBe(FAULT_COLOR);
    expect(rows[2].Status).toBe('');
    expect(rows[3]).toMatchObject({ Status: 'OK', 'Fatura conferida': 1002 });
    expect(rows[3]['Processado em']).toBeInstanceOf(Date);
    expect(service.log.filter((l) => l.startsWith('POST'))).toHaveLength(2);
    // An emission is sent straight away (a refusal tells of a note already there), and one pass is enough.
    expect(service.log.filter((l) => l.startsWith('GET'))).toEqual([]);
    expect(deps.jobs.get(p.jobId)?.pass).toBe(0);
  });

  it('a second run skips the rows already OK and sends nothing again', () => {
    const { book, deps, service } = setUp();
    book.sheet('Notas', NFSE_HEADER, [[1001], [1002]]);
    startBulk(deps, emit(), FAR());
    const sent = service.log.length;
    const again = startBulk(deps, emit(), FAR());
    expect(again).toMatchObject({ status: 'done', total: 2, counts: { ok: 0, skipped: 2, failed: 0 } });
    expect(again.message).toBe('0 linhas enviadas com sucesso, 2 já estavam OK.');
    expect(service.log.length).toBe(sent);
  });

  it('an invoice that already has its note is JÁ EMITIDA, counted as existing', () => {
    const { book, deps, service } = setUp();
    service.notes.set(1001, { idNotaFiscalServico: 90, idFatura: 1001, numeroNotaFiscalServico: '7', statusNotaFiscalServico: 'AUTORIZADA' });
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001]]);
    const p = startBulk(deps, emit(), FAR());
    expect(statuses(sheet)).toEqual(['JÁ EMITIDA']);
    expect(p.counts).toMatchObject({ existing: 1, ok: 0 });
    expect(p.message).toBe('0 linhas enviadas com sucesso, 1 já existia.');
    const two = setUp();
    for (const id of [7, 8])
      two.service.notes.set(id, { idNotaFiscalServico: id, idFatura: id, numeroNotaFiscalServico: '1', statusNotaFiscalServico: 'AUTORIZADA' });
    two.book.sheet('Notas', NFSE_HEADER, [[7], [8]]);
    expect(startBulk(two.deps, emit(), FAR()).message).toBe('0 linhas enviadas com sucesso, 2 já existiam.');
  });

  it('a refusal is shown on the row and its cells coloured', () => {
    const { book, deps } = setUp(fakeService({ refuse: new Set([1001, 1003]) }));
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002], [1003]]);
    const p = startBulk(deps, emit(), FAR());
    expect(statuses(sheet)).toEqual(['ERRO', 'OK', 'ERRO']);
    expect(sheet.records()[0].Mensagem).toContain('Fatura cancelada');
    expect(sheet.backgrounds[1][0]).toBe(FAULT_COLOR);
    expect(sheet.backgrounds[2]?.[0]).not.toBe(FAULT_COLOR);
    expect(sheet.backgrounds[3][0]).toBe(FAULT_COLOR);
    expect(p.message).toBe('1 linha enviada com sucesso, 2 com erro.');
  });

  it('an answer lost: the row is PENDENTE, looked up by the next pass and found done', () => {
    const { book, deps, service } = setUp(fakeService({ lose: new Set([1001]) }));
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002]]);
    const p = startBulk(deps, emit(), FAR());
    expect(p).toMatchObject({ status: 'done', counts: { ok: 2, pending: 0, failed: 0 } });
    expect(statuses(sheet)).toEqual(['OK', 'OK']);
    expect(sheet.records()[0].Mensagem).toContain('confirmada por consulta');
    expect(service.log.filter((l) => l.startsWith('POST'))).toHaveLength(2);
  });

  it('the same invoice on two rows: neither is sent, each names the other', () => {
    const { book, deps, service } = setUp();
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002], [1001], [1001]]);
    const p = startBulk(deps, emit(), FAR());
    expect(statuses(sheet)).toEqual(['ERRO', 'OK', 'ERRO', 'ERRO']);
    expect(sheet.records()[0].Mensagem).toBe(
      'ID da fatura "1001" repetido: está também nas linhas 4, 5. Cada linha precisa de um valor próprio; apague ou corrija as repetidas.',
    );
    expect(p.counts).toMatchObject({ ok: 1, failed: 3 });
    expect(service.log.filter((l) => l.startsWith('POST'))).toEqual([expect.stringContaining('/v2/faturamento/nfse/emitir')]);
    const two = setUp();
    const pair = two.book.sheet('Notas', NFSE_HEADER, [[7], [7]]);
    startBulk(two.deps, emit(), FAR());
    expect(pair.records()[1].Mensagem).toMatch(/^ID da fatura "7" repetido: está também na linha 2\. /);
  });

  it('a key that stops the run fails the job with its message, counting nothing', () => {
    const { book, deps } = setUp(fakeService({ unauthorized: true }));
    book.sheet('Notas', NFSE_HEADER, [[1001]]);
    const p = startBulk(deps, emit(), FAR());
    expect(p.status).toBe('failed');
    expect(p.done).toBe(true);
    expect(p.message).toBeTruthy();
    expect(p.counts).toMatchObject({ ok: 0, failed: 0 });
  });
});

describe('steps and deadlines', () => {
  it('a step whose deadline has passed leaves the job running where it was; the next step finishes it', () => {
    const { book, deps, service } = setUp();
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002], [1003]]);
    const started = startBulk(deps, emit(), clock - 1);
    expect(started).toMatchObject({ status: 'running', done: false, processed: 0 });
    expect(service.log).toEqual([]);
    expect(statuses(sheet)).toEqual(['', '', '']);
    // A second start on the same sheet goes on with this job instead.
    const busy = startBulk(deps, emit(), FAR());
    expect(busy.message).toBe('Já há um lote em andamento nesta aba (0 de 3 linhas). Ele continua de onde parou; espere terminar para começar outro.');
    expect(service.log).toEqual([]);
    const done = continueBulk(deps, started.jobId, FAR());
    expect(done).toMatchObject({ status: 'done', counts: { ok: 3 } });
    expect(statuses(sheet)).toEqual(['OK', 'OK', 'OK']);
    // A finished job only reports.
    expect(continueBulk(deps, started.jobId, FAR())).toEqual(done);
    const job = deps.jobs.get(started.jobId)!;
    expect(job.steps).toBe(2);
    expect(continueBulkJob(deps, job, FAR())).toEqual(progressOf(job));
  });

  it('rows moved between steps are found by their key, and a row gone is reported', () => {
    const { book, deps } = setUp();
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002], [1003]]);
    const started = startBulk(deps, emit(), clock - 1);
    // The user sorts the rows the other way round and deletes 1002.
    sheet.write(2, 1, [[1003], [1001], ['']]);
    const done = continueBulk(deps, started.jobId, FAR());
    expect(statuses(sheet)).toEqual(['OK', 'OK']);
    expect(sheet.records().map((r) => r['Fatura conferida'])).toEqual([1003, 1001]);
    expect(done.counts).toMatchObject({ ok: 2, failed: 1 });
    expect(done.warnings).toEqual(['Uma linha saiu da aba durante o lote e não foi processada (ID da fatura "1002").']);
  });

  it('cancelling stops a job and says what was done; a done job is left as it is', () => {
    const { book, deps } = setUp();
    book.sheet('Notas', NFSE_HEADER, [[1001]]);
    const started = startBulk(deps, emit(), clock - 1);
    const cancelled = cancelBulk(deps, started.jobId);
    expect(cancelled).toMatchObject({ status: 'cancelled', done: true });
    expect(cancelled.message).toBe(
      'Lote interrompido. 0 linhas enviadas com sucesso. Linhas PENDENTES são conferidas antes de qualquer reenvio quando você executar de novo.',
    );
    expect(continueBulk(deps, started.jobId, FAR()).status).toBe('cancelled');
    expect(() => cancelBulk(deps, 'nenhum')).toThrow('Este lote não existe mais.');
    expect(() => continueBulk(deps, 'nenhum', FAR())).toThrow(new BulkError('Este lote não existe mais: comece de novo pela barra lateral.'));
  });

  it('a sheet deleted between steps fails the job saying so', () => {
    const { book, deps } = setUp();
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001]]);
    const started = startBulk(deps, emit(), clock - 1);
    book.sheets = book.sheets.filter((s) => s !== sheet);
    expect(continueBulk(deps, started.jobId, FAR())).toMatchObject({ status: 'failed', message: 'A aba "Notas" foi apagada: o lote foi interrompido.' });
  });
});

describe('what a run is given', () => {
  it('refuses a missing sheet, a sheet without rows, a run without a connection', () => {
    const { book, deps } = setUp();
    expect(() => startBulk(deps, emit('Nenhuma'), FAR())).toThrow('A aba "Nenhuma" não existe nesta planilha.');
    try {
      startBulk(deps, emit('Nenhuma'), FAR());
    } catch (e) {
      expect((e as Error).name).toBe('BulkError');
    }
    book.sheet('Vazia', NFSE_HEADER);
    expect(() => startBulk(deps, emit('Vazia'), FAR())).toThrow('A aba "Vazia" não tem linhas abaixo do cabeçalho.');
    book.sheet('Notas', NFSE_HEADER, [[1]]);
    expect(() => startBulk(deps, { ...emit(), connection: '' }, FAR())).toThrow('Escolha a conexão (a organização) para onde as linhas serão enviadas.');
  });

  it('only the selected rows, when asked, and only on the sheet the selection is on', () => {
    const { book, deps } = setUp();
    const other = book.sheet('Outra', ['x'], [['y']]);
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002], [1003], [1004]]);
    book.selected = { sheetId: other.id, rows: [[2, 2]] };
    expect(() => startBulk(deps, emit('Notas', 'selected'), FAR())).toThrow('Selecione as linhas na aba "Notas" (a seleção atual está na aba "Outra").');
    book.selected = { sheetId: sheet.id, rows: [[1, 1]] };
    expect(() => startBulk(deps, emit('Notas', 'selected'), FAR())).toThrow('Nenhuma linha de dados selecionada');
    book.selected = {
      sheetId: sheet.id,
      rows: [
        [1, 2],
        [4, 9],
      ],
    };
    const p = startBulk(deps, emit('Notas', 'selected'), FAR());
    expect(p).toMatchObject({ total: 3, counts: { ok: 3 } });
    expect(statuses(sheet)).toEqual(['OK', '', 'OK', 'OK']);
  });

  it('a selection of too many separate runs is refused', () => {
    const { book, deps } = setUp();
    const sheet = book.sheet(
      'Notas',
      NFSE_HEADER,
      Array.from({ length: 700 }, (_, i) => [i + 1]),
    );
    book.selected = { sheetId: sheet.id, rows: Array.from({ length: 301 }, (_, i): [number, number] => [2 + 2 * i, 2 + 2 * i]) };
    expect(() => startBulk(deps, emit('Notas', 'selected'), FAR())).toThrow('A seleção tem 301 intervalos separados; use no máximo 300');
    book.selected = { sheetId: sheet.id, rows: Array.from({ length: 300 }, (_, i): [number, number] => [2 + 2 * i, 2 + 2 * i]) };
    expect(validateSheet(deps, { operation: 'emitirNfse', sheetName: 'Notas', scope: 'selected' }).total).toBe(300);
  });
});

describe('validateSheet', () => {
  it('checks every row, writes the problems beside them and sends nothing', () => {
    const { book, deps, service } = setUp();
    const header = [...NFSE_HEADER, 'Status', 'Mensagem', 'Fatura conferida'];
    const rows: CellValue[][] = [[1001, 'ERRO', 'antes', ''], ['x'], [1003, 'OK', '', 1003], [1004], [1005, 'PENDENTE'], [1006, 'OK', '', 999], [1007, 'ERRO']];
    const sheet = book.sheet('Notas', header, rows);
    const summary = validateSheet(deps, { operation: 'emitirNfse', sheetName: 'Notas', scope: 'all' });
    // 1006's OK was for another invoice (the sheet was imported again): it is to be sent.
    expect(summary).toMatchObject({ sheetName: 'Notas', total: 7, valid: 4, invalid: 1, untouched: 2, warnings: [] });
    expect(summary.problems).toEqual([expect.stringMatching(/^Linha 3, coluna "ID da fatura" \(A\): /)]);
    expect(service.log).toEqual([]);
    const read = sheet.records();
    expect(read.map((r) => r.Status)).toEqual(['', 'ERRO', 'OK', '', 'PENDENTE', '', '']);
    expect(read[6].Mensagem).toBe('Linha válida: pronta para enviar.');
    expect(read[0].Mensagem).toBe('Linha válida: pronta para enviar.');
    expect(read[3].Mensagem).toBe('');
    expect(read[5].Mensagem).toBe('Linha válida: pronta para enviar.');
    expect(sheet.backgrounds[2][0]).toBe(FAULT_COLOR);
  });

  it('at most five problems are listed for the sidebar', () => {
    const { book, deps } = setUp();
    book.sheet(
      'Notas',
      NFSE_HEADER,
      Array.from({ length: 7 }, () => ['x']),
    );
    const summary = validateSheet(deps, { operation: 'emitirNfse', sheetName: 'Notas', scope: 'all' });
    expect(summary.invalid).toBe(7);
    expect(summary.problems).toHaveLength(5);
  });
});

describe('creations with generated keys', () => {
  it('a blank ID de integração is generated and written before sending, and is what the service got', () => {
    const { book, deps, service } = setUp();
    const sheet = book.sheet('Lote', CUSTOM_HEADER, [customRow(''), customRow('K-1'), customRow('')]);
    const p = startBulk(deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, FAR());
    expect(p).toMatchObject({ status: 'done', counts: { ok: 3 } });
    const rows = sheet.records();
    expect(rows.map((r) => r['ID de integração'])).toEqual(['gerado-1', 'K-1', 'gerado-2']);
    expect([...service.subs.keys()].sort()).toEqual(['K-1', 'gerado-1', 'gerado-2']);
    expect(rows.map((r) => r['ID da assinatura criada'])).toEqual([
      service.subs.get('gerado-1')?.idAssinaturaContrato,
      service.subs.get('K-1')?.idAssinaturaContrato,
      service.subs.get('gerado-2')?.idAssinaturaContrato,
    ]);
    // A typed key is looked up first (it may exist already); a generated one cannot.
    expect(service.log.filter((l) => l.startsWith('GET'))).toEqual(['GET /v2/assinaturascontratos?idIntegracao=K-1']);
  });

  it('a typed key that already exists is JÁ EXISTE and nothing is sent', () => {
    const { book, deps, service } = setUp();
    service.subs.set('K-1', { idAssinaturaContrato: 77, idIntegracao: 'K-1' });
    const sheet = book.sheet('Lote', CUSTOM_HEADER, [customRow('K-1')]);
    const p = startBulk(deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, FAR());
    expect(sheet.records()[0]).toMatchObject({ Status: 'JÁ EXISTE', 'ID da assinatura criada': 77 });
    expect(p.counts).toMatchObject({ existing: 1 });
    expect(service.log.filter((l) => l.startsWith('POST'))).toEqual([]);
  });
});

describe('failedRanges', () => {
  it('the rows whose status is ERRO or PENDENTE, as ranges of the used width', () => {
    const { book, deps } = setUp();
    const sheet = book.sheet(
      'Notas',
      [...NFSE_HEADER, 'Status'],
      [
        [1, 'OK'],
        [2, 'erro'],
        [3, 'PENDENTE'],
        [4, ''],
        [5, 'ERRO'],
      ],
    );
    expect(failedRanges(deps, 'emitirNfse', 'Notas')).toEqual({ sheetId: sheet.id, ranges: ['A3:G4', 'A6:G6'], rows: 3 });
    book.sheet('Vazia', NFSE_HEADER);
    expect(failedRanges(deps, 'emitirNfse', 'Vazia')).toMatchObject({ ranges: [], rows: 0 });
  });
});

describe('keyField', () => {
  it('what tells each operation’s record', () => {
    expect(keyField(bulkOperation('criarAssinaturaPlano'))).toBe('idIntegracao');
    expect(keyField(bulkOperation('emitirNfse'))).toBe('idFatura');
    expect(keyField(bulkOperation('atualizarAssinaturaPlano'))).toBe('idAssinaturaContrato');
  });
});

describe('outcomes that stay unknown', () => {
  it('a row whose answer never comes and whose note is never found stays PENDENTE after the last pass', () => {
    const { book, deps, service } = setUp(fakeService({ drop: new Set([1001, 1002]) }));
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002], [1003]]);
    const p = startBulk(deps, emit(), FAR());
    expect(p).toMatchObject({ status: 'done', counts: { ok: 1, pending: 2, failed: 0 } });
    expect(p.message).toBe('1 linha enviada com sucesso, 2 PENDENTES (execute de novo para conferi-las).');
    expect(statuses(sheet)).toEqual(['PENDENTE', 'PENDENTE', 'OK']);
    // Sent once each, then only looked up, pass after pass: never sent blindly again.
    expect(service.log.filter((l) => l.includes('emitir'))).toHaveLength(3);
    expect(service.log.filter((l) => l === 'GET /v2/nfse?idFatura=1001').length).toBeGreaterThanOrEqual(2);
    const job = deps.jobs.get(p.jobId)!;
    expect(job.pass).toBe(2);
  });

  it('a later run looks PENDENTE rows up before anything else, and one found counts once', () => {
    const service = fakeService({ drop: new Set([1001]) });
    const { book, deps } = setUp(service);
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001]]);
    const first = startBulk(deps, emit(), FAR());
    expect(first.message).toBe('0 linhas enviadas com sucesso, 1 PENDENTE (execute de novo para conferi-las).');
    // The note turns up in the service after all.
    service.notes.set(1001, { idNotaFiscalServico: 42, idFatura: 1001, numeroNotaFiscalServico: '9', statusNotaFiscalServico: 'AUTORIZADA' });
    const second = startBulk(deps, emit(), FAR());
    expect(second).toMatchObject({ counts: { ok: 1, pending: 0, skipped: 0 } });
    expect(second.message).toBe('1 linha enviada com sucesso.');
    expect(sheet.records()[0]).toMatchObject({ Status: 'OK', 'ID da NFS-e': 42 });
  });

  it('a note emitted before its number existed is looked up again until it has one, counted as skipped', () => {
    const { book, deps, service } = setUp();
    service.notes.set(1001, { idNotaFiscalServico: 42, idFatura: 1001, numeroNotaFiscalServico: '555', statusNotaFiscalServico: 'AUTORIZADA' });
    const header = ['ID da fatura', 'Status', 'ID da NFS-e', 'Número da NFS-e', 'Fatura conferida', 'Mensagem', 'Processado em'];
    const sheet = book.sheet('Notas', header, [[1001, 'OK', 42, '', 1001, 'NFS-e 42 emitida (PROCESSANDO).', '']]);
    const p = startBulk(deps, emit(), FAR());
    expect(p).toMatchObject({ counts: { skipped: 1, ok: 0, existing: 0, pending: 0 } });
    expect(p.message).toBe('0 linhas enviadas com sucesso, 1 já estava OK.');
    expect(sheet.records()[0]['Número da NFS-e']).toBe('555');
    expect(service.log.filter((l) => l.startsWith('POST'))).toEqual([]);
  });
});

describe('templates and their example row', () => {
  it('the example row of a template is never sent nor counted, even with its status changed', () => {
    const { book, deps, service } = setUp();
    const made = createTemplate(book, bulkOperation('emitirNfse'), zone);
    const sheet = book.byId(made.sheetId)!;
    sheet.write(2, 2, [['']]);
    sheet.write(3, 1, [[2002]]);
    const p = startBulk(deps, emit(made.sheetName), FAR());
    expect(p).toMatchObject({ total: 1, counts: { ok: 1 } });
    expect(service.log.filter((l) => l.startsWith('POST'))).toEqual(['POST /v2/faturamento/nfse/emitir']);
    expect(statuses(sheet)).toEqual(['', 'OK']);
  });
});

describe('customers by CPF/CNPJ in a run', () => {
  const op = 'criarAssinaturaPersonalizada' as const;
  const header = [...CUSTOM_HEADER, 'CPF/CNPJ do cliente'];
  const row = (key: string, idCliente: CellValue, cpf: string): CellValue[] => [
    key,
    idCliente,
    adesao,
    '11/2026',
    'MENSAL',
    789,
    'Honorários',
    100,
    'AGRUPADA',
    10,
    cpf,
  ];
  const customers = [
    { idCliente: 321, cpfCnpj: '12345678909', isAtivo: true },
    { idCliente: 654, cpfCnpj: '98765432100', isAtivo: false },
  ];

  it('sends the customer found; refuses one not found, inactive or not the typed one; each looked up once', () => {
    const { book, deps, service } = setUp(fakeService({ customers }));
    const sheet = book.sheet('Lote', header, [
      row('A', '', '123.456.789-09'),
      row('B', '', '111.444.777-35'),
      row('C', '', '98765432100'),
      row('D', 999, '12345678909'),
      row('E', '', '12345678909'),
      row('F', 321, '12345678909'),
    ]);
    const p = startBulk(deps, { operation: op, sheetName: 'Lote', connection: 'x', scope: 'all' }, FAR());
    expect(p.counts).toMatchObject({ ok: 3, failed: 3 });
    expect(statuses(sheet)).toEqual(['OK', 'ERRO', 'ERRO', 'ERRO', 'OK', 'OK']);
    const messages = sheet.records().map((r) => r.Mensagem);
    expect(messages[1]).toBe(
      'Linha 3, coluna "CPF/CNPJ do cliente" (K): nenhum cliente tem o CPF/CNPJ 111.444.777-35: confira o número ou use a coluna "ID do cliente".',
    );
    expect(messages[2]).toContain('está inativo');
    expect(messages[3]).toBe(
      'Linha 5, coluna "CPF/CNPJ do cliente" (K): o CPF/CNPJ 123.456.789-09 é do cliente ID 321, mas a coluna "ID do cliente" diz 999: corrija uma das duas ou deixe só uma preenchida.',
    );
    expect(service.log.filter((l) => l.startsWith('GET /v2/clientes'))).toHaveLength(3);
    expect(deps.jobs.get(p.jobId)?.customers).toEqual({ '12345678909': 321 });
    expect(sheet.backgrounds[2][10]).toBe(FAULT_COLOR);
  });

  it('Validar looks the customers up with the chosen connection, and only then', () => {
    const { book, deps, service } = setUp(fakeService({ customers }));
    book.sheet('Lote', header, [row('A', '', '111.444.777-35')]);
    const without = validateSheet(deps, { operation: op, sheetName: 'Lote', scope: 'all' });
    expect(without).toMatchObject({ valid: 1, invalid: 0 });
    expect(service.log).toEqual([]);
    const summary = validateSheet(deps, { operation: op, sheetName: 'Lote', scope: 'all', connectionId: 'c1' });
    expect(summary).toMatchObject({ valid: 0, invalid: 1 });
    expect(summary.problems[0]).toContain('nenhum cliente tem o CPF/CNPJ 111.444.777-35');
  });
});

describe('plan subscriptions and their discounts', () => {
  /** The plan template's columns but the CPF/CNPJ one. */
  const PLAN = bulkOperation('criarAssinaturaPlano')
    .columns.filter((c) => c.in === undefined)
    .map((c) => c.label);
  const DISCOUNTS = discountColumns.map((c) => c.label);
  const plan = (key: string): CellValue[] => [key, 321, adesao, '11/2026', 12, 1, 'AGRUPADA', 10];
  const discount = (key: string): CellValue[] => [key, '', 'Fidelidade', 'VALOR', 10, '11/2026', '10/2027'];

  it('warns of discounts linked to no subscription and of rows of the sheet they belong to none', () => {
    const { book, deps } = setUp();
    book.sheet('Planos', PLAN, [plan('P-1'), plan('P-2')]);
    book.sheet('Descontos', DISCOUNTS, [discount('P-1'), discount(''), discount('P-9'), discount('')]);
    const summary = validateSheet(deps, { operation: 'criarAssinaturaPlano', sheetName: 'Planos', scope: 'all' });
    expect(summary.warnings).toEqual([
      'Aba "Descontos": as linhas 3, 5 não dizem a que assinatura pertencem (coluna "ID de integração da assinatura") e foram ignoradas.',
      'Aba "Descontos": nenhuma linha desta aba tem o ID de integração "P-9"; esses descontos não serão enviados.',
    ]);
    expect(summary.valid).toBe(2);
    // Checking some rows only says nothing of discounts the other rows may own.
    book.selected = { sheetId: book.byName('Planos')!.id, rows: [[3, 3]] };
    const some = validateSheet(deps, { operation: 'criarAssinaturaPlano', sheetName: 'Planos', scope: 'selected' });
    expect(some.warnings).toHaveLength(1);
    expect(some.valid).toBe(1);
  });

  it('sends each plan with its own discounts', () => {
    const { book, deps, service } = setUp();
    book.sheet('Planos', PLAN, [plan('P-1'), plan('P-2')]);
    book.sheet('Descontos', DISCOUNTS, [discount('P-2'), discount('P-2')]);
    const p = startBulk(deps, { operation: 'criarAssinaturaPlano', sheetName: 'Planos', connection: 'x', scope: 'all' }, FAR());
    expect(p.counts).toMatchObject({ ok: 2 });
    expect(p.warnings).toEqual([]);
    expect(service.posted.map((b) => (b.descontos as Array<{ idIntegracao: string }>).map((d) => d.idIntegracao))).toEqual([[], ['P-2-D1', 'P-2-D2']]);
  });
});

describe('who started it', () => {
  it('the owner is told of the job before anything is sent, and shown in the progress', () => {
    const vouched: string[] = [];
    const { book, deps, service } = setUp(fakeService(), { vouch: (job) => vouched.push(`${job.id}:${job.status}:${service.log.length}`) });
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001]]);
    const p = startBulk(deps, { ...emit(), owner: { id: 'u1', email: 'dona@example.com' }, connectionId: 'c1' }, FAR());
    expect(vouched).toEqual([`${sheet.id}:running:0`]);
    expect(p.owner).toBe('dona@example.com');
    expect(deps.jobs.get(p.jobId)).toMatchObject({ connectionId: 'c1', connection: 'Empresa', owner: { id: 'u1' } });
  });
});

describe('what a kill or the hard limit leaves', () => {
  it('rows written OK by an execution killed before its checkpoint count as sent by this run, and are not sent again', () => {
    const { book, deps, service, store } = setUp();
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002]]);
    killedAfterResults(sheet, store, () => startBulk(deps, emit(), FAR()));
    const jobId = String(sheet.id);
    expect(deps.jobs.get(jobId)).toMatchObject({ status: 'running', cursor: 0 });
    const posts = service.log.length;
    const p = continueBulk(deps, jobId, FAR());
    expect(p).toMatchObject({ status: 'done', counts: { ok: 2, skipped: 0 } });
    expect(service.log.length).toBe(posts);
  });

  it('no batch starts that could not end before the execution’s hard limit', () => {
    const { book, deps, service } = setUp();
    book.sheet('Notas', NFSE_HEADER, [[1001]]);
    deps.limit = clock + 1_000;
    const p = startBulk(deps, emit(), FAR());
    expect(p).toMatchObject({ status: 'running', processed: 0 });
    expect(service.log).toEqual([]);
    deps.limit = undefined;
    expect(continueBulk(deps, p.jobId, FAR())).toMatchObject({ status: 'done', counts: { ok: 1 } });
  });

  it('a run too large to keep each row’s key warns not to sort or delete rows until it ends', () => {
    const { book, deps } = setUp();
    const key = (i: number) => `K-${String(i).padStart(4, '0')}-${'x'.repeat(52)}`;
    book.sheet(
      'Lote',
      CUSTOM_HEADER,
      Array.from({ length: 1_000 }, (_, i) => customRow(key(i))),
    );
    const p = startBulk(deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, clock - 1);
    expect(p.warnings).toEqual([
      'Lote grande demais para guardar a chave de cada linha: se ele continuar em outra execução, as linhas são achadas pela posição. Não ordene nem apague linhas desta aba até ele terminar.',
    ]);
    expect(deps.jobs.get(p.jobId)?.keys).toBeUndefined();
    // Exactly at the bound the keys are still kept.
    const exact = setUp();
    const short = (i: number) => `K-${String(i).padStart(4, '0')}-${'x'.repeat(50)}`;
    exact.book.sheet(
      'Lote',
      CUSTOM_HEADER,
      Array.from({ length: 1_000 }, (_, i) => customRow(short(i))),
    );
    const atBound = startBulk(exact.deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, clock - 1);
    expect(atBound.warnings).toEqual([]);
    const small = setUp();
    small.book.sheet(
      'Lote',
      CUSTOM_HEADER,
      Array.from({ length: 900 }, (_, i) => customRow(key(i))),
    );
    const fits = startBulk(small.deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, clock - 1);
    expect(fits.warnings).toEqual([]);
    expect(small.deps.jobs.get(fits.jobId)?.keys).toHaveLength(900);
  });
});

describe('what the user changes between steps', () => {
  it('an invoice typed again while the run waits is refused on the row not yet sent, and a key gone is reported', () => {
    const { book, deps, service } = setUp();
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002], [1003]]);
    const started = startBulk(deps, emit(), clock - 1);
    // A new row repeats 1002; the row of 1003 now says 1004.
    sheet.write(4, 1, [[1004], [1002]]);
    const p = continueBulk(deps, started.jobId, FAR());
    expect(statuses(sheet)).toEqual(['OK', 'ERRO', '', '']);
    expect(sheet.records()[1].Mensagem).toMatch(/^ID da fatura "1002" repetido: está também na linha 5\./);
    expect(p.counts).toMatchObject({ ok: 1, failed: 2 });
    expect(p.warnings).toEqual(['Uma linha saiu da aba durante o lote e não foi processada (ID da fatura "1003").']);
    expect(service.log.filter((l) => l.startsWith('POST'))).toHaveLength(1);
  });

  it('a damaged example mark is ignored, never a reason to stop', () => {
    const { book, deps } = setUp();
    const made = createTemplate(book, bulkOperation('emitirNfse'), zone);
    const sheet = book.byId(made.sheetId)!;
    sheet.setSheetTag('faturamento.exemplo', '{quebrado');
    sheet.write(2, 2, [['']]);
    // Without its mark and its status the example row is a row like any other.
    expect(startBulk(deps, emit(made.sheetName), FAR())).toMatchObject({ status: 'done', total: 1, counts: { ok: 1 } });
  });
});

describe('a run over several steps', () => {
  /** A service taking 30 s a request: a step of 100 s ends after its first batch. */
  const slow = (extra: Parameters<typeof fakeService>[0] = {}) => fakeService({ ...extra, onRequest: () => (clock += 30_000) });

  it('a step ends after the batch the deadline leaves room for; the next goes on from the first row not done', () => {
    const { book, deps, service } = setUp(slow());
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002], [1003], [1004], [1005], [1006], [1007]]);
    const first = startBulk(deps, { ...emit(), batchSize: 2 }, clock + 100_000);
    // Two waves of two rows fit in 100 s at 30 s a request; the third wave is not started.
    expect(first).toMatchObject({ status: 'running', processed: 4, counts: { ok: 4 } });
    expect(statuses(sheet)).toEqual(['OK', 'OK', 'OK', 'OK', '', '', '']);
    // The user sorts the rows not done yet the other way round.
    sheet.write(6, 1, [[1007], [1006], [1005]]);
    let p = first;
    for (let i = 0; i < 5 && !p.done; i++) p = continueBulk(deps, first.jobId, clock + 100_000);
    expect(p).toMatchObject({ status: 'done', counts: { ok: 7, failed: 0, skipped: 0 } });
    expect(p.warnings).toEqual([]);
    expect(sheet.records().map((r) => r['Fatura conferida'])).toEqual([1001, 1002, 1003, 1004, 1007, 1006, 1005]);
    expect(service.log.filter((l) => l.startsWith('POST'))).toHaveLength(7);
  });

  it('a customer found by CPF/CNPJ in one step is not looked up again in the next', () => {
    const customers = [
      { idCliente: 321, cpfCnpj: '12345678909', isAtivo: true },
      { idCliente: 654, cpfCnpj: '98765432100', isAtivo: true },
    ];
    const { book, deps, service } = setUp(slow({ customers }));
    const header = [...CUSTOM_HEADER, 'CPF/CNPJ do cliente'];
    const row = (key: string, cpf = '123.456.789-09'): CellValue[] => [key, '', adesao, '11/2026', 'MENSAL', 789, 'Honorários', 100, 'AGRUPADA', 10, cpf];
    // The other customer's row comes after what the first batch takes.
    const keys = Array.from({ length: 24 }, (_, i) => `K-${i}`);
    book.sheet('Lote', header, [...keys.map((k) => row(k)), row('B', '98765432100')]);
    const first = startBulk(
      deps,
      { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all', batchSize: 1 },
      clock + 100_000,
    );
    expect(first.status).toBe('running');
    expect(deps.jobs.get(first.jobId)?.customers).toEqual({ '12345678909': 321 });
    let p = first;
    for (let i = 0; i < 60 && !p.done; i++) p = continueBulk(deps, first.jobId, clock + 100_000);
    expect(p).toMatchObject({ status: 'done', counts: { ok: 25 } });
    expect(service.log.filter((l) => l.startsWith('GET /v2/clientes'))).toHaveLength(2);
    expect(service.posted.map((b) => b.idCliente)).toEqual([...keys.map(() => 321), 654]);
    expect(deps.jobs.get(first.jobId)?.customers).toEqual({ '12345678909': 321, '98765432100': 654 });
  });

  it('blank keys are all generated and written when the run starts, before anything is sent', () => {
    const { book, deps, service } = setUp();
    const sheet = book.sheet('Lote', CUSTOM_HEADER, [customRow(''), customRow('')]);
    const started = startBulk(deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, clock - 1);
    expect(service.log).toEqual([]);
    expect(sheet.records().map((r) => r['ID de integração'])).toEqual(['gerado-1', 'gerado-2']);
    expect(deps.jobs.get(started.jobId)?.keys).toEqual(['gerado-1', 'gerado-2']);
    const done = continueBulk(deps, started.jobId, FAR());
    expect(done).toMatchObject({ status: 'done', counts: { ok: 2, failed: 0 } });
    expect([...service.subs.keys()].sort()).toEqual(['gerado-1', 'gerado-2']);
    expect(service.log.filter((l) => l.startsWith('POST'))).toHaveLength(2);
  });

  it('every row is marked PENDENTE, and the marks flushed, before its request leaves', () => {
    let sheet: MemorySheet | undefined;
    const seen: string[] = [];
    const { book, deps } = setUp(fakeService({ onRequest: () => seen.push(`${statuses(sheet as MemorySheet).join(',')} ${book.flushes}`) }));
    sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002]]);
    startBulk(deps, emit(), FAR());
    expect(seen[0]).toBe('PENDENTE,PENDENTE 1');
    expect(sheet.records()[0].Mensagem).not.toBe('Enviando…');
  });
});

describe('a rerun of rows already done', () => {
  it('a creation sheet whose rows are all OK sends and looks up nothing', () => {
    const { book, deps, service } = setUp();
    book.sheet('Lote', CUSTOM_HEADER, [customRow('K-1'), customRow('K-2')]);
    startBulk(deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, FAR());
    const before = service.log.length;
    const again = startBulk(deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, FAR());
    expect(again.counts).toMatchObject({ skipped: 2, ok: 0 });
    expect(service.log.length).toBe(before);
  });

  it('a PENDENTE row whose outcome became unknown minutes ago is looked up, not resent, and keeps that time', () => {
    const { book, deps, service } = setUp();
    const when = new Date(clock - 60_000);
    const header = ['ID da fatura', 'Status', 'ID da NFS-e', 'Número da NFS-e', 'Fatura conferida', 'Mensagem', 'Processado em'];
    const sheet = book.sheet('Notas', header, [[1001, 'PENDENTE', '', '', '', 'Enviando…', when]]);
    const p = startBulk(deps, emit(), FAR());
    expect(p.counts).toMatchObject({ pending: 1, ok: 0 });
    expect(service.log.filter((l) => l.startsWith('POST'))).toEqual([]);
    expect(service.log.filter((l) => l === 'GET /v2/nfse?idFatura=1001').length).toBeGreaterThanOrEqual(1);
    expect(sheet.records()[0]).toMatchObject({ Status: 'PENDENTE', 'Processado em': when });
    // Long enough after, nothing found means nothing was written: it is sent.
    sheet.write(2, 7, [[new Date(clock - 3_600_000)]]);
    const later = startBulk(deps, emit(), FAR());
    expect(later.counts).toMatchObject({ ok: 1, pending: 0 });
    expect(service.log.filter((l) => l.startsWith('POST'))).toHaveLength(1);
  });
});

describe('cancelling', () => {
  it('a failed job can be cancelled; a finished one stays as it ended', () => {
    const { book, deps } = setUp(fakeService({ unauthorized: true }));
    book.sheet('Notas', NFSE_HEADER, [[1001]]);
    const failed = startBulk(deps, emit(), FAR());
    expect(cancelBulk(deps, failed.jobId).status).toBe('cancelled');
    const ok = setUp();
    ok.book.sheet('Notas', NFSE_HEADER, [[1001]]);
    const done = startBulk(ok.deps, emit(), FAR());
    expect(cancelBulk(ok.deps, done.jobId)).toEqual(done);
  });
});

describe('keys typed with spaces', () => {
  it('the same invoice with and without spaces is one invoice', () => {
    const { book, deps } = setUp();
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [' 1001 ']]);
    startBulk(deps, emit(), FAR());
    expect(statuses(sheet)).toEqual(['ERRO', 'ERRO']);
  });

  it('a row is still found after its key is retyped without the spaces it had', () => {
    const { book, deps } = setUp();
    const sheet = book.sheet('Lote', CUSTOM_HEADER, [customRow('K-1 '), customRow('K-2')]);
    const started = startBulk(deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, clock - 1);
    sheet.write(2, 1, [['K-1']]);
    expect(continueBulk(deps, started.jobId, FAR())).toMatchObject({ status: 'done', counts: { ok: 2, failed: 0 } });
  });
});

describe('what a run reports along the way', () => {
  const slow = (extra: Parameters<typeof fakeService>[0] = {}) => fakeService({ ...extra, onRequest: () => (clock += 30_000) });

  it('a job still running counts every row it has settled, however it ended', () => {
    const service = slow();
    service.notes.set(1003, { idNotaFiscalServico: 9, idFatura: 1003, numeroNotaFiscalServico: '1', statusNotaFiscalServico: 'AUTORIZADA' });
    const { book, deps } = setUp(service);
    const header = ['ID da fatura', 'Status', 'ID da NFS-e', 'Número da NFS-e', 'Fatura conferida'];
    book.sheet('Notas', header, [[1001, 'OK', 1, '5', 1001], ['x'], [1003], [1004], [1005], [1006], [1007], [1008]]);
    const first = startBulk(deps, { ...emit(), batchSize: 2 }, clock + 100_000);
    expect(first.status).toBe('running');
    const { ok, existing, skipped, failed } = first.counts;
    expect({ existing, skipped, failed }).toEqual({ existing: 1, skipped: 1, failed: 1 });
    expect(first.processed).toBe(ok + 3);
    const busy = startBulk(deps, emit(), FAR());
    expect(busy.message).toBe(`Já há um lote em andamento nesta aba (${ok + 3} de 8 linhas). Ele continua de onde parou; espere terminar para começar outro.`);
  });

  it('many rows gone are counted and the first five named', () => {
    const { book, deps } = setUp();
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1], [2], [3], [4], [5], [6], [7]]);
    const started = startBulk(deps, emit(), clock - 1);
    sheet.write(2, 1, [[7], [''], [''], [''], [''], [''], ['']]);
    const done = continueBulk(deps, started.jobId, FAR());
    expect(done.warnings).toEqual(['6 linhas saíram da aba durante o lote e não foram processadas (ID da fatura "1", "2", "3", "4", "5"…).']);
    expect(done.counts).toMatchObject({ ok: 1, failed: 6 });
  });

  it('five orphan discounts are all named; a sixth is left to an ellipsis', () => {
    const { book, deps } = setUp();
    const plan = bulkOperation('criarAssinaturaPlano');
    const header = plan.columns.filter((c) => c.in === undefined).map((c) => c.label);
    book.sheet('Planos', header, [['P-0', 321, adesao, '11/2026', 12, 1, 'AGRUPADA', 10]]);
    const discounts = book.sheet(
      'Descontos',
      discountColumns.map((c) => c.label),
      ['P-1', 'P-2', 'P-3', 'P-4', 'P-5'].map((k) => [k, '', 'Fidelidade', 'VALOR', 10, '11/2026', '10/2027']),
    );
    const five = validateSheet(deps, { operation: 'criarAssinaturaPlano', sheetName: 'Planos', scope: 'all' });
    expect(five.warnings).toEqual([
      'Aba "Descontos": nenhuma linha desta aba tem o ID de integração "P-1", "P-2", "P-3", "P-4", "P-5"; esses descontos não serão enviados.',
    ]);
    discounts.write(7, 1, [['P-6', '', 'Fidelidade', 'VALOR', 10, '11/2026', '10/2027']]);
    const six = validateSheet(deps, { operation: 'criarAssinaturaPlano', sheetName: 'Planos', scope: 'all' });
    expect(six.warnings[0]).toContain('"P-5"…; esses descontos');
  });

  it('the rows sent at once are the batch size asked for, between 1 and 50', () => {
    const { book, deps, service } = setUp();
    book.sheet(
      'Notas',
      NFSE_HEADER,
      Array.from({ length: 60 }, (_, i) => [2000 + i]),
    );
    startBulk(deps, { ...emit(), batchSize: 500 }, FAR());
    expect(Math.max(...service.waves)).toBe(50);
    const one = setUp();
    one.book.sheet('Notas', NFSE_HEADER, [[1], [2], [3]]);
    startBulk(one.deps, { ...emit(), batchSize: 0 }, FAR());
    expect(one.service.waves).toEqual([]);
    expect(one.service.log.filter((l) => l.startsWith('POST'))).toHaveLength(3);
  });
});

describe('rows left PENDENTE across steps', () => {
  it('are looked up in the retry pass wherever the user moved them, and never sent twice', () => {
    const { book, deps, service } = setUp(fakeService({ drop: new Set([1001, 1004]), onRequest: () => (clock += 30_000) }));
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002], [1003], [1004], [1005]]);
    let p = startBulk(deps, { ...emit(), batchSize: 2 }, clock + 100_000);
    for (let i = 0; i < 20 && !p.done; i++) {
      // Between steps the user keeps sorting the sheet the other way round.
      const ids = sheet.read(2, 1, 5, 1).flat();
      const rest = sheet.read(2, 2, 5, 6);
      sheet.write(2, 1, ids.map((id, k) => [id, ...rest[k]]).reverse());
      p = continueBulk(deps, p.jobId, clock + 100_000);
    }
    expect(p).toMatchObject({ status: 'done', counts: { ok: 3, pending: 2, failed: 0 } });
    const byInvoice = Object.fromEntries(sheet.records().map((r) => [r['ID da fatura'], r.Status]));
    expect(byInvoice).toEqual({ 1001: 'PENDENTE', 1002: 'OK', 1003: 'OK', 1004: 'PENDENTE', 1005: 'OK' });
    expect(service.log.filter((l) => l.includes('emitir'))).toHaveLength(5);
    expect(deps.jobs.get(p.jobId)?.pass).toBe(2);
  });
});

describe('failedRanges of a single row', () => {
  it('a sheet with one data row in error gives that row', () => {
    const { book, deps } = setUp();
    book.sheet('Notas', [...NFSE_HEADER, 'Status'], [[1, 'ERRO']]);
    expect(failedRanges(deps, 'emitirNfse', 'Notas')).toMatchObject({ ranges: ['A2:G2'], rows: 1 });
  });
});

describe('rows that are not sent', () => {
  it('blank rows in the scope are neither counted nor lost when the run goes on in a later step', () => {
    const { book, deps } = setUp();
    book.sheet('Notas', NFSE_HEADER, [[1001], [''], [1003]]);
    const started = startBulk(deps, emit(), clock - 1);
    const done = continueBulk(deps, started.jobId, FAR());
    expect(done).toMatchObject({ status: 'done', total: 2, counts: { ok: 2, failed: 0 } });
    expect(done.warnings).toEqual([]);
  });

  it('a row marked EXEMPLO is skipped; one that shares a single value with the example is sent', () => {
    const { book, deps, service } = setUp();
    const made = createTemplate(book, bulkOperation('criarAssinaturaPersonalizada'), zone);
    const sheet = book.byId(made.sheetId)!;
    // Same customer as the example row, otherwise the user's own.
    sheet.write(3, 1, [['MEU-1', 123, adesao, '11/2026', 'MENSAL', 789, 'Honorários', 100, 'AGRUPADA', 10, '']]);
    sheet.write(4, 1, [['MEU-2', 124, adesao, '11/2026', 'MENSAL', 789, 'Honorários', 100, 'AGRUPADA', 10, '', 'exemplo']]);
    const p = startBulk(deps, { operation: 'criarAssinaturaPersonalizada', sheetName: made.sheetName, connection: 'x', scope: 'all' }, FAR());
    expect(p).toMatchObject({ total: 1, counts: { ok: 1 } });
    expect(service.posted.map((b) => b.idIntegracao)).toEqual(['MEU-1']);
  });

  it('an example mark naming no column of the sheet marks nothing', () => {
    const { book, deps } = setUp();
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001]]);
    sheet.setSheetTag('faturamento.exemplo', JSON.stringify({ outraColuna: '1' }));
    expect(startBulk(deps, emit(), FAR())).toMatchObject({ total: 1, counts: { ok: 1 } });
  });

  it('a Descontos sheet concerns plan subscriptions only', () => {
    const { book, deps } = setUp();
    book.sheet(
      'Descontos',
      discountColumns.map((c) => c.label),
      [['', '', 'Sem dono', 'VALOR', 10, '11/2026', '10/2027']],
    );
    book.sheet('Notas', NFSE_HEADER, [[1001]]);
    expect(startBulk(deps, emit(), FAR()).warnings).toEqual([]);
  });

  it('a typed key with an old ERRO is looked up before it is created, like any new row', () => {
    const { book, deps, service } = setUp();
    service.subs.set('K-1', { idAssinaturaContrato: 77, idIntegracao: 'K-1' });
    const sheet = book.sheet('Lote', [...CUSTOM_HEADER, 'Status'], [[...customRow('K-1'), 'ERRO']]);
    startBulk(deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, FAR());
    expect(statuses(sheet)).toEqual(['JÁ EXISTE']);
    expect(service.posted).toEqual([]);
  });
});

describe('a service asking to slow down', () => {
  it('after a 429 the next batch sends half as many rows at once, then one more each batch', () => {
    const { book, deps, service } = setUp(fakeService({ throttle: new Set([1]) }));
    const sheet = book.sheet(
      'Notas',
      NFSE_HEADER,
      Array.from({ length: 100 }, (_, i) => [i + 1]),
    );
    let p = startBulk(deps, { ...emit(), batchSize: 4 }, FAR());
    // The 429 ends the step: the rows it did not reach go on in the next.
    expect(p.status).toBe('running');
    for (let i = 0; i < 5 && !p.done; i++) p = continueBulk(deps, p.jobId, FAR());
    expect(p).toMatchObject({ status: 'done', counts: { ok: 100 } });
    expect(statuses(sheet).every((st) => st === 'OK')).toBe(true);
    // Four at once until the 429, then half as many; each batch after it one more, never past what was asked.
    expect(service.waves.slice(0, 2)).toEqual([4, 2]);
    expect(service.waves.at(-1)).toBe(3);
    expect(Math.max(...service.waves)).toBe(4);
  });
});

describe('updates whose outcome was unknown', () => {
  it('a PENDENTE update is read back first: sent again only when the record lacks it', () => {
    const { book, deps, service } = setUp();
    service.byId.set(5, { idAssinaturaContrato: 5, quantidade: 3, descricaoAssinaturaContrato: 'Plano' });
    service.byId.set(6, { idAssinaturaContrato: 6, quantidade: 1, descricaoAssinaturaContrato: 'Plano' });
    const long = new Date(clock - 3_600_000);
    const header = ['ID da assinatura', 'Quantidade', 'Descrição', 'Status', 'Mensagem', 'Processado em'];
    const sheet = book.sheet('Planos', header, [
      [5, 3, 'Plano', 'PENDENTE', 'Enviando…', long],
      [6, 4, 'Plano', 'PENDENTE', 'Enviando…', long],
    ]);
    const p = startBulk(deps, { operation: 'atualizarAssinaturaPlano', sheetName: 'Planos', connection: 'x', scope: 'all' }, FAR());
    expect(p.counts).toMatchObject({ ok: 2, pending: 0, failed: 0 });
    expect(statuses(sheet)).toEqual(['OK', 'OK']);
    expect(service.log.filter((l) => l.startsWith('PUT'))).toEqual(['PUT /v2/assinaturascontratos/plano/6']);
    expect(service.log.filter((l) => l.startsWith('GET'))).toHaveLength(2);
    expect(service.byId.get(6)?.quantidade).toBe(4);
  });
});

describe('dates from another realm', () => {
  it('a row written OK before a kill counts as this run’s, and a recent PENDENTE waits, whatever realm their dates come from', () => {
    const { book, deps, service, store } = setUp();
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001]]);
    foreignDates(sheet);
    killedAfterResults(sheet, store, () => startBulk(deps, emit(), FAR()));
    expect(continueBulk(deps, String(sheet.id), FAR()).counts).toMatchObject({ ok: 1, skipped: 0 });

    const pending = setUp();
    const header = ['ID da fatura', 'Status', 'ID da NFS-e', 'Número da NFS-e', 'Fatura conferida', 'Mensagem', 'Processado em'];
    const waiting = pending.book.sheet('Notas', header, [[2002, 'PENDENTE', '', '', '', 'Enviando…', new Date(clock - 60_000)]]);
    foreignDates(waiting);
    expect(startBulk(pending.deps, emit(), FAR()).counts).toMatchObject({ pending: 1 });
    expect(pending.service.log.filter((l) => l.startsWith('POST'))).toEqual([]);
    expect(service.log.filter((l) => l.startsWith('POST'))).toHaveLength(1);
  });
});
