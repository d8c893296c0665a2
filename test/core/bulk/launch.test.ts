/**
 * Starting a run: what it is given (a sheet with rows, a connection, a
 * selection on that sheet), the keys it generates and writes before anything
 * is sent, and the owner told of the job first.
 */
import { describe, expect, it } from 'vitest';
import { continueBulk } from '../../../src/core/bulk/job';
import { startBulk } from '../../../src/core/bulk/launch';
import { validateSheet } from '../../../src/core/bulk/validate';
import { CUSTOM_HEADER } from './fixtures';
import { clock, customRow, emit, FAR, fakeService, NFSE_HEADER, setUp, statuses } from './fake-service';

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

  it('a later step sends the rows whose keys this run generated without looking them up; a typed key is still looked up', () => {
    const { book, deps, service } = setUp();
    book.sheet('Lote', CUSTOM_HEADER, [customRow(''), customRow('K-1'), customRow('')]);
    const request = { operation: 'criarAssinaturaPersonalizada' as const, sheetName: 'Lote', connection: 'x', scope: 'all' as const };
    // The first step ends before sending anything: every row goes in a later execution.
    const started = startBulk(deps, request, clock.t - 1);
    expect(service.log).toEqual([]);
    expect(continueBulk(deps, started.jobId, FAR())).toMatchObject({ status: 'done', counts: { ok: 3 } });
    expect(service.log.filter((l) => l.startsWith('GET'))).toEqual(['GET /v2/assinaturascontratos?idIntegracao=K-1']);
    expect([...service.subs.keys()].sort()).toEqual(['K-1', 'gerado-1', 'gerado-2']);
  });

  it('a later step looks up a row under a generated key whose Processado em says a step touched it, even with its Status cleared', () => {
    const { book, deps, service } = setUp();
    const sheet = book.sheet('Lote', CUSTOM_HEADER, [customRow(''), customRow('')]);
    const request = { operation: 'criarAssinaturaPersonalizada' as const, sheetName: 'Lote', connection: 'x', scope: 'all' as const };
    const started = startBulk(deps, request, clock.t - 1);
    // As if a killed step had marked the second row, and someone then cleared its Status by hand.
    const column = sheet.read(1, 1, 1, sheet.lastColumn())[0].indexOf('Processado em') + 1;
    sheet.write(3, column, [[new Date(clock.t)]]);
    expect(continueBulk(deps, started.jobId, FAR())).toMatchObject({ status: 'done', counts: { ok: 2 } });
    expect(service.log.filter((l) => l.startsWith('GET'))).toEqual(['GET /v2/assinaturascontratos?idIntegracao=gerado-2']);
  });

  it('a typed key that looks like the generated ones keeps every row looked up in a later step', () => {
    const { book, deps, service } = setUp();
    book.sheet('Lote', CUSTOM_HEADER, [customRow(''), customRow('gerado-x'), customRow('')]);
    const request = { operation: 'criarAssinaturaPersonalizada' as const, sheetName: 'Lote', connection: 'x', scope: 'all' as const };
    const started = startBulk(deps, request, clock.t - 1);
    expect(continueBulk(deps, started.jobId, FAR())).toMatchObject({ status: 'done', counts: { ok: 3 } });
    expect(service.log.filter((l) => l.startsWith('GET'))).toHaveLength(3);
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
