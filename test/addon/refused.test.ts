/**
 * Stored work in its owner's name that their hourly run refuses without it
 * being theirs as they saved it: a scheduled report whose owner field or JSON a
 * co-editor broke, and work saved by the previous version (vouched for by the
 * owner's old ledger, which signed only an item's terms, and unfinished pulls,
 * which it did not sign at all). Each refusal is told
 * to the owner, who alone can act on it: a Histórico line in their name naming
 * the item and what to do, and at most one e-mail a day per item. What was sent
 * is checked against the sandbox's own log.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { catalog, type Rec } from '../core/bulk/fixtures';
import { connect, emulator, importAll, ok, SP, subscriptionSheet } from './helpers';
import { editJson, stored, typeOver } from './hidden-sheet';

const OWNER = 'contador@example.com.br';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 29, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset({ size: { faturas: 3_000, clientes: 20, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
});

/** The owner's own work: a scheduled report of theirs keeps their hourly run coming back; returns the scheduled report to break. */
function scheduledReport(emu: GasEmulator): string {
  connect(emu, sb);
  importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes' });
  const keep = (emu.run('listReports') as Rec[])[0].id as string;
  ok(emu.run('setReportSchedule', [keep, { kind: 'hourly' }, false]));
  importAll(emu, { listing: 'cobrancas', sheetName: 'Cobranças', name: 'Cobranças do mês' });
  const id = (emu.run('listReports') as Rec[]).find((r) => r.name === 'Cobranças do mês')!.id as string;
  ok(emu.run('setReportSchedule', [id, { kind: 'hourly' }, false]));
  return id;
}

/** Histórico's lines about refusals (their Mensagem says what to do). */
function toldLines(emu: GasEmulator): unknown[][] {
  return (emu.values('Histórico') as unknown[][])
    .slice(1)
    .filter((r) => /não é executad|não é continuad|não pode mais ser lid|não está mais em seu nome/.test(String(r[6])));
}

function hours(emu: GasEmulator, day: string, times: string[], between?: (i: number) => void): void {
  times.forEach((t, i) => {
    between?.(i);
    emu.runDueTriggers(SP(`${day}T${t}:00`));
  });
}

describe('a scheduled report a co-editor broke', () => {
  const breaks: Array<{ how: string; text: (value: string) => string; says: RegExp }> = [
    { how: 'its owner field removed', text: editJson(({ owner: _, ...r }) => r), says: /Cobranças do mês.*alterado fora do complemento.*Assumir/ },
    {
      how: 'its owner field naming someone else',
      text: editJson((r) => ({ ...r, owner: { id: 'outra-pessoa', email: 'estagiario@example.com.br' } })),
      says: /Cobranças do mês.*não está mais em seu nome.*estagiario@example\.com\.br.*Assumir/,
    },
    { how: 'its JSON broken', text: (v) => v.slice(0, -7), says: /relatório da aba "Cobranças".*não pode mais ser lido.*Importar dados/ },
  ];
  for (const b of breaks) {
    it(`is kept, never run, and told to its owner once, with what to do (${b.how})`, async () => {
      const emu = emulator();
      const id = scheduledReport(emu);
      const key = `faturamento.relatorio.${id}`;
      typeOver(emu, key, b.text);
      const broken = stored(emu).get(key)?.[1];
      await sb.clearLog();
      emu.mail.length = 0;

      hours(emu, '2026-11-22', ['11:05', '12:05', '13:05']);

      expect((await sb.requestLog()).filter((e) => /cobrancas/.test(e.path))).toEqual([]);
      expect((await sb.requestLog()).filter((e) => /clientes/.test(e.path)).length).toBeGreaterThan(0);
      expect(stored(emu).get(key)?.[1]).toBe(broken);
      const told = toldLines(emu);
      expect(told).toHaveLength(1);
      expect(String(told[0][6])).toMatch(b.says);
      expect(told[0][7]).toBe(OWNER);
      expect(emu.mail).toEqual([expect.objectContaining({ to: OWNER, user: OWNER, body: expect.stringMatching(b.says) })]);
    });
  }

  it('with the day’s e-mails spent, the line is still written and the rest of the owner’s work still runs', async () => {
    const emu = emulator();
    const id = scheduledReport(emu);
    typeOver(emu, `faturamento.relatorio.${id}`, (v) => v.slice(0, -7));
    // The owner's other scripts sent the account's e-mails of the day.
    emu.withServices((s) => {
      while (s.MailApp.getRemainingDailyQuota() > 0) s.MailApp.sendEmail(OWNER, 'outro script', '.');
    });
    emu.mail.length = 0;
    await sb.clearLog();
    const [run] = emu.runDueTriggers(SP('2026-11-22T11:05:00'));
    expect(run.status).toBe('ok');
    expect((await sb.requestLog()).filter((e) => /clientes/.test(e.path)).length).toBeGreaterThan(0);
    expect(toldLines(emu)).toHaveLength(1);
    expect(emu.mail).toEqual([]);
  });

  it('broken again and again: a Histórico line for each new alteration, at most one e-mail a day', async () => {
    const emu = emulator();
    const id = scheduledReport(emu);
    const key = `faturamento.relatorio.${id}`;
    emu.mail.length = 0;
    const breakAgain = (i: number) => typeOver(emu, key, () => `{"quebrado": ${i}`);
    hours(emu, '2026-11-22', ['11:05', '12:05', '13:05'], breakAgain);
    expect(toldLines(emu)).toHaveLength(3);
    expect(emu.mail).toHaveLength(1);
    hours(emu, '2026-11-23', ['11:05', '12:05'], (i) => breakAgain(10 + i));
    expect(toldLines(emu)).toHaveLength(5);
    expect(emu.mail).toHaveLength(2);
    expect(new Set(emu.mail.map((m) => m.to))).toEqual(new Set([OWNER]));
  });
});

/** What the owner's old ledger signed of an item (the previous version's terms). */
function terms(kind: 'reports' | 'bulk', item: Rec): unknown[] {
  const owner = (item.owner as Rec | undefined)?.id;
  if (kind === 'bulk') return ['b', item.id, owner, item.connectionId, item.operation, item.sheetId, item.startedAt];
  const base = ['r', item.id, owner, item.connectionId, item.listing, item.filters, item.incremental, item.schedule, item.notifyByEmail];
  return [...base, ...(item.cardData ? ['cartao'] : []), ...(item.companies ? [item.companies] : [])];
}

/**
 * Makes the item under `key` one the previous version saved: no signature of the whole item, and the owner's old
 * ledger vouching for its terms as it is now.
 */
function savedByPreviousVersion(emu: GasEmulator, key: string, kind: 'reports' | 'bulk'): void {
  const item = JSON.parse(stored(emu).get(key)![1]) as Rec;
  emu.withServices((s) => {
    const props = s.PropertiesService.getUserProperties();
    const me = JSON.parse(props.getProperty('faturamento.usuario')!) as Rec;
    const doc = s.SpreadsheetApp.getActiveSpreadsheet().getId();
    props.deleteProperty(`faturamento.selo.${doc}|${key}`);
    const ledgerKey = `faturamento.meus.${doc}`;
    const ledger = JSON.parse(props.getProperty(ledgerKey) ?? '{"reports":{},"bulk":{}}');
    ledger[kind][item.id as string] = s.Utilities.base64Encode(s.Utilities.computeHmacSha256Signature(JSON.stringify(terms(kind, item)), me.secret as string));
    props.setProperty(ledgerKey, JSON.stringify(ledger));
  });
}

function ledgerOf(emu: GasEmulator): string | null {
  return emu.withServices((s) => s.PropertiesService.getUserProperties().getProperty(`faturamento.meus.${s.SpreadsheetApp.getActiveSpreadsheet().getId()}`));
}

describe('work saved by the previous version', () => {
  it('a scheduled report its owner vouched for keeps running, and is signed whole from its first run', async () => {
    const emu = emulator();
    const id = scheduledReport(emu);
    savedByPreviousVersion(emu, `faturamento.relatorio.${id}`, 'reports');
    await sb.clearLog();
    emu.mail.length = 0;
    hours(emu, '2026-11-22', ['11:05']);
    expect((await sb.requestLog()).filter((e) => /cobrancas/.test(e.path)).length).toBeGreaterThan(0);
    expect((emu.run('listReports') as Rec[]).find((r) => r.id === id)?.lastRun).toMatchObject({ origin: 'agendado', result: 'ok' });
    await sb.clearLog();
    hours(emu, '2026-11-22', ['12:05']);
    expect((await sb.requestLog()).filter((e) => /cobrancas/.test(e.path)).length).toBeGreaterThan(0);
    // Signed whole since its first run: the old ledger has nothing left to vouch for.
    expect(ledgerOf(emu)).toBeNull();
    expect(toldLines(emu)).toEqual([]);
    expect(emu.mail).toEqual([]);
  });

  it('a scheduled report changed in what its owner vouched for is refused and told', async () => {
    const emu = emulator();
    const id = scheduledReport(emu);
    const key = `faturamento.relatorio.${id}`;
    savedByPreviousVersion(emu, key, 'reports');
    typeOver(
      emu,
      key,
      editJson((r) => ({ ...r, filters: { situacao: 'CANCELADA' } })),
    );
    await sb.clearLog();
    emu.mail.length = 0;
    hours(emu, '2026-11-22', ['11:05', '12:05']);
    expect((await sb.requestLog()).filter((e) => /cobrancas/.test(e.path))).toEqual([]);
    const told = toldLines(emu);
    expect(told).toHaveLength(1);
    expect(String(told[0][6])).toMatch(/Cobranças do mês.*alterado fora do complemento/);
    expect(emu.mail).toEqual([expect.objectContaining({ to: OWNER })]);
  });

  it('an unfinished pull of a scheduled report is not continued nor blamed on anyone: the report starts over, and its owner is told', async () => {
    const emu = emulator();
    connect(emu, sb);
    const started = ok(emu.run('startImportRun', [{ connection: 'Demo', listing: 'faturas', sheetName: 'Faturas', filters: {}, name: 'Faturas' }]));
    expect(started.done).toBe(false);
    const id = started.reportId as string;
    ok(emu.run('setReportSchedule', [id, { kind: 'hourly' }, false]));
    // The previous version signed no pull.
    emu.withServices((s) => {
      const props = s.PropertiesService.getUserProperties();
      for (const k of props.getKeys()) if (k.includes(`|faturamento.job.${id}`)) props.deleteProperty(k);
    });
    emu.mail.length = 0;
    hours(emu, '2026-11-22', ['11:05', '12:05', '13:05']);
    expect((emu.run('listReports') as Rec[]).find((r) => r.id === id)?.lastRun).toMatchObject({ origin: 'agendado', result: 'ok' });
    expect((emu.values('Histórico') as unknown[][]).filter((r) => /fora do complemento/.test(String(r[6])))).toEqual([]);
    const told = toldLines(emu);
    expect(told).toHaveLength(1);
    expect(String(told[0][6])).toMatch(/atualização em andamento do relatório "Faturas" .*versão anterior.*recomeça do início/);
    expect(emu.mail).toHaveLength(1);
  });

  async function unfinishedBulkRun(emu: GasEmulator): Promise<string> {
    connect(emu, sb);
    importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes' });
    ok(emu.run('setReportSchedule', [(emu.run('listReports') as Rec[])[0].id, { kind: 'hourly' }, false]));
    const cat = await catalog(sb);
    const sheet = subscriptionSheet(emu, cat, 12, 'Anterior');
    const first = ok(
      emu.run(
        'startBulkRun',
        [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Demo', scope: 'all', batchSize: 2, stepSeconds: 5 }],
        { costs: { urlFetchCallMs: 3000 } },
      ),
    );
    expect(first.done).toBe(false);
    const key = [...stored(emu).keys()].find((k) => k.startsWith('faturamento.lote.') && !k.includes('#'))!;
    savedByPreviousVersion(emu, key, 'bulk');
    return key;
  }

  const forgeries: Array<{ how: string; text: (value: string) => string; says: RegExp }> = [
    { how: 'moved to another sheet', text: editJson((j) => ({ ...j, sheetId: 0 })), says: /O lote da aba "[^"]+" foi alterado fora do complemento/ },
    { how: 'its row made unreadable', text: (v) => v.slice(0, -3), says: /lote.*não pode mais ser lido.*Lançamentos em lote/ },
  ];
  for (const f of forgeries) {
    it(`an unfinished bulk run whose stored row was forged (${f.how}) sends nothing and is told`, async () => {
      const emu = emulator();
      const key = await unfinishedBulkRun(emu);
      typeOver(emu, key, f.text);
      await sb.clearLog();
      emu.mail.length = 0;
      hours(emu, '2026-11-22', ['11:05', '12:05', '13:05']);
      expect((await sb.requestLog()).filter((e) => /assinaturascontratos/.test(e.path))).toEqual([]);
      const told = toldLines(emu);
      expect(told).toHaveLength(1);
      expect(String(told[0][6])).toMatch(f.says);
      expect(emu.mail).toEqual([expect.objectContaining({ to: OWNER, body: expect.stringMatching(f.says) })]);
    });
  }

  it('an unfinished bulk run its owner vouched for goes on', async () => {
    const emu = emulator();
    await unfinishedBulkRun(emu);
    await sb.clearLog();
    hours(emu, '2026-11-22', ['11:05']);
    expect((await sb.requestLog()).filter((e) => /assinaturascontratos/.test(e.path) && e.method !== 'GET').length).toBeGreaterThan(0);
    expect(toldLines(emu)).toEqual([]);
  });
});
