/**
 * Stored work changed by hand in the hidden sheet, one kind of item at a time:
 * a report, an unfinished pull, an unfinished bulk run, an edit snapshot and a
 * dashboard. The owner's hourly run never acts on it, keeps it, writes one
 * Histórico line in the owner's name and sends the owner one e-mail, however
 * many hours go by; what was sent is checked against the sandbox's own log.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { catalog, type Rec } from '../core/bulk/fixtures';
import { connect, emulator, importAll, ok, SP, subscriptionSheet } from './helpers';
import { editCell, stored, WORK_SHEET } from './hidden-sheet';

const OWNER = 'contador@example.com.br';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 23, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset({ size: { faturas: 3_000, clientes: 20, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
});

function keyStarting(emu: GasEmulator, prefix: string): string {
  const key = [...stored(emu).keys()].find((k) => k.startsWith(prefix) && !k.includes('#'));
  expect(key, prefix).toBeDefined();
  return key as string;
}

interface Case {
  kind: string;
  /** Sets the item up (the owner's own work); returns the key prefix of the item to alter. */
  setUp(emu: GasEmulator): Promise<string>;
  alter: (item: Rec) => Rec;
  /** Paths the altered item would have sent to. */
  paths: RegExp;
}

const cases: Case[] = [
  {
    kind: 'report',
    async setUp(emu) {
      importAll(emu, { listing: 'cobrancas', sheetName: 'Cobranças', name: 'Cobranças' });
      const id = (emu.run('listReports') as Rec[]).find((r) => r.name === 'Cobranças')!.id as string;
      expect(ok(emu.run('setReportSchedule', [id, { kind: 'hourly' }, true])).id).toBe(id);
      return `faturamento.relatorio.${id}`;
    },
    alter: (r) => ({ ...r, filters: { ...(r.filters as Rec), situacao: 'CANCELADA' }, lastSuccessStart: Date.now() + 86_400_000 }),
    paths: /cobrancas/,
  },
  {
    kind: 'unfinished pull',
    async setUp(emu) {
      const p = ok(emu.run('startImportRun', [{ connection: 'Demo', listing: 'faturas', sheetName: 'Faturas', filters: {}, name: 'Faturas' }]));
      expect(p.done).toBe(false);
      return `faturamento.job.${p.reportId}`;
    },
    alter: (j) => ({ ...j, state: { ...(j.state as Rec), spec: { ...((j.state as Rec).spec as Rec), filters: { situacao: 'PAGA' } } } }),
    paths: /faturas/,
  },
  {
    kind: 'bulk run',
    async setUp(emu) {
      const cat = await catalog(sb);
      const sheet = subscriptionSheet(emu, cat, 12, 'Alterado');
      const first = ok(
        emu.run(
          'startBulkRun',
          [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Demo', scope: 'all', batchSize: 2, stepSeconds: 5 }],
          {
            costs: { urlFetchCallMs: 3000 },
          },
        ),
      );
      expect(first.done).toBe(false);
      return 'faturamento.lote.';
    },
    alter: (j) => ({ ...j, cursor: 0, keys: [] }),
    paths: /assinaturascontratos/,
  },
  {
    kind: 'edit snapshot',
    async setUp(emu) {
      importAll(emu, { listing: 'assinaturas', sheetName: 'Assinaturas', name: 'Assinaturas' });
      return 'faturamento.edicao.';
    },
    alter: (h) => ({ ...h, connectionId: 'outra' }),
    paths: /assinaturascontratos/,
  },
  {
    kind: 'dashboard',
    async setUp(emu) {
      importAll(emu, { listing: 'cobrancas', sheetName: 'Cobranças', name: 'Cobranças' });
      const id = (emu.run('listReports') as Rec[]).find((r) => r.name === 'Cobranças')!.id as string;
      ok(emu.run('createDashboard', [{ kind: 'vencimentos', reportId: id }]));
      return 'faturamento.painel.';
    },
    alter: (d) => ({ ...d, sheetId: 0 }),
    paths: /cobrancas/,
  },
];

describe('an item altered in the hidden sheet', () => {
  for (const c of cases) {
    it(`is kept, never acted on, and told to its owner once (${c.kind})`, async () => {
      const emu = emulator();
      connect(emu, sb);
      // A schedule of the owner's own keeps their hourly run coming back, hour after hour.
      importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes' });
      const keep = (emu.run('listReports') as Rec[])[0].id as string;
      ok(emu.run('setReportSchedule', [keep, { kind: 'hourly' }, false]));
      const key = keyStarting(emu, await c.setUp(emu));
      editCell(emu, key, c.alter);
      const altered = stored(emu).get(key)?.[1];
      await sb.clearLog();
      emu.mail.length = 0;

      for (const hour of ['11:05', '12:05', '13:05']) emu.runDueTriggers(SP(`2026-11-22T${hour}:00`));

      expect((await sb.requestLog()).filter((e) => c.paths.test(e.path))).toEqual([]);
      expect(stored(emu).get(key)?.[1]).toBe(altered);
      const told = (emu.values('Histórico') as unknown[][]).filter((r) => /alterad[oa] fora do complemento/.test(String(r[6])));
      expect(told).toHaveLength(1);
      expect(String(told[0][6])).toMatch(/Só você pode corrigi/);
      expect(told[0][7]).toBe(OWNER);
      expect(emu.mail.filter((m) => /alterad/.test(m.subject))).toEqual([expect.objectContaining({ to: OWNER, user: OWNER })]);
    });
  }
});

describe('the hidden sheet', () => {
  it('asks a person before an edit by hand (warning-only protection)', () => {
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes' });
    const found = emu.withServices((s) => {
      const sheet = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(WORK_SHEET)!;
      return sheet.getProtections(s.SpreadsheetApp.ProtectionType.SHEET).map((p) => [p.isWarningOnly(), p.getDescription()]);
    });
    expect(found).toEqual([[true, expect.stringMatching(/deixar de executar o item alterado/)]]);
  });

  it('a hidden sheet made before it had a protection gets one at the next save', () => {
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes' });
    const protections = () =>
      emu.withServices((s) => {
        const sheet = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(WORK_SHEET)!;
        return sheet.getProtections(s.SpreadsheetApp.ProtectionType.SHEET).map((p) => p.isWarningOnly());
      });
    emu.withServices((s) => {
      for (const p of s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(WORK_SHEET)!.getProtections(s.SpreadsheetApp.ProtectionType.SHEET)) p.remove();
    });
    expect(protections()).toEqual([]);
    importAll(emu, { listing: 'nfse', sheetName: 'Notas', name: 'Notas' });
    expect(protections()).toEqual([true]);
  });

  it('near the cell limit, a save to it is refused in Portuguese before anything is sent, and what was saved stays', async () => {
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes' });
    const cat = await catalog(sb);
    const sheet = subscriptionSheet(emu, cat, 3, 'Limite');
    const before = [...stored(emu)];
    // Another tab fills the spreadsheet up to a few cells short of 10 million: the run's new row in the hidden sheet does not fit.
    emu.withServices((s) => {
      const ss = s.SpreadsheetApp.getActiveSpreadsheet();
      const used = ss.getSheets().reduce((n, sh) => n + sh.getMaxRows() * sh.getMaxColumns(), 0);
      const big = ss.insertSheet('Grande');
      big.deleteColumns(2, big.getMaxColumns() - 1);
      big.insertRowsAfter(big.getMaxRows(), 10_000_000 - used - big.getMaxRows() - 1);
    });
    await sb.clearLog();
    const r = emu.run('startBulkRun', [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Demo', scope: 'all' }]) as Rec;
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/não foi gravado: a planilha chegou ao limite de células do Google, e o que já estava salvo continua igual/);
    expect(String(r.message)).not.toMatch(/cells|workbook|limit of/i);
    expect((await sb.requestLog()).filter((e) => e.method !== 'GET')).toEqual([]);
    expect([...stored(emu)]).toEqual(before);
  });
});
