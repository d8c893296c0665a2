/**
 * Subscriptions whose customer is named by CPF/CNPJ instead of "ID do cliente":
 * the real bundle in the emulator, the sandbox over HTTP. The customer is found
 * through the customers listing, once per distinct value, and the sandbox's own
 * records carry the right idCliente; a value that finds no active customer, or
 * another customer than the row's "ID do cliente", is a row error naming it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import type { Rec } from '../core/bulk/fixtures';
import { connect, emulator, executeBulk, ok, rowsByHeader, typeRows } from './helpers';

let sb: SandboxHandle;
let clientes: Rec[];
let produto: number;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 31, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
  clientes = await sb.dump<Rec>(sb.orgs[0].name, 'clientes');
  produto = (await sb.dump<Rec>(sb.orgs[0].name, 'produtos'))[0].idProduto as number;
});

const digits = (c: Rec) => String(c.cpfCnpj).replace(/\D/g, '');
const punctuated = (d: string) => d.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
const companies = () => clientes.filter((c) => c.isAtivo && digits(c).length === 14);

/** A template with rows typed into it: ID de integração, ID do cliente, … Dia de vencimento, CPF/CNPJ do cliente. */
function sheetWith(emu: GasEmulator, rows: Array<{ key: string; idCliente?: number; cpfCnpj: string | number }>): string {
  const sheet = ok(emu.run('createBulkTemplate', ['criarAssinaturaPersonalizada'])).sheetName as string;
  typeRows(
    emu,
    sheet,
    3,
    rows.map((r) => [r.key, r.idCliente ?? '', '05/11/2026', '11/2026', 'MENSAL', produto, 'Honorários', 200, 'AGRUPADA', 10, r.cpfCnpj]),
  );
  return sheet;
}

const execute = (emu: GasEmulator, sheetName: string): Rec => executeBulk(emu, { operation: 'criarAssinaturaPersonalizada', sheetName });
const byHeader = rowsByHeader;

const created = async () => new Map((await sb.dump<Rec>(sb.orgs[0].name, 'assinaturas')).map((a) => [a.idIntegracao as string, a]));

describe('subscriptions by CPF/CNPJ', () => {
  it('five rows identified by CNPJ are validated, sent with the customer each CNPJ names, each CNPJ looked up once', async () => {
    const emu = emulator();
    connect(emu, sb);
    const [a, b, c, d] = companies();
    const sheet = sheetWith(emu, [
      { key: 'CNPJ-1', cpfCnpj: punctuated(digits(a)) },
      { key: 'CNPJ-2', cpfCnpj: digits(b) },
      { key: 'CNPJ-3', cpfCnpj: ` ${punctuated(digits(c))} ` },
      { key: 'CNPJ-4', cpfCnpj: digits(d) },
      // The same CNPJ again, with the customer's id typed too: both name the same customer.
      { key: 'CNPJ-5', idCliente: a.idCliente as number, cpfCnpj: digits(a) },
    ]);
    const lookupsSoFar = async () => (await sb.requestLog({ method: 'GET' })).filter((e) => e.path === '/v2/clientes' && e.query.cpfCnpj !== undefined);
    // Validar already finds each customer (one request per distinct CNPJ, digits only) and sends nothing.
    const v = ok(emu.run('validateBulk', [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, scope: 'all', connection: 'Demo' }]));
    expect(v).toMatchObject({ total: 5, valid: 5, invalid: 0 });
    expect((await lookupsSoFar()).map((e) => e.query.cpfCnpj).sort()).toEqual([a, b, c, d].map(digits).sort());
    expect((await sb.requestLog()).filter((e) => e.method !== 'GET')).toEqual([]);
    await sb.clearLog();

    const p = execute(emu, sheet);
    expect(p).toMatchObject({ status: 'done', counts: { ok: 5, failed: 0 } });
    const subs = await created();
    expect([1, 2, 3, 4, 5].map((i) => subs.get(`CNPJ-${i}`)?.idCliente)).toEqual([a, b, c, d, a].map((x) => x.idCliente));
    const lookups = (await sb.requestLog({ method: 'GET' })).filter((e) => e.path === '/v2/clientes' && e.query.cpfCnpj !== undefined);
    // Digits only on the wire, one request per distinct CNPJ.
    expect(lookups.map((e) => e.query.cpfCnpj).sort()).toEqual([a, b, c, d].map(digits).sort());
    expect(byHeader(emu, sheet).map((r) => r.Status)).toEqual(['EXEMPLO', 'OK', 'OK', 'OK', 'OK', 'OK']);
  });

  it('a run of several steps looks each CNPJ up once: the customers found stay with the run', async () => {
    const emu = emulator();
    connect(emu, sb);
    const [a, b] = companies();
    const sheet = sheetWith(
      emu,
      Array.from({ length: 12 }, (_, i) => ({ key: `PASSO-${i}`, cpfCnpj: digits(i % 2 ? b : a) })),
    );
    // Slow requests and small batches: every step sends a few rows, and the next picks up the rest.
    const slow = { costs: { urlFetchCallMs: 3000 } };
    let p = ok(
      emu.run(
        'startBulkRun',
        [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Demo', scope: 'all', batchSize: 2, stepSeconds: 5 }],
        slow,
      ),
    );
    let steps = 1;
    for (; !p.done && steps < 50; steps++) p = ok(emu.run('continueBulkRun', [p.jobId, 5], slow));
    expect(p).toMatchObject({ status: 'done', counts: { ok: 12, failed: 0 } });
    expect(steps).toBeGreaterThan(2);
    const lookups = (await sb.requestLog({ method: 'GET' })).filter((e) => e.path === '/v2/clientes' && e.query.cpfCnpj !== undefined);
    expect(lookups.map((e) => e.query.cpfCnpj).sort()).toEqual([a, b].map(digits).sort());
    const subs = await created();
    expect(Array.from({ length: 12 }, (_, i) => subs.get(`PASSO-${i}`)?.idCliente)).toEqual(Array.from({ length: 12 }, (_, i) => (i % 2 ? b : a).idCliente));
  });

  it('a CPF or CNPJ with a wrong check digit is said to be invalid, naming row and column, not "nenhum cliente"', async () => {
    const emu = emulator();
    connect(emu, sb);
    const sheet = sheetWith(emu, [
      { key: 'CNPJ-ERRADO', cpfCnpj: '11.222.333/0001-82' },
      { key: 'CPF-ERRADO', cpfCnpj: '123.456.789-08' },
    ]);
    const v = ok(emu.run('validateBulk', [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, scope: 'all', connection: 'Demo' }]));
    expect(v).toMatchObject({ total: 2, valid: 0, invalid: 2 });
    const rows = byHeader(emu, sheet);
    expect(rows[1].Mensagem).toBe(
      'A corrigir: Linha 3, coluna "CPF/CNPJ do cliente" (K): o CNPJ 11.222.333/0001-82 não é válido (os dígitos verificadores não conferem): confira cada dígito do número.',
    );
    expect(rows[2].Mensagem).toBe(
      'A corrigir: Linha 4, coluna "CPF/CNPJ do cliente" (K): o CPF 123.456.789-08 não é válido (os dígitos verificadores não conferem): confira cada dígito do número.',
    );
  });

  it('a CNPJ of nobody, of an inactive customer, or of another customer than "ID do cliente" is a row error naming it; the other rows go', async () => {
    const emu = emulator();
    connect(emu, sb);
    const [a, b] = companies();
    const inactive = clientes.find((c) => c.isAtivo === false)!;
    const nobody = '11222333000181';
    expect(clientes.some((c) => digits(c) === nobody)).toBe(false);
    const sheet = sheetWith(emu, [
      { key: 'OK-1', cpfCnpj: digits(a) },
      { key: 'NINGUEM', cpfCnpj: punctuated(nobody) },
      { key: 'INATIVO', cpfCnpj: String(inactive.cpfCnpj) },
      { key: 'OUTRO', idCliente: b.idCliente as number, cpfCnpj: digits(a) },
      { key: 'VAZIO', cpfCnpj: '' },
    ]);
    // Without a connection chosen, Validar can only check what the sheet holds: both blank.
    const offline = ok(emu.run('validateBulk', [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, scope: 'all' }]));
    expect(offline).toMatchObject({ total: 5, valid: 4, invalid: 1 });
    expect(offline.problems).toEqual([expect.stringMatching(/^Linha 7, coluna "ID do cliente" \(B\): está vazia, e "CPF\/CNPJ do cliente" \(K\) também/)]);
    // With the connection, Validar finds the customers: nobody, inactive and another customer are row errors naming the value.
    const v = ok(emu.run('validateBulk', [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, scope: 'all', connection: 'Demo' }]));
    expect(v).toMatchObject({ total: 5, valid: 1, invalid: 4 });
    const checked = byHeader(emu, sheet);
    // Validar alone marks no row ERRO: the problems are in Mensagem.
    expect(checked.map((r) => r.Status)).toEqual(['EXEMPLO', '', '', '', '', '']);
    expect(checked[2].Mensagem).toMatch(/^A corrigir: Linha 4, coluna "CPF\/CNPJ do cliente" \(K\): nenhum cliente tem o CPF\/CNPJ 11\.222\.333\/0001-81/);
    expect(checked[3].Mensagem).toMatch(new RegExp(`\\(ID ${inactive.idCliente}\\) está inativo`));
    expect(checked[4].Mensagem).toMatch(new RegExp(`é do cliente ID ${a.idCliente}, mas a coluna "ID do cliente" diz ${b.idCliente}`));
    // One lookup per distinct value (a's CNPJ is on two rows), and nothing written to the service.
    const log = await sb.requestLog();
    expect(log.filter((e) => e.method !== 'GET')).toEqual([]);
    expect(
      log
        .filter((e) => e.path === '/v2/clientes' && e.query.cpfCnpj !== undefined)
        .map((e) => e.query.cpfCnpj)
        .sort(),
    ).toEqual([digits(a), nobody, digits(inactive)].sort());

    const p = execute(emu, sheet);
    expect(p).toMatchObject({ status: 'done', counts: { ok: 1, failed: 4 } });
    const rows = byHeader(emu, sheet);
    expect(rows.map((r) => r.Status)).toEqual(['EXEMPLO', 'OK', 'ERRO', 'ERRO', 'ERRO', 'ERRO']);
    // The customer its CPF/CNPJ found is written into "ID do cliente", with a note saying so; rows that failed keep theirs.
    expect(rows.slice(1).map((r) => r['ID do cliente'])).toEqual([a.idCliente, '', '', b.idCliente, '']);
    const note = emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheet)!.getRange('B3').getNote());
    expect(note).toMatch(/^Preenchido pelo complemento: cliente achado pelo CPF\/CNPJ .* \(coluna K, "CPF\/CNPJ do cliente"\)\.$/);
    expect(rows[2].Mensagem).toMatch(/^Linha 4, coluna "CPF\/CNPJ do cliente" \(K\): nenhum cliente tem o CPF\/CNPJ 11\.222\.333\/0001-81/);
    expect(rows[3].Mensagem).toMatch(new RegExp(`^Linha 5, coluna "CPF/CNPJ do cliente" \\(K\\): .*\\(ID ${inactive.idCliente}\\) está inativo`));
    expect(rows[4].Mensagem).toMatch(
      new RegExp(`^Linha 6, coluna "CPF/CNPJ do cliente" \\(K\\): .* é do cliente ID ${a.idCliente}, mas a coluna "ID do cliente" diz ${b.idCliente}`),
    );
    // The CPF/CNPJ cells at fault are red, like a validation error; the row sent is not.
    const colors = emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheet)!.getRange('K3:K6').getBackgrounds());
    expect(colors.map(([c]) => c.toLowerCase())).toEqual(['#ffffff', '#f4c7c3', '#f4c7c3', '#f4c7c3']);
    const subs = await created();
    expect(subs.get('OK-1')?.idCliente).toBe(a.idCliente);
    for (const key of ['NINGUEM', 'INATIVO', 'OUTRO', 'VAZIO']) expect(subs.has(key)).toBe(false);
  });
});
