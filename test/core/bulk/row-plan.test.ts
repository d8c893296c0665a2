/**
 * What each row is to a run: the key that tells its record, the example row
 * and blank rows that are never sent, keys typed with spaces.
 */
import { describe, expect, it } from 'vitest';
import { continueBulk } from '../../../src/core/bulk/job';
import { startBulk } from '../../../src/core/bulk/launch';
import { keyField } from '../../../src/core/bulk/row-plan';
import { bulkOperation, discountColumns } from '../../../src/core/bulk/definitions';
import { createTemplate } from '../../../src/core/bulk/template';
import { CUSTOM_HEADER, zone } from './fixtures';
import { adesao, clock, customRow, emit, FAR, NFSE_HEADER, setUp, statuses } from './fake-service';

describe('keyField', () => {
  it('what tells each operation’s record', () => {
    expect(keyField(bulkOperation('criarAssinaturaPlano'))).toBe('idIntegracao');
    expect(keyField(bulkOperation('emitirNfse'))).toBe('idFatura');
    expect(keyField(bulkOperation('atualizarAssinaturaPlano'))).toBe('idAssinaturaContrato');
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

  it('the example row is told by the columns the sheet still has: a value kept for a column since deleted does not count', () => {
    const { book, deps, service } = setUp();
    const sheet = book.sheet('Notas', NFSE_HEADER, [[1001], [1002]]);
    sheet.setSheetTag('faturamento.exemplo', JSON.stringify({ idFatura: '1001', idCliente: '5' }));
    expect(startBulk(deps, emit(), FAR())).toMatchObject({ total: 1, counts: { ok: 1 } });
    expect(service.posted.map((b) => b.idFatura)).toEqual([1002]);
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
    const started = startBulk(deps, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, clock.t - 1);
    sheet.write(2, 1, [['K-1']]);
    expect(continueBulk(deps, started.jobId, FAR())).toMatchObject({ status: 'done', counts: { ok: 2, failed: 0 } });
  });
});

describe('rows that are not sent', () => {
  it('blank rows in the scope are neither counted nor lost when the run goes on in a later step', () => {
    const { book, deps } = setUp();
    book.sheet('Notas', NFSE_HEADER, [[1001], [''], [1003]]);
    const started = startBulk(deps, emit(), clock.t - 1);
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
