/**
 * A job over its steps: continued until done, cancelled, its rows found again
 * wherever the user moved them, the rows left PENDENTE given a pass of their
 * own, what it reports along the way, and the rows to go to after errors.
 */
import { describe, expect, it } from 'vitest';
import { cancelBulk, continueBulk, continueBulkJob, failedRanges } from '../../../src/core/bulk/job';
import { startBulk } from '../../../src/core/bulk/launch';
import { BulkError, progressOf } from '../../../src/core/bulk/state';
import { validateSheet } from '../../../src/core/bulk/validate';
import { bulkOperation, discountColumns } from '../../../src/core/bulk/definitions';
import { createTemplate } from '../../../src/core/bulk/template';
import { CUSTOM_HEADER, zone } from './fixtures';
import { adesao, clock, customRow, emit, FAR, fakeService, NFSE_HEADER, setUp, statuses } from './fake-service';

describe('steps and deadlines', () => {
  it('a step whose deadline has passed leaves the job running where it was; the next step finishes it', () => {
    const { book, deps, service } = setUp();
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002], [1003]]);
    const started = startBulk(deps, emit(), clock.t - 1);
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
    const started = startBulk(deps, emit(), clock.t - 1);
    // The user sorts the rows the other way round and deletes 1002.
    sheet.write(2, 1, [[1003], [1001], ['']]);
    const done = continueBulk(deps, started.jobId, FAR());
    expect(statuses(sheet)).toEqual(['OK', 'OK']);
    expect(sheet.records().map((r) => r['Fatura conferida'])).toEqual([1003, 1001]);
    expect(done.counts).toMatchObject({ ok: 2, failed: 1 });
    expect(done.warnings).toEqual(['Uma linha saiu da aba durante o lote e não foi processada (ID da fatura "1002").']);
  });

  it('counts in its message are written as Brazilians read them: 3.140, not 3140', () => {
    const { book, deps } = setUp();
    book.sheet('Notas', NFSE_HEADER, [[1001]]);
    const started = startBulk(deps, emit(), clock.t - 1);
    const job = deps.jobs.get(started.jobId)!;
    deps.jobs.put(job.id, { ...job, counts: { ok: 3140, existing: 1200, skipped: 1001, failed: 2500, pending: 1300 } });
    expect(cancelBulk(deps, started.jobId).message).toBe(
      'Lote interrompido. 3.140 linhas enviadas com sucesso, 1.200 já existiam, 1.001 já estavam OK, 2.500 com erro, 1.300 PENDENTES (execute de novo para conferi-las). Linhas PENDENTES são conferidas antes de qualquer reenvio quando você executar de novo.',
    );
  });

  it('cancelling stops a job and says what was done; a done job is left as it is', () => {
    const { book, deps } = setUp();
    book.sheet('Notas', NFSE_HEADER, [[1001]]);
    const started = startBulk(deps, emit(), clock.t - 1);
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
    const started = startBulk(deps, emit(), clock.t - 1);
    book.sheets = book.sheets.filter((s) => s !== sheet);
    expect(continueBulk(deps, started.jobId, FAR())).toMatchObject({ status: 'failed', message: 'A aba "Notas" foi apagada: o lote foi interrompido.' });
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

describe('what the user changes between steps', () => {
  it('an invoice typed again while the run waits is refused on the row not yet sent, and a key gone is reported', () => {
    const { book, deps, service } = setUp();
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002], [1003]]);
    const started = startBulk(deps, emit(), clock.t - 1);
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

  it('rows the user sorted before a step are each sent once, however many steps the rest takes', () => {
    const { book, deps, service } = setUp(fakeService({ onRequest: () => (clock.t += 30_000) }));
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002], [1003], [1004], [1005]]);
    let p = startBulk(deps, { ...emit(), batchSize: 1 }, clock.t - 1);
    sheet.write(2, 1, [[1005], [1004], [1003], [1002], [1001]]);
    for (let i = 0; i < 10 && !p.done; i++) p = continueBulk(deps, p.jobId, clock.t + 100_000);
    expect(p).toMatchObject({ status: 'done', counts: { ok: 5, failed: 0, skipped: 0 } });
    expect(statuses(sheet)).toEqual(['OK', 'OK', 'OK', 'OK', 'OK']);
    expect(service.log.filter((l) => l.startsWith('POST'))).toHaveLength(5);
  });

  it('a row refused at the start for want of its key is counted once, and not reported as gone', () => {
    const { book, deps } = setUp();
    book.sheet('Lote', CUSTOM_HEADER, [customRow('K-1'), customRow('', 'caro')]);
    const started = startBulk(deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, clock.t - 1);
    const done = continueBulk(deps, started.jobId, FAR());
    expect(done).toMatchObject({ status: 'done', counts: { ok: 1, failed: 1 } });
    expect(done.warnings).toEqual([]);
  });

  it('a creation cut off as it was sent, then edited, is looked up and refused, never sent again', () => {
    let dying = false;
    const kill = () => {
      if (!dying) return;
      store.frozen = true;
      sheet.killed = true;
      throw new Error('killed');
    };
    const { book, deps, service, store } = setUp(fakeService({ onRequest: kill }));
    const sheet = book.sheet('Lote', CUSTOM_HEADER, [customRow('')]);
    dying = true;
    expect(() => startBulk(deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, FAR())).toThrow('killed');
    dying = false;
    store.frozen = false;
    sheet.killed = false;
    expect(statuses(sheet)).toEqual(['PENDENTE']);
    // The owner raises the price after Confirmar envio, once the safe delay has passed.
    sheet.write(2, 8, [[999]]);
    clock.t += 11 * 60_000;
    const sent = service.log.length;
    const p = continueBulk(deps, String(sheet.id), FAR());
    expect(p).toMatchObject({ status: 'done', counts: { ok: 0, failed: 1, pending: 0 } });
    expect(sheet.records()[0]).toMatchObject({ Status: 'ERRO', Mensagem: expect.stringMatching(/^Linha 2: mudou depois de "Confirmar envio"/) });
    expect(service.log.slice(sent)).toEqual(['GET /v2/assinaturascontratos?idIntegracao=gerado-1']);
    expect(service.subs.size).toBe(0);
  });

  it('a sheet emptied between steps ends the run, each of its rows reported gone', () => {
    const { book, deps } = setUp();
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002]]);
    const started = startBulk(deps, emit(), clock.t - 1);
    sheet.write(2, 1, [[''], ['']]);
    const done = continueBulk(deps, started.jobId, FAR());
    expect(done).toMatchObject({ status: 'done', counts: { ok: 0, failed: 2 } });
    expect(done.warnings).toEqual(['2 linhas saíram da aba durante o lote e não foram processadas (ID da fatura "1001", "1002").']);
  });
});

describe('a job saved before confirmations were kept', () => {
  it('still continues: a row whose key cell is blank when its turn comes gets one, written before it is sent', () => {
    const { book, deps, service } = setUp();
    const sheet = book.sheet('Lote', CUSTOM_HEADER, [customRow('K-1'), customRow('')]);
    const started = startBulk(deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, clock.t - 1);
    // As such a job was stored: no confirmations, its rows found by number, the second row's key not generated yet.
    const job = deps.jobs.get(started.jobId)!;
    deps.jobs.put(job.id, { ...job, confirmed: undefined, keys: undefined, retryKeys: undefined });
    sheet.write(3, 1, [['']]);
    expect(continueBulk(deps, started.jobId, FAR())).toMatchObject({ status: 'done', counts: { ok: 2, failed: 0 } });
    expect(sheet.records().map((r) => r['ID de integração'])).toEqual(['K-1', 'gerado-2']);
    expect([...service.subs.keys()].sort()).toEqual(['K-1', 'gerado-2']);
    expect(service.log.filter((l) => l.startsWith('GET'))).toEqual(['GET /v2/assinaturascontratos?idIntegracao=K-1']);
  });
});

describe('what a run reads of its sheet', () => {
  it('the start and each later step read the rows once: the rows, their keys and the repeated ones come from that read', () => {
    const { book, deps } = setUp();
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002], [1003]]);
    const reads: number[][] = [];
    const read = sheet.read.bind(sheet);
    sheet.read = (row, column, numRows, numColumns) => {
      if (row >= 2) reads.push([row, column, numRows, numColumns]);
      return read(row, column, numRows, numColumns);
    };
    const started = startBulk(deps, emit(), clock.t - 1);
    expect(reads).toEqual([[2, 1, 3, 7]]);
    reads.length = 0;
    expect(continueBulk(deps, started.jobId, FAR())).toMatchObject({ status: 'done', counts: { ok: 3 } });
    expect(reads).toEqual([[2, 1, 3, 7]]);
  });
});

describe('what a later step reads of its sheet', () => {
  /** Six invoices; the first step settles four of them before its deadline. */
  function halfDone() {
    const { book, deps } = setUp(fakeService({ onRequest: () => (clock.t += 30_000) }));
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002], [1003], [1004], [1005], [1006]]);
    const started = startBulk(deps, { ...emit(), batchSize: 2 }, clock.t + 100_000);
    expect(statuses(sheet)).toEqual(['OK', 'OK', 'OK', 'OK', '', '']);
    const reads: number[][] = [];
    const read = sheet.read.bind(sheet);
    sheet.read = (row, column, numRows, numColumns) => {
      if (row >= 2) reads.push([row, column, numRows, numColumns]);
      return read(row, column, numRows, numColumns);
    };
    return { deps, sheet, started, reads };
  }

  it('reads from the first row still to go, not the rows done before', () => {
    const { deps, sheet, started, reads } = halfDone();
    expect(continueBulk(deps, started.jobId, FAR())).toMatchObject({ status: 'done', counts: { ok: 6 } });
    expect(reads).toEqual([[6, 1, 2, 7]]);
    expect(statuses(sheet)).toEqual(['OK', 'OK', 'OK', 'OK', 'OK', 'OK']);
  });

  it('reads the whole sheet when a row still to go is now above where it was', () => {
    const { deps, sheet, started, reads } = halfDone();
    sheet.deleteRows(2, 1);
    expect(continueBulk(deps, started.jobId, FAR())).toMatchObject({ status: 'done', counts: { ok: 6 } });
    // The job's last row number is read even though the sheet now ends before it.
    expect(reads).toEqual([
      [6, 1, 2, 7],
      [2, 1, 6, 7],
    ]);
    expect(sheet.records().map((r) => [r['Fatura conferida'], r.Status])).toEqual([
      [1002, 'OK'],
      [1003, 'OK'],
      [1004, 'OK'],
      [1005, 'OK'],
      [1006, 'OK'],
    ]);
  });
});

describe('when a step saves its job', () => {
  /** What each save of the job held: its status, its cursor and the rows done. */
  function saves(deps: ReturnType<typeof setUp>['deps']): Array<[string, number, number]> {
    const seen: Array<[string, number, number]> = [];
    const put = deps.jobs.put.bind(deps.jobs);
    deps.jobs.put = (id, job) => {
      seen.push([job.status, job.cursor, job.counts.ok]);
      put(id, job);
    };
    return seen;
  }

  it('after each batch another batch follows; the last batch is checkpointed by the save that ends the run', () => {
    const { book, deps } = setUp();
    book.sheet(
      'Notas',
      NFSE_HEADER,
      Array.from({ length: 50 }, (_, i) => [1001 + i]),
    );
    const seen = saves(deps);
    // One row a wave: the first batch takes the planner's 34 waves before any was timed, the second the rest.
    expect(startBulk(deps, { ...emit(), batchSize: 1 }, FAR())).toMatchObject({ status: 'done', counts: { ok: 50 } });
    expect(seen).toEqual([
      ['running', 0, 0],
      ['running', 34, 34],
      ['done', 50, 50],
    ]);
  });

  it('a step cut by its deadline saves once, and so does the step that ends the run', () => {
    const { book, deps } = setUp(fakeService({ onRequest: () => (clock.t += 30_000) }));
    book.sheet(
      'Notas',
      NFSE_HEADER,
      Array.from({ length: 10 }, (_, i) => [1001 + i]),
    );
    const seen = saves(deps);
    const started = startBulk(deps, { ...emit(), batchSize: 1 }, clock.t + 100_000);
    expect(seen).toEqual([
      ['running', 0, 0],
      ['running', 4, 4],
    ]);
    seen.length = 0;
    expect(continueBulk(deps, started.jobId, FAR())).toMatchObject({ status: 'done', counts: { ok: 10 } });
    expect(seen).toEqual([['done', 6, 10]]);
  });

  it('a batch sent whole that ends past the deadline is saved once, by the step', () => {
    const { book, deps } = setUp(fakeService({ onRequest: () => (clock.t += 30_000) }));
    book.sheet(
      'Notas',
      NFSE_HEADER,
      Array.from({ length: 20 }, (_, i) => [1001 + i]),
    );
    const seen = saves(deps);
    // Time for one wave of ten: it goes whole, and ends long after the deadline.
    startBulk(deps, { ...emit(), batchSize: 10 }, clock.t + 3_000);
    expect(seen).toEqual([
      ['running', 0, 0],
      ['running', 10, 10],
    ]);
  });
});

describe('what a job keeps of its confirmations', () => {
  it('only those of the rows still to go or left PENDENTE: the job saved after each batch shrinks as rows are settled', () => {
    const { book, deps } = setUp(fakeService({ onRequest: () => (clock.t += 30_000) }));
    book.sheet('Notas', NFSE_HEADER, [[1001], [1002], [1003], [1004], [1005], [1006]]);
    const started = startBulk(deps, { ...emit(), batchSize: 2 }, clock.t + 100_000);
    expect(Object.keys(deps.jobs.get(started.jobId)?.confirmed ?? {}).sort()).toEqual(['1005', '1006']);
    const dropped = setUp(fakeService({ drop: new Set([1002]) }));
    const sheet = dropped.book.sheet('Notas', NFSE_HEADER, [[1001], [1002], [1003]]);
    const done = startBulk(dropped.deps, emit(), FAR());
    expect(statuses(sheet)).toEqual(['OK', 'PENDENTE', 'OK']);
    expect(Object.keys(dropped.deps.jobs.get(done.jobId)?.confirmed ?? {})).toEqual(['1002']);
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

describe('what a run reports along the way', () => {
  const slow = (extra: Parameters<typeof fakeService>[0] = {}) => fakeService({ ...extra, onRequest: () => (clock.t += 30_000) });

  it('a job still running counts every row it has settled, however it ended', () => {
    const service = slow();
    service.notes.set(1003, { idNotaFiscalServico: 9, idFatura: 1003, numeroNotaFiscalServico: '1', statusNotaFiscalServico: 'AUTORIZADA' });
    const { book, deps } = setUp(service);
    const header = ['ID da fatura', 'Status', 'ID da NFS-e', 'Número da NFS-e', 'Fatura conferida'];
    book.sheet('Notas', header, [[1001, 'OK', 1, '5', 1001], ['x'], [1003], [1004], [1005], [1006], [1007], [1008]]);
    const first = startBulk(deps, { ...emit(), batchSize: 2 }, clock.t + 100_000);
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
    const started = startBulk(deps, emit(), clock.t - 1);
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
    const { book, deps, service } = setUp(fakeService({ drop: new Set([1001, 1004]), onRequest: () => (clock.t += 30_000) }));
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002], [1003], [1004], [1005]]);
    let p = startBulk(deps, { ...emit(), batchSize: 2 }, clock.t + 100_000);
    for (let i = 0; i < 20 && !p.done; i++) {
      // Between steps the user keeps sorting the sheet the other way round.
      const ids = sheet.read(2, 1, 5, 1).flat();
      const rest = sheet.read(2, 2, 5, 6);
      sheet.write(2, 1, ids.map((id, k) => [id, ...rest[k]]).reverse());
      p = continueBulk(deps, p.jobId, clock.t + 100_000);
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
