/**
 * The hourly run in an office of spreadsheets: it opens only documents with
 * something due, drops one it can no longer open with a line to its owner,
 * flushes before it lets a lock go, never undoes a colleague's Excluir or
 * Assumir made while it ran, and does nothing while the owner must authorize
 * the add-on again.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceCall } from '../../dev/gas/execution';
import { spreadsheetId } from '../../dev/gas/office';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { DISPATCHERS_PER_OWNER } from '../../src/core/hourly/dispatch';
import type { Rec } from '../core/bulk/fixtures';
import { emulator, importAll, ok, SP } from './helpers';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 23, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset({ size: { faturas: 10, clientes: 30, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
});

const ANA = 'ana@escritorio.com.br';
const BRUNO = 'bruno@escritorio.com.br';
const as = (user: string, documentId?: string) => ({ user, ...(documentId ? { documentId } : {}) });
const HOUR = 3_600_000;
/** Client documents with ids of Google's length, as the agenda and the signatures keep them. */
const CLIENTE_A = spreadsheetId('cliente-a');
const CLIENTE_B = spreadsheetId('cliente-b');
const CLIENTE_DIARIO = spreadsheetId('cliente-diario');
const cliente = (n: number | string) => spreadsheetId(`cliente-${n}`);

function connect(emu: GasEmulator, user: string, org: number): void {
  ok(emu.run('saveConnection', [{ name: 'Empresa', baseUrl: sb.baseUrl, apiKey: sb.orgs[org].apiKey, isDefault: true }], as(user)));
}

function reportIn(emu: GasEmulator, name: string, user: string, documentId?: string): Rec {
  const found = (emu.run('listReports', [], as(user, documentId)) as Rec[]).find((r) => r.name === name);
  if (!found) throw new Error(`no report ${name}`);
  return found;
}

/** A report pulled into `documentId` by `user`, scheduled when `schedule` is given. */
function pulled(emu: GasEmulator, user: string, documentId: string | undefined, name: string, schedule?: Rec): Rec {
  importAll(emu, { listing: 'clientes', sheetName: name, name, connection: 'Empresa' }, as(user, documentId));
  const report = reportIn(emu, name, user, documentId);
  if (schedule) ok(emu.run('setReportSchedule', [report.id, schedule, true], as(user, documentId)));
  return report;
}

/** Counts what each execution opened by id. */
function opens(): { onServiceCall: (c: ServiceCall) => void; count: () => number } {
  let n = 0;
  return {
    onServiceCall: (c) => {
      if (c.object === 'SpreadsheetApp' && c.method === 'openById') n++;
    },
    count: () => n,
  };
}

describe('an hour with nothing due', () => {
  it('opens no document that has nothing due, however many hold reports; the due one is opened when its time comes', () => {
    const emu = emulator({ startAt: SP('2026-11-22T10:00:00') });
    connect(emu, ANA, 0);
    // Five client spreadsheets with reports nobody scheduled, and one with a report due every day at 15h.
    for (let i = 1; i <= 5; i++) {
      emu.addSpreadsheet({ id: cliente(i), name: `Cliente ${i}` });
      pulled(emu, ANA, cliente(i), `Clientes ${i}`);
    }
    emu.addSpreadsheet({ id: CLIENTE_DIARIO, name: 'Cliente diário' });
    pulled(emu, ANA, CLIENTE_DIARIO, 'Diário', { kind: 'daily', hour: 15 });
    expect(emu.triggers.triggers.map((t) => t.documentId)).toEqual([CLIENTE_DIARIO]);

    // Nothing due from 11h to 14h (triggers without the document) and from 16h to 19h (with it).
    for (const [documentContext, hours] of [
      [false, [11, 12, 13, 14]],
      [true, [16, 17, 18, 19]],
    ] as const) {
      const counted = opens();
      let sheetCalls = 0;
      const properties = { read: 0, written: 0 };
      const onServiceCall = (c: ServiceCall) => {
        counted.onServiceCall(c);
        if (c.object === 'Sheet' || c.object === 'Range') sheetCalls++;
        if (c.object === 'Properties') properties[c.method.startsWith('get') ? 'read' : 'written']++;
      };
      for (const h of hours) {
        const reports = emu.runDueTriggers(SP(`2026-11-22T${h}:59:00`), { documentContext, onServiceCall });
        expect(reports.map((r) => r.status)).toEqual(['ok']);
      }
      expect(counted.count()).toBe(0);
      // No sheet was read either: the run read the owner's agenda and the day's usage, and wrote its usage with
      // what it saw (for the Diagnóstico) in one write.
      expect(sheetCalls).toBe(0);
      expect(properties).toEqual({ read: 3 * hours.length, written: hours.length });
      if (!documentContext) {
        // 15h: the daily report's document, and only it.
        emu.runDueTriggers(SP('2026-11-22T15:59:00'), { documentContext, onServiceCall: counted.onServiceCall });
        expect(counted.count()).toBe(1);
        expect(reportIn(emu, 'Diário', ANA, CLIENTE_DIARIO).lastRun).toMatchObject({ origin: 'agendado' });
      }
    }
  });
});

describe('documents past the owner’s few triggers (and past the per-user limit of 20)', () => {
  it('a run in its own document also serves the due documents that have no trigger, and an hour with nothing due opens none', () => {
    const emu = emulator({ startAt: SP('2026-11-22T10:00:00') });
    connect(emu, ANA, 0);
    // Twenty-one client spreadsheets, each with a report due every day at 15h: Apps Script allows Ana 20 triggers.
    const ids = Array.from({ length: 21 }, (_, i) => cliente(String(i + 1).padStart(2, '0')));
    for (const id of ids) {
      emu.addSpreadsheet({ id, name: id });
      pulled(emu, ANA, id, `Diário ${id}`, { kind: 'daily', hour: 15 });
    }
    // The owner keeps a few triggers; the other documents are served through the agenda by their runs.
    const withTrigger = new Set(emu.triggers.triggers.map((t) => t.documentId));
    expect(withTrigger.size).toBe(DISPATCHERS_PER_OWNER);
    const stranded = ids.filter((id) => !withTrigger.has(id));
    expect(stranded).toHaveLength(21 - DISPATCHERS_PER_OWNER);
    const counted = opens();
    emu.runDueTriggers(SP('2026-11-22T14:59:00'), { documentContext: true, onServiceCall: counted.onServiceCall });
    expect(counted.count()).toBe(0);
    emu.runDueTriggers(SP('2026-11-22T15:59:00'), { documentContext: true, onServiceCall: counted.onServiceCall });
    for (const id of ids) expect(reportIn(emu, `Diário ${id}`, ANA, id).lastRun).toMatchObject({ origin: 'agendado', result: 'ok' });
  });
});

describe('the owner’s few triggers', () => {
  it('a trigger stays while the owner has work in other documents, and goes at the first run after the owner has none left anywhere', () => {
    const emu = emulator({ startAt: SP('2026-11-22T10:00:00') });
    connect(emu, ANA, 0);
    const ids = Array.from({ length: DISPATCHERS_PER_OWNER + 2 }, (_, i) => cliente(`poucos-${i}`));
    const reports = ids.map((id) => {
      emu.addSpreadsheet({ id, name: id });
      return pulled(emu, ANA, id, `Diário ${id}`, { kind: 'daily', hour: 15 });
    });
    const carriers = () => new Set(emu.triggers.triggers.map((t) => t.documentId));
    const first = carriers();
    expect(first).toEqual(new Set(ids.slice(0, DISPATCHERS_PER_OWNER)));
    // The schedule of a document with a trigger is removed: its trigger stays, to serve the others.
    ok(emu.run('setReportSchedule', [reports[0].id, null, false], as(ANA, ids[0])));
    expect(carriers()).toEqual(first);
    emu.runDueTriggers(SP('2026-11-22T14:59:00'), { documentContext: true });
    emu.runDueTriggers(SP('2026-11-22T15:59:00'), { documentContext: true });
    for (const id of ids.slice(1)) expect(reportIn(emu, `Diário ${id}`, ANA, id).lastRun).toMatchObject({ origin: 'agendado', result: 'ok' });
    // Every schedule removed: the triggers of documents with nothing left stay until a run finds the owner's agenda empty.
    for (const [i, id] of ids.entries()) ok(emu.run('setReportSchedule', [reports[i].id, null, false], as(ANA, id)));
    expect(carriers().size).toBeGreaterThan(0);
    emu.runDueTriggers(SP('2026-11-22T16:59:00'), { documentContext: true });
    expect(emu.triggers.triggers).toEqual([]);
  });
});

describe('a document the owner can no longer open', () => {
  it('is tried again each hour for a day, then dropped with one e-mail to its owner naming it; the other documents go on', () => {
    const emu = emulator();
    connect(emu, ANA, 0);
    emu.addSpreadsheet({ id: CLIENTE_A, name: 'Cliente A', editors: [ANA] });
    emu.addSpreadsheet({ id: CLIENTE_B, name: 'Cliente B', editors: [ANA] });
    pulled(emu, ANA, CLIENTE_A, 'A', { kind: 'hourly' });
    pulled(emu, ANA, CLIENTE_B, 'B', { kind: 'hourly' });
    emu.share(CLIENTE_A, ANA, false);
    let triesOfA = 0;
    const onServiceCall = (c: ServiceCall) => {
      if (c.object === 'SpreadsheetApp' && c.method === 'openById' && c.args[0] === CLIENTE_A) triesOfA++;
    };
    const told = () => emu.mail.filter((m) => m.to === ANA && /fora do alcance/.test(m.subject));
    const inAgenda = () => CLIENTE_A in JSON.parse(emu.properties.userStore(ANA).get('faturamento.agenda') ?? '{}');
    // Not shared for most of a day: still in the agenda, nobody told.
    for (let h = 0; h < 23; h++) emu.runDueTriggers(new Date(emu.now + HOUR), { documentContext: false, onServiceCall });
    expect({ told: told().length, inAgenda: inAgenda(), triesOfA }).toEqual({ told: 0, inAgenda: true, triesOfA: 23 });
    for (let h = 0; h < 5; h++) emu.runDueTriggers(new Date(emu.now + HOUR), { documentContext: false, onServiceCall });
    expect(told()).toHaveLength(1);
    expect(told()[0].subject).toContain(CLIENTE_A);
    expect(told()[0].body).toContain(CLIENTE_A);
    expect(told()[0].body).toMatch(/não está mais compartilhada/);
    expect(inAgenda()).toBe(false);
    // Tried once an hour until it left: a day and an hour after the first try.
    expect(triesOfA).toBe(25);
    expect(reportIn(emu, 'B', ANA, CLIENTE_B).lastRun).toMatchObject({ origin: 'agendado', result: 'ok' });
  });

  it('shared again within the day, it stays, and its day starts over', () => {
    const emu = emulator();
    connect(emu, ANA, 0);
    emu.addSpreadsheet({ id: CLIENTE_A, name: 'Cliente A', editors: [ANA] });
    pulled(emu, ANA, CLIENTE_A, 'A', { kind: 'hourly' });
    emu.share(CLIENTE_A, ANA, false);
    for (let h = 0; h < 20; h++) emu.runDueTriggers(new Date(emu.now + HOUR), { documentContext: false });
    emu.share(CLIENTE_A, ANA, true);
    emu.runDueTriggers(new Date(emu.now + HOUR), { documentContext: false });
    expect(reportIn(emu, 'A', ANA, CLIENTE_A).lastRun).toMatchObject({ origin: 'agendado', result: 'ok' });
    emu.share(CLIENTE_A, ANA, false);
    for (let h = 0; h < 20; h++) emu.runDueTriggers(new Date(emu.now + HOUR), { documentContext: false });
    expect(emu.mail.filter((m) => /fora do alcance/.test(m.subject))).toHaveLength(0);
    expect(CLIENTE_A in JSON.parse(emu.properties.userStore(ANA).get('faturamento.agenda') ?? '{}')).toBe(true);
  });
});

describe('locks and what was written under them', () => {
  it('the next holder of a lock reads what the last one wrote: an hourly run flushes before it moves to the next document', () => {
    const emu = emulator();
    connect(emu, ANA, 0);
    emu.addSpreadsheet({ id: CLIENTE_B, name: 'Cliente B' });
    const first = pulled(emu, ANA, undefined, 'Primeiro', { kind: 'hourly' });
    pulled(emu, ANA, CLIENTE_B, 'Segundo', { kind: 'hourly' });
    let seen: Rec | undefined;
    let opened = 0;
    let run: number | undefined;
    // While the first run works in the second document (the other document's run may start inside it), Ana opens Relatórios in the first.
    const onServiceCall = (c: ServiceCall) => {
      run ??= c.execution.id;
      if (c.execution.id !== run) return;
      if (c.object === 'SpreadsheetApp' && c.method === 'openById') opened++;
      if (opened === 2 && seen === undefined && c.object === 'Range') seen = reportIn(emu, 'Primeiro', ANA);
    };
    const before = first.lastRun as Rec;
    emu.runDueTriggers(new Date(emu.now + HOUR), { documentContext: false, onServiceCall });
    const lastRun = (seen?.lastRun ?? {}) as Rec;
    expect(lastRun).toMatchObject({ origin: 'agendado', result: 'ok' });
    expect(lastRun.at).not.toBe(before.at);
  });
});

describe('what a colleague did while the run was going', () => {
  /** Runs `act` once, right after the run read the stored work (its first sheet read of a document opened by id). */
  function whileRunning(act: () => void): (c: ServiceCall) => void {
    let opened = false;
    let read = false;
    let done = false;
    return (c) => {
      // A call is seen before it runs: the read is over at the call after it.
      if (read && !done) {
        done = true;
        act();
      }
      if (c.object === 'SpreadsheetApp' && c.method === 'openById') opened = true;
      else if (opened && c.object === 'Range' && c.method === 'getValues') read = true;
    };
  }

  it('a report deleted by a colleague stays deleted', () => {
    const emu = emulator();
    connect(emu, ANA, 0);
    connect(emu, BRUNO, 1);
    const report = pulled(emu, ANA, undefined, 'Clientes', { kind: 'hourly' });
    const onServiceCall = whileRunning(() => emu.run('deleteReport', [report.id], as(BRUNO)));
    const [run] = emu.runDueTriggers(new Date(emu.now + HOUR), { documentContext: false, onServiceCall });
    expect(run.status).toBe('ok');
    expect((emu.run('listReports', [], as(ANA)) as Rec[]).map((r) => r.name)).toEqual([]);
  });

  it('a report a colleague took over (Assumir) keeps its new owner, and the old owner’s run pulls nothing into it', async () => {
    const emu = emulator();
    connect(emu, ANA, 0);
    connect(emu, BRUNO, 1);
    const report = pulled(emu, ANA, undefined, 'Clientes', { kind: 'hourly' });
    const bruno = (emu.run('listConnections', [], as(BRUNO)) as Rec[])[0];
    const onServiceCall = whileRunning(() => ok(emu.run('takeOverReport', [report.id, bruno.id], as(BRUNO))));
    await sb.clearLog();
    const [run] = emu.runDueTriggers(new Date(emu.now + HOUR), { documentContext: false, onServiceCall });
    expect(run.status).toBe('ok');
    expect(reportIn(emu, 'Clientes', ANA)).toMatchObject({ owner: BRUNO, mine: false });
    expect((await sb.requestLog()).filter((e) => e.org === sb.orgs[0].name)).toEqual([]);
  });
});

describe('a run that needs the owner to authorize again', () => {
  it('reads nothing, sends nothing, and Relatórios says what to do', async () => {
    const emu = emulator();
    connect(emu, ANA, 0);
    pulled(emu, ANA, undefined, 'Clientes', { kind: 'hourly' });
    emu.triggers.authorizationRequired.add(ANA);
    await sb.clearLog();
    const mails = emu.mail.length;
    for (const documentContext of [true, false]) {
      const counted = opens();
      const [run] = emu.runDueTriggers(new Date(emu.now + HOUR), { documentContext, onServiceCall: counted.onServiceCall });
      expect(run.status).toBe('ok');
      expect(run.counters.urlFetchRequests).toBe(0);
      expect(counted.count()).toBe(0);
    }
    expect(await sb.requestLog()).toEqual([]);
    expect(emu.mail).toHaveLength(mails);
    const usage = emu.run('getUsage', [], as(ANA)) as Rec;
    expect(usage.stopped).toMatch(/autorização/);
    expect(usage.stopped).toMatch(/Extensões › Faturamento › Relatórios/);
  });

  it('tells the owner by e-mail too, once a day at most, with the address to authorize again; once authorized the runs go on', async () => {
    const emu = emulator();
    connect(emu, ANA, 0);
    pulled(emu, ANA, undefined, 'Clientes', { kind: 'hourly' });
    // A new version asks a scope Ana has not granted yet; sending mail she granted before.
    emu.triggers.authorizationRequired.add(ANA);
    emu.triggers.scopesToGrant.set(ANA, ['https://www.googleapis.com/auth/spreadsheets']);
    await sb.clearLog();
    const notices = () => emu.mail.filter((m) => m.to === ANA && /autorize o complemento de novo/.test(m.subject));
    const sentAt: number[] = [];
    for (let h = 0; h < 30; h++) {
      const [run] = emu.runDueTriggers(new Date(emu.now + HOUR), { documentContext: h % 2 === 0 });
      expect(run.status).toBe('ok');
      if (notices().length > sentAt.length) sentAt.push(h);
    }
    // The first run tells her, the next 23 do not, the first run 24 hours later tells her again.
    expect(sentAt).toEqual([0, 24]);
    const [mail] = notices();
    expect(mail.body).toContain('https://script.google.com/macros/d/emulated-script-id/authorize');
    expect(mail.body).toMatch(/Extensões › Faturamento › Relatórios/);
    expect(mail.body).toMatch(/no máximo uma vez por dia/);
    expect(await sb.requestLog()).toEqual([]);
    emu.triggers.authorizationRequired.delete(ANA);
    const [run] = emu.runDueTriggers(new Date(emu.now + HOUR));
    expect(run.counters.urlFetchRequests).toBeGreaterThan(0);
    expect(notices()).toHaveLength(2);
  });
});
