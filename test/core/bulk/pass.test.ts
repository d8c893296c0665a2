/**
 * A pass over a job's rows, batch by batch: what is sent and what never is,
 * the PENDENTE marks before any request, rows whose wave never started put
 * back, unknown outcomes looked up before anything is sent again, the batch
 * width after a 429, and what a kill or the hard limit leaves.
 */
import { describe, expect, it } from 'vitest';
import { continueBulk } from '../../../src/core/bulk/job';
import { startBulk } from '../../../src/core/bulk/launch';
import { FAULT_COLOR } from '../../../src/core/bulk/sheet-io';
import type { CellValue } from '../../../src/core/sheets/table';
import { CUSTOM_HEADER, deriveOnly } from './fixtures';
import type { MemorySheet } from './memory-book';
import { foreignDates } from './foreign-dates';
import { adesao, clock, customRow, emit, FAR, fakeService, killedAfterResults, NFSE_HEADER, setUp, statuses } from './fake-service';

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

  it('while it is sent a row says so (PENDENTE, Enviando…); a done note looked up for its number keeps what it says', () => {
    let sheet: MemorySheet | undefined;
    const seen: string[] = [];
    const service = fakeService({
      onRequest: () =>
        seen.push(
          (sheet as MemorySheet)
            .records()
            .map((r) => `${r.Status}:${r.Mensagem}`)
            .join(' | '),
        ),
    });
    service.notes.set(1001, { idNotaFiscalServico: 42, idFatura: 1001, numeroNotaFiscalServico: '555', statusNotaFiscalServico: 'AUTORIZADA' });
    const { book, deps } = setUp(service);
    const header = ['ID da fatura', 'Status', 'ID da NFS-e', 'Número da NFS-e', 'Fatura conferida', 'Mensagem', 'Processado em'];
    sheet = book.sheet('Notas', header, [[1001, 'OK', 42, '', 1001, 'NFS-e 42 emitida.', ''], [1002]]);
    startBulk(deps, emit(), FAR());
    expect(seen[0]).toBe('OK:NFS-e 42 emitida. | PENDENTE:Enviando…');
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
    deps.limit = clock.t + 1_000;
    const p = startBulk(deps, emit(), FAR());
    expect(p).toMatchObject({ status: 'running', processed: 0 });
    expect(service.log).toEqual([]);
    deps.limit = undefined;
    expect(continueBulk(deps, p.jobId, FAR())).toMatchObject({ status: 'done', counts: { ok: 1 } });
  });

  it("every request of a run goes through a client derived with the step's limit, never the connection's own", () => {
    const service = fakeService({ customers: [{ idCliente: 321, cpfCnpj: '12345678909', isAtivo: true }] });
    const limits: Array<number | undefined> = [];
    const { book, deps } = setUp(service, { clientFor: () => deriveOnly(service.client, limits) });
    const limit = clock.t + 3_600_000;
    deps.limit = limit;
    const row = [...customRow('K-1'), '123.456.789-09'];
    row[1] = '';
    book.sheet('Lote', [...CUSTOM_HEADER, 'CPF/CNPJ do cliente'], [row]);
    const started = startBulk(deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, clock.t - 1);
    // A job kept from before customers were remembered: its step looks the CPF/CNPJ up again.
    const job = deps.jobs.get(started.jobId);
    delete job?.customers;
    deps.jobs.put(started.jobId, job as NonNullable<typeof job>);
    const p = continueBulk(deps, started.jobId, FAR());
    expect(p).toMatchObject({ status: 'done', counts: { ok: 1 } });
    expect(service.posted.map((b) => b.idCliente)).toEqual([321]);
    expect(service.log.filter((l) => l.startsWith('GET /v2/clientes'))).toHaveLength(2);
    // The start's check of the CPF/CNPJ with the execution's limit, then the batch's customers and its send, each with the step's.
    expect(limits).toHaveLength(3);
    expect(limits[0]).toBe(limit);
    for (const l of limits) expect(l).toBeLessThanOrEqual(limit);
  });

  it('a run too large to keep each row’s key marks its rows in the sheet and says so', () => {
    const { book, deps } = setUp();
    const key = (i: number) => `K-${String(i).padStart(4, '0')}-${'x'.repeat(52)}`;
    book.sheet(
      'Lote',
      CUSTOM_HEADER,
      Array.from({ length: 1_000 }, (_, i) => customRow(key(i))),
    );
    const p = startBulk(deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, clock.t - 1);
    expect(p.warnings).toEqual([
      'Lote grande: a coluna "Lote em andamento (não editar)" marca cada linha até o resultado dela ser escrito. Pode ordenar as linhas; não apague essa coluna até o lote terminar.',
    ]);
    expect(deps.jobs.get(p.jobId)?.keys).toBeUndefined();
    expect(deps.jobs.get(p.jobId)?.mark).toMatch(/^L[0-9a-z]+$/);
    // Exactly at the bound the keys are still kept.
    const exact = setUp();
    const short = (i: number) => `K-${String(i).padStart(4, '0')}-${'x'.repeat(50)}`;
    exact.book.sheet(
      'Lote',
      CUSTOM_HEADER,
      Array.from({ length: 1_000 }, (_, i) => customRow(short(i))),
    );
    const atBound = startBulk(exact.deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, clock.t - 1);
    expect(atBound.warnings).toEqual([]);
    const small = setUp();
    small.book.sheet(
      'Lote',
      CUSTOM_HEADER,
      Array.from({ length: 900 }, (_, i) => customRow(key(i))),
    );
    const fits = startBulk(small.deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, clock.t - 1);
    expect(fits.warnings).toEqual([]);
    expect(small.deps.jobs.get(fits.jobId)?.keys).toHaveLength(900);
  });

  it('a row found done by an execution killed before its checkpoint counts as already there, not as sent', () => {
    const { book, deps, service, store } = setUp();
    service.notes.set(1001, { idNotaFiscalServico: 90, idFatura: 1001, numeroNotaFiscalServico: '7', statusNotaFiscalServico: 'AUTORIZADA' });
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002]]);
    killedAfterResults(sheet, store, () => startBulk(deps, emit(), FAR()));
    expect(statuses(sheet)).toEqual(['JÁ EMITIDA', 'OK']);
    expect(continueBulk(deps, String(sheet.id), FAR())).toMatchObject({ status: 'done', counts: { ok: 1, existing: 1, skipped: 0 } });
  });
});

describe('a run over several steps', () => {
  /** A service taking 30 s a request: a step of 100 s ends after its first batch. */
  const slow = (extra: Parameters<typeof fakeService>[0] = {}) => fakeService({ ...extra, onRequest: () => (clock.t += 30_000) });

  it('a step ends after the batch the deadline leaves room for; the next goes on from the first row not done', () => {
    const { book, deps, service } = setUp(slow());
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002], [1003], [1004], [1005], [1006], [1007]]);
    const first = startBulk(deps, { ...emit(), batchSize: 2 }, clock.t + 100_000);
    // Two waves of two rows fit in 100 s at 30 s a request; the third wave is not started.
    expect(first).toMatchObject({ status: 'running', processed: 4, counts: { ok: 4 } });
    expect(statuses(sheet)).toEqual(['OK', 'OK', 'OK', 'OK', '', '', '']);
    // The user sorts the rows not done yet the other way round.
    sheet.write(6, 1, [[1007], [1006], [1005]]);
    let p = first;
    for (let i = 0; i < 5 && !p.done; i++) p = continueBulk(deps, first.jobId, clock.t + 100_000);
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
      clock.t + 100_000,
    );
    expect(first.status).toBe('running');
    // The start looks every CPF/CNPJ of the scope up (a row whose customer is not found fails before it gets a key).
    expect(deps.jobs.get(first.jobId)?.customers).toEqual({ '12345678909': 321, '98765432100': 654 });
    let p = first;
    for (let i = 0; i < 60 && !p.done; i++) p = continueBulk(deps, first.jobId, clock.t + 100_000);
    expect(p).toMatchObject({ status: 'done', counts: { ok: 25 } });
    expect(service.log.filter((l) => l.startsWith('GET /v2/clientes'))).toHaveLength(2);
    expect(service.posted.map((b) => b.idCliente)).toEqual([...keys.map(() => 321), 654]);
    expect(deps.jobs.get(first.jobId)?.customers).toEqual({ '12345678909': 321, '98765432100': 654 });
  });

  it('blank keys are all generated and written when the run starts, before anything is sent', () => {
    const { book, deps, service } = setUp();
    const sheet = book.sheet('Lote', CUSTOM_HEADER, [customRow(''), customRow('')]);
    const started = startBulk(deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, clock.t - 1);
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
    const when = new Date(clock.t - 60_000);
    const header = ['ID da fatura', 'Status', 'ID da NFS-e', 'Número da NFS-e', 'Fatura conferida', 'Mensagem', 'Processado em'];
    const sheet = book.sheet('Notas', header, [[1001, 'PENDENTE', '', '', '', 'Enviando…', when]]);
    const p = startBulk(deps, emit(), FAR());
    expect(p.counts).toMatchObject({ pending: 1, ok: 0 });
    expect(service.log.filter((l) => l.startsWith('POST'))).toEqual([]);
    expect(service.log.filter((l) => l === 'GET /v2/nfse?idFatura=1001').length).toBeGreaterThanOrEqual(1);
    expect(sheet.records()[0]).toMatchObject({ Status: 'PENDENTE', 'Processado em': when });
    // Long enough after, nothing found means nothing was written: it is sent.
    sheet.write(2, 7, [[new Date(clock.t - 3_600_000)]]);
    const later = startBulk(deps, emit(), FAR());
    expect(later.counts).toMatchObject({ ok: 1, pending: 0 });
    expect(service.log.filter((l) => l.startsWith('POST'))).toHaveLength(1);
  });

  it('a batch with nothing to send writes no marks and flushes nothing', () => {
    const { book, deps } = setUp();
    book.sheet('Notas', NFSE_HEADER, [[1001], [1002]]);
    startBulk(deps, emit(), FAR());
    const flushes = book.flushes;
    expect(startBulk(deps, emit(), FAR()).counts).toMatchObject({ skipped: 2 });
    expect(book.flushes).toBe(flushes);
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
    const long = new Date(clock.t - 3_600_000);
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
    const waiting = pending.book.sheet('Notas', header, [[2002, 'PENDENTE', '', '', '', 'Enviando…', new Date(clock.t - 60_000)]]);
    foreignDates(waiting);
    expect(startBulk(pending.deps, emit(), FAR()).counts).toMatchObject({ pending: 1 });
    expect(pending.service.log.filter((l) => l.startsWith('POST'))).toEqual([]);
    expect(service.log.filter((l) => l.startsWith('POST'))).toHaveLength(1);
  });
});
