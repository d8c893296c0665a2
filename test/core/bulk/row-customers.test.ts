/** Customers named by CPF/CNPJ: found once per value, and a row whose customer is wrong is refused on its own cell. */
import { describe, expect, it } from 'vitest';
import { startBulk } from '../../../src/core/bulk/launch';
import { validateSheet } from '../../../src/core/bulk/validate';
import { FAULT_COLOR } from '../../../src/core/bulk/sheet-io';
import type { CellValue } from '../../../src/core/sheets/table';
import { CUSTOM_HEADER } from './fixtures';
import { adesao, clock, FAR, fakeService, setUp, statuses } from './fake-service';

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

  it('a row whose customer is not found fails before sending and gets no integration id; the customer found is written back with a note', () => {
    const { book, deps, service } = setUp(fakeService({ customers }));
    const sheet = book.sheet('Lote', header, [row('', '', '111.444.777-35'), row('', '', '123.456.789-09'), row('', 321, '12345678909')]);
    // Validar changes no cell the user typed in.
    validateSheet(deps, { operation: op, sheetName: 'Lote', scope: 'all', connectionId: 'c1' });
    expect(sheet.records().map((r) => r['ID do cliente'])).toEqual(['', '', 321]);
    const p = startBulk(deps, { operation: op, sheetName: 'Lote', connection: 'x', scope: 'all' }, FAR());
    expect(p.counts).toMatchObject({ ok: 2, failed: 1 });
    const rows = sheet.records();
    expect(statuses(sheet)).toEqual(['ERRO', 'OK', 'OK']);
    expect(rows.map((r) => r['ID de integração'])).toEqual(['', expect.stringMatching(/.+/), expect.stringMatching(/.+/)]);
    expect(service.posted).toHaveLength(2);
    // The customer its CPF/CNPJ found is in "ID do cliente" (B), said so in its note; a typed ID keeps its cell as it was.
    expect(rows.map((r) => r['ID do cliente'])).toEqual(['', 321, 321]);
    expect(sheet.notes[2]?.[1]).toBe('Preenchido pelo complemento: cliente achado pelo CPF/CNPJ 123.456.789-09 (coluna K, "CPF/CNPJ do cliente").');
    expect(sheet.notes[1]?.[1] ?? '').toBe('');
    expect(sheet.notes[3]?.[1] ?? '').toBe('');
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

  it('a PENDENTE row is looked up even when its customer is not found: it may be in the service already', () => {
    const { book, deps, service } = setUp(fakeService({ customers }));
    service.subs.set('A', { idAssinaturaContrato: 9, idIntegracao: 'A' });
    const since = new Date(clock.t - 3_600_000);
    const sheet = book.sheet(
      'Lote',
      [...header, 'Status', 'ID da assinatura criada', 'Mensagem', 'Processado em'],
      [[...row('A', '', '111.444.777-35'), 'PENDENTE', '', 'Enviando…', since]],
    );
    const p = startBulk(deps, { operation: op, sheetName: 'Lote', connection: 'x', scope: 'all' }, FAR());
    expect(p.counts).toMatchObject({ ok: 1, failed: 0 });
    expect(statuses(sheet)).toEqual(['OK']);
    expect(service.posted).toEqual([]);
  });
});
