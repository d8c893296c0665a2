/**
 * Connections know their organization, from what the service returns (no
 * endpoint names it): two connections that reach one organization (the
 * sandbox's first organization has two keys) are told apart from two
 * companies. "Todas as minhas conexões" counts each organization once, and the
 * aging panel's total is the sandbox's own sum over the distinct
 * organizations, to the cent. Testar names the company; a refused key leaves
 * a mark on the connection, not "Chave salva". A report that changes company
 * ("Assumir" with another company's connection, confirmed): after its next
 * full run a panel over it counts only the new company's records, to the cent;
 * the old rows that carry the add-on's own bulk results (Status do lote, ID da
 * NFS-e…) are not the user's notes and leave with their records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { bulkToEnd, emulator, finishRun, ok, type Progress } from './helpers';

type Rec = Record<string, any>;
let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 61, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});

const cents = (n: number) => Math.round(n * 100);
const open = (c: Rec) => !c.isQuitado && !['CANCELADA', 'CANCELADO', 'BAIXA_POR_PERDA', 'BAIXADO'].includes(c.situacao);

function save(emu: GasEmulator, name: string, apiKey: string, id?: string, as = {}): string {
  const saved = emu.run('saveConnection', [{ ...(id ? { id } : {}), name, baseUrl: sb.baseUrl, apiKey }], as) as Rec;
  expect(saved.ok).toBe(true);
  return saved.connection.id;
}

/** The aging panel's values, found by the sheet name it was given. */
function values(emu: GasEmulator, sheetName: string): unknown[][] {
  return emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheetName)!.getDataRange().getValues() as unknown[][]);
}

describe('connections that reach one organization', () => {
  it('a consolidated report of every connection counts Aurora once though two connections reach it: the aging total is the sandbox’s, to the cent', async () => {
    const emu = emulator();
    const [aurora, ipe] = sb.orgs;
    // Saved as a script would, never tested: the run itself tells their organizations.
    save(emu, 'Aurora', aurora.apiKey);
    save(emu, 'Aurora (chave nova)', (aurora.otherKeys as string[])[0]);
    save(emu, 'Ipê', ipe.apiKey);
    const started = ok<Progress>(
      emu.run('startImportRun', [
        { connection: '', companies: { all: true }, listing: 'cobrancas', filters: { isExibeCanceladas: true }, sheetName: 'Cobranças', name: 'Cobranças' },
      ]),
    );
    const done = finishRun(emu, started.reportId);
    expect(done.status).toBe('done');
    expect(done.warnings.join(' ')).toMatch(
      /As conexões "Aurora" e "Aurora \(chave nova\)" chegam à mesma organização \("Aurora Contabilidade Ltda" \(CNPJ 11\.444\.777\/0001-61\)\): ela foi contada uma vez só, pela conexão "Aurora"\./,
    );
    const dumps = { Aurora: await sb.dump<Rec>(aurora.name, 'cobrancas'), Ipê: await sb.dump<Rec>(ipe.name, 'cobrancas') };
    expect(done.rows).toBe(dumps.Aurora.length + dumps.Ipê.length);
    const empresas = emu
      .values('Cobranças')
      .slice(1)
      .map((r) => r[0]);
    expect(new Set(empresas)).toEqual(new Set(['Aurora', 'Ipê']));

    const panel = ok<Rec>(emu.run('createDashboard', [{ kind: 'vencimentos', reportId: started.reportId }]));
    const rows = values(emu, panel.sheetName);
    const header = rows[8];
    expect(header).toEqual(['Faixa', 'Aurora', 'Ipê', 'Total']);
    const total = rows.find((r) => r[0] === 'Total') as unknown[];
    const expected = [...dumps.Aurora, ...dumps.Ipê].filter(open).reduce((t, c) => t + cents(c.valor), 0);
    expect(expected).toBeGreaterThan(0);
    expect(cents(total[3] as number)).toBe(expected);
    expect(cents(total[1] as number)).toBe(dumps.Aurora.filter(open).reduce((t, c) => t + cents(c.valor), 0));
    // What the run found is kept on the connections: the next run asks nothing more to tell them.
    const listed = emu.run('listConnections') as Rec[];
    expect(listed.map((c) => c.organization?.name)).toEqual([aurora.name, aurora.name, ipe.name]);
    await sb.clearLog();
    emu.run('runReport', [started.reportId]);
    expect(finishRun(emu, started.reportId).status).toBe('done');
    expect((await sb.requestLog({ pathPrefix: '/v2/clientes' })).length).toBe(0);
  });

  it('Testar names the company and warns when another connection reaches it; a refused key is marked on the connection', () => {
    const emu = emulator();
    const [aurora] = sb.orgs;
    const first = save(emu, 'Aurora', aurora.apiKey);
    const tested = emu.run('testConnection', [{ id: first }]) as Rec;
    expect(tested).toMatchObject({ ok: true, code: 'ok' });
    expect(tested.message).toBe('Conexão funcionando: 60 clientes na organização "Aurora Contabilidade Ltda" (CNPJ 11.444.777/0001-61).');
    expect(tested.warning).toBeUndefined();
    const second = save(emu, 'Aurora 2', (aurora.otherKeys as string[])[0]);
    const again = emu.run('testConnection', [{ id: second }]) as Rec;
    expect(again.warning).toMatch(/^A conexão "Aurora 2" chega à mesma organização que "Aurora": "Aurora Contabilidade Ltda"/);

    save(emu, 'Aurora 2', 'sbx_live_chave_recusada', second);
    expect((emu.run('testConnection', [{ id: second }]) as Rec).code).toBe('unauthorized');
    const listed = (emu.run('listConnections') as Rec[]).find((c) => c.id === second)!;
    expect(listed).toMatchObject({ hasKey: true, keyProblem: 'Chave recusada' });
    expect(listed.organization).toBeUndefined();
    // A typed key that is not saved yet changes nothing on the saved connection.
    emu.run('testConnection', [{ id: second, apiKey: aurora.apiKey }]);
    expect((emu.run('listConnections') as Rec[]).find((c) => c.id === second)!.keyProblem).toBe('Chave recusada');
  });

  it('Assumir with a connection of another company names it (before: Aurora, after: Ipê) and asks; the old owner’s panel drops Aurora’s numbers', () => {
    const emu = emulator();
    const [aurora, ipe] = sb.orgs;
    const mine = save(emu, 'Aurora', aurora.apiKey);
    emu.run('testConnection', [{ id: mine }]);
    const started = ok<Progress>(
      emu.run('startImportRun', [{ connection: mine, listing: 'cobrancas', filters: {}, sheetName: 'Cobranças', name: 'Cobranças' }]),
    );
    expect(finishRun(emu, started.reportId).status).toBe('done');
    const panel = ok<Rec>(emu.run('createDashboard', [{ kind: 'vencimentos', reportId: started.reportId }]));
    expect(values(emu, panel.sheetName).some((r) => r[0] === 'Total')).toBe(true);

    const ANA = { user: 'ana@escritorio.com.br' };
    expect((emu.run('saveConnection', [{ name: 'Ipê', baseUrl: sb.baseUrl, apiKey: ipe.apiKey }], ANA) as Rec).ok).toBe(true);
    const anaConnection = (emu.run('listConnections', [], ANA) as Rec[])[0].id;
    const asked = emu.run('takeOverReport', [started.reportId, anaConnection], ANA) as Rec;
    expect(asked).toMatchObject({ ok: false, field: 'empresa' });
    expect(asked.message).toMatch(/muda de empresa: antes "Aurora Contabilidade Ltda" \(CNPJ 11\.444\.777\/0001-61\), depois "Ipê Assessoria Contábil S\/S"/);
    // Nothing changed hands while unconfirmed.
    expect((emu.run('listReports') as Rec[])[0].mine).toBe(true);
    const taken = emu.run('takeOverReport', [started.reportId, anaConnection, true], ANA) as Rec;
    expect(taken.ok).toBe(true);
    const after = values(emu, panel.sheetName);
    expect(after.some((r) => r[0] === 'Total')).toBe(false);
    expect(after.flat().join(' ')).toMatch(
      /mudou de empresa ao ser assumido por ana@escritorio\.com\.br \(antes Aurora Contabilidade Ltda, agora Ipê Assessoria Contábil S\/S\)/,
    );
  });
});

const MONTHS = Array.from({ length: 12 }, (_, i) => {
  const m = 2026 * 12 + 10 - 11 + i;
  return `${String((m % 12) + 1).padStart(2, '0')}/${Math.floor(m / 12)}`;
});

/** Faturamento por competência's rows: competência, cents, count. */
function billing(emu: GasEmulator, sheetName: string): Array<[string, number, number]> {
  const values = emu.values(sheetName) as unknown[][];
  const at = values.findIndex((r) => r[0] === 'Competência');
  return values.slice(at + 1, at + 13).map((r) => [String(r[0]), cents(r[1] as number), r[2] as number]);
}

/** Aurora's invoices imported in full, by the document's first user, with their own connection. */
function auroraInvoices() {
  const emu = emulator();
  const mine = save(emu, 'Aurora', sb.orgs[0].apiKey);
  const started = ok<Progress>(
    emu.run('startImportRun', [{ connection: mine, listing: 'faturas', filters: {}, sheetName: 'Faturas', name: 'Faturas', incremental: false }]),
  );
  expect(finishRun(emu, started.reportId).status).toBe('done');
  return { emu, mine, started };
}

describe('a report that changes company', () => {
  it('after Assumir with another company and its full run, a panel counts only the new company’s records: the old rows with bulk results are gone', async () => {
    const { emu, mine, started } = auroraInvoices();
    const ipe = sb.orgs[1];
    // NFS-e issued in bulk from the report's own sheet: its rows now carry the add-on's results beside them.
    const rows = (emu.values('Faturas') as unknown[][]).length - 1;
    emu.select('Faturas', `A2:A${Math.min(rows, 40) + 1}`);
    bulkToEnd(emu, ok(emu.run('startBulkRun', [{ connection: mine, operation: 'emitirNfse', sheetName: 'Faturas', scope: 'selected' }])));
    const header = (emu.values('Faturas') as unknown[][])[0];
    expect(header).toContain('Status do lote');
    expect(header).toContain('ID da NFS-e');

    // Ana takes the report over with her connection to another company, confirmed, and runs it.
    const ANA = { user: 'ana@escritorio.com.br' };
    const hers = save(emu, 'Ipê', ipe.apiKey, undefined, ANA);
    expect(emu.run('takeOverReport', [started.reportId, hers, true], ANA)).toMatchObject({ ok: true });
    emu.run('runReport', [started.reportId, true], ANA);
    const done = finishRun(emu, started.reportId, ANA);
    expect(done.status).toBe('done');
    expect(done.warnings.join(' ')).not.toMatch(/anotações suas/);

    const panel = ok<Rec>(emu.run('createDashboard', [{ kind: 'faturamento', reportId: started.reportId }], ANA));
    const dump = await sb.dump<Rec>(ipe.name, 'faturas');
    const live = dump.filter((f) => f.statusFatura !== 'CANCELADA');
    const expected = MONTHS.map((m): [string, number, number] => {
      const of = live.filter((f) => f.competencia === m);
      return [m, of.reduce((t, f) => t + cents(f.valorTotal), 0), of.length];
    });
    expect(expected.some(([, c]) => c > 0)).toBe(true);
    expect(billing(emu, panel.sheetName)).toEqual(expected);
    expect((emu.values('Faturas') as unknown[][]).length - 1).toBe(dump.length);
  });
  it('after the change of company, the old rows kept for the user’s own notes are not records: no panel counts them', async () => {
    const { emu, started } = auroraInvoices();
    const [aurora, ipe] = sb.orgs;
    // The user writes beside Aurora's first ten invoices, in a column of their own.
    const noted = emu.withServices((s) => {
      const sheet = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Faturas')!;
      const own = sheet.getLastColumn() + 2;
      sheet.getRange(2, own, 10, 1).setValues(Array.from({ length: 10 }, () => ['cobrar']));
      const idAt = (sheet.getRange(1, 1, 1, sheet.getLastColumn()).getNotes()[0] as string[]).findIndex((n) => n.split('\n')[0] === 'idFatura') + 1;
      return sheet
        .getRange(2, idAt, 10, 1)
        .getValues()
        .map((r: unknown[]) => r[0] as number);
    });
    const old = await sb.dump<Rec>(aurora.name, 'faturas');
    expect(old.filter((f) => noted.includes(f.idFatura) && MONTHS.includes(f.competencia) && f.statusFatura !== 'CANCELADA').length).toBeGreaterThan(0);

    const ANA = { user: 'ana@escritorio.com.br' };
    const hers = save(emu, 'Ipê', ipe.apiKey, undefined, ANA);
    expect(emu.run('takeOverReport', [started.reportId, hers, true], ANA)).toMatchObject({ ok: true });
    emu.run('runReport', [started.reportId, true], ANA);
    const done = finishRun(emu, started.reportId, ANA);
    expect(done.warnings.join(' ')).toMatch(/10 linha\(s\) de registros que não vieram nesta atualização ficaram na aba porque têm anotações suas/);
    const dump = await sb.dump<Rec>(ipe.name, 'faturas');
    expect((emu.values('Faturas') as unknown[][]).length - 1).toBe(dump.length + 10);

    const panel = ok<Rec>(emu.run('createDashboard', [{ kind: 'faturamento', reportId: started.reportId }], ANA));
    const live = dump.filter((f) => f.statusFatura !== 'CANCELADA');
    expect(billing(emu, panel.sheetName)).toEqual(
      MONTHS.map((m): [string, number, number] => {
        const of = live.filter((f) => f.competencia === m);
        return [m, of.reduce((t, f) => t + cents(f.valorTotal), 0), of.length];
      }),
    );
  });
});
