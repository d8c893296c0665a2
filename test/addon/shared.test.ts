/**
 * One spreadsheet shared by editors whose connections have the same name but
 * point to different organizations of the sandbox. Each editor's trigger runs
 * as that editor, in every order, with and without the document as its active
 * spreadsheet. What was pulled and created is checked against the sandbox's
 * own records (dump, request log), and who got every e-mail against the
 * emulator's outbox.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { catalog, type Rec } from '../core/bulk/fixtures';
import { columnsOf, emulator, finishRun, importAll, type Progress, SP } from './helpers';

const ANA = 'ana@escritorio.com.br';
const BRUNO = 'bruno@escritorio.com.br';
const CARLA = 'carla@escritorio.com.br';
const ORG: Record<string, number> = { [ANA]: 0, [BRUNO]: 1, [CARLA]: 2 };
const WORK_SHEET = 'Faturamento · dados';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 12, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
});

const as = (user: string) => ({ user });

/** Every editor calls their connection "Empresa"; each points to a different organization. */
function editors(emu: GasEmulator, users: string[]): void {
  for (const user of users) {
    const r = emu.run('saveConnection', [{ name: 'Empresa', baseUrl: sb.baseUrl, apiKey: sb.orgs[ORG[user]].apiKey, isDefault: true }], as(user)) as Rec;
    expect(r.ok).toBe(true);
  }
}

function reportOf(emu: GasEmulator, name: string, user: string): Rec {
  return (emu.run('listReports', [], as(user)) as Rec[]).find((r) => r.name === name)!;
}

/** Each editor pulls customers into their own sheet and schedules it hourly, with e-mail on failure. */
function scheduledPulls(emu: GasEmulator, users: string[]): void {
  for (const user of users) {
    const name = `Clientes ${user.slice(0, 3)}`;
    importAll(emu, { listing: 'clientes', sheetName: name, name, connection: 'Empresa' }, as(user));
    const r = emu.run('setReportSchedule', [reportOf(emu, name, user).id, { kind: 'hourly' }, true], as(user)) as Rec;
    expect(r.ok).toBe(true);
  }
}

/** The customer ids in a pulled sheet. */
function pulledIds(emu: GasEmulator, sheet: string): number[] {
  const col = columnsOf(emu, sheet).idCliente;
  return emu
    .values(sheet)
    .slice(1)
    .map((r) => Number(r[col]))
    .sort((a, b) => a - b);
}

async function customerIds(user: string): Promise<number[]> {
  return (await sb.dump<Rec>(sb.orgs[ORG[user]].name, 'clientes')).map((c) => c.idCliente as number).sort((a, b) => a - b);
}

/** Makes the editors' triggers fire in this order within the next hour. */
function fireInOrder(emu: GasEmulator, order: string[], at: Date, documentContext: boolean) {
  const hour = Math.floor(at.getTime() / 3_600_000) * 3_600_000;
  order.forEach((user, i) => {
    const t = emu.triggers.triggers.find((x) => x.owner === user);
    if (t) t.nextRun = hour + (10 + i * 15) * 60_000;
  });
  return emu.runDueTriggers(new Date(hour + 59 * 60_000), { documentContext });
}

const permutations = <T>(xs: T[]): T[][] =>
  xs.length <= 1 ? [xs] : xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));

const scheduledRows = (emu: GasEmulator) =>
  emu
    .displayValues('Histórico')
    .slice(1)
    .filter((r) => r[2] === 'Agendado');

describe('scheduled refreshes in a shared document', () => {
  for (const documentContext of [true, false]) {
    for (const order of permutations([ANA, BRUNO, CARLA])) {
      it(`each report pulls only its owner's organization (${documentContext ? 'with' : 'without'} the document; ${order.map((u) => u.slice(0, 3)).join(' → ')})`, async () => {
        const emu = emulator();
        editors(emu, [ANA, BRUNO, CARLA]);
        scheduledPulls(emu, [ANA, BRUNO, CARLA]);
        // One trigger per editor, each their own.
        expect(emu.triggers.triggers.map((t) => t.owner).sort()).toEqual([ANA, BRUNO, CARLA]);
        // A row deleted by hand in each sheet: each run writes its sheet again (a sheet that already holds what the
        // service has is left alone, unchanged-run.ts), so Histórico shows every run.
        for (const user of [ANA, BRUNO, CARLA])
          emu.withServices((s) =>
            s.SpreadsheetApp.getActiveSpreadsheet()
              .getSheetByName(`Clientes ${user.slice(0, 3)}`)
              ?.deleteRow(2),
          );
        await sb.clearLog();
        const runs = fireInOrder(emu, order, SP('2026-11-22T11:00:00'), documentContext);
        expect(runs.map((r) => [r.user, r.status])).toEqual(order.map((u) => [u, 'ok']));
        // Every editor's report ran once, as scheduled, and its sheet holds exactly its owner's organization's customers.
        expect(
          scheduledRows(emu)
            .map((r) => r[1])
            .sort(),
        ).toEqual(['Clientes ana', 'Clientes bru', 'Clientes car']);
        // Histórico's "Quem" names whose run each row was.
        const quem = emu.displayValues('Histórico')[0].indexOf('Quem');
        expect(scheduledRows(emu).map((r) => [r[1], r[quem]])).toEqual(order.map((u) => [`Clientes ${u.slice(0, 3)}`, u]));
        for (const user of [ANA, BRUNO, CARLA]) expect(pulledIds(emu, `Clientes ${user.slice(0, 3)}`)).toEqual(await customerIds(user));
        // And the sandbox saw each organization asked only by its owner's run, in the order the triggers fired.
        const log = await sb.requestLog({ pathPrefix: '/v2' });
        const orgsInOrder = [...new Set(log.map((e) => e.org))];
        expect(orgsInOrder).toEqual(order.map((u) => sb.orgs[ORG[u]].name));
      });
    }
  }

  it('failure notices go to the owner only', async () => {
    const emu = emulator();
    editors(emu, [ANA, BRUNO]);
    scheduledPulls(emu, [ANA, BRUNO]);
    // A passing failure (a refusal would pause the schedule after its first notice).
    await sb.configure({ faults: [{ kind: 'status', status: 503 }] });
    for (const documentContext of [true, false]) {
      emu.mail.length = 0;
      fireInOrder(emu, [BRUNO, ANA], new Date(emu.now + 3_600_000), documentContext);
      expect(emu.mail.map((m) => [m.to, m.user, m.subject]).sort()).toEqual([
        [ANA, ANA, 'Falha no relatório "Clientes ana"'],
        [BRUNO, BRUNO, 'Falha no relatório "Clientes bru"'],
      ]);
    }
  });
});

describe('taking a report over', () => {
  for (const documentContext of [true, false]) {
    it(`makes the next scheduled run use the new owner's connection, and the old owner's trigger leaves it alone (${documentContext ? 'with' : 'without'} the document)`, async () => {
      const emu = emulator();
      editors(emu, [ANA, BRUNO]);
      scheduledPulls(emu, [ANA]);
      const report = reportOf(emu, 'Clientes ana', BRUNO);
      expect(report).toMatchObject({ owner: ANA, mine: false, disowned: false });
      expect(reportOf(emu, 'Clientes ana', ANA)).toMatchObject({ owner: ANA, mine: true });
      // Bruno cannot run, continue, edit or schedule it without taking it over.
      expect(emu.execute('runReport', [report.id], as(BRUNO)).error?.message).toMatch(/é de ana@escritorio.com.br/);
      expect(emu.execute('continueReportRun', [report.id], as(BRUNO)).error?.message).toMatch(/Assumir/);
      expect(emu.run('setReportSchedule', [report.id, { kind: 'hourly' }, false], as(BRUNO))).toMatchObject({ ok: false });
      const edit = emu.run(
        'startImportRun',
        [{ id: report.id, connection: 'Empresa', listing: 'clientes', sheetName: 'Clientes ana', filters: {} }],
        as(BRUNO),
      );
      expect(edit).toMatchObject({ ok: false, field: 'connection' });

      const bruno = (emu.run('listConnections', [], as(BRUNO)) as Rec[])[0];
      const taken = emu.run('takeOverReport', [report.id, bruno.id], as(BRUNO)) as Rec;
      expect(taken).toMatchObject({ ok: true, value: { owner: BRUNO, mine: true, connection: 'Empresa' } });
      expect(reportOf(emu, 'Clientes ana', ANA)).toMatchObject({ owner: BRUNO, mine: false });
      expect(emu.triggers.triggers.map((t) => t.owner).sort()).toEqual([ANA, BRUNO]);

      for (const order of [
        [ANA, BRUNO],
        [BRUNO, ANA],
      ]) {
        await sb.clearLog();
        fireInOrder(emu, order, new Date(emu.now + 3_600_000), documentContext);
        expect(pulledIds(emu, 'Clientes ana')).toEqual(await customerIds(BRUNO));
        expect(new Set((await sb.requestLog()).map((e) => e.org))).toEqual(new Set([sb.orgs[1].name]));
      }
      // Ana has nothing left to run here: her trigger is gone.
      expect(emu.triggers.triggers.map((t) => t.owner)).toEqual([BRUNO]);
    });
  }

  it('a pull left unfinished is started over with the new connection, never finished with rows of two organizations', async () => {
    const emu = emulator();
    editors(emu, [ANA, BRUNO]);
    const started = emu.run(
      'startImportRun',
      [{ connection: 'Empresa', listing: 'faturas', sheetName: 'Faturas', name: 'Faturas', filters: {} }],
      as(ANA),
    ) as Rec;
    // One slow step writes the first pages, then the sidebar is closed.
    const step = emu.run('continueReportRun', [started.value.reportId], { ...as(ANA), costs: { urlFetchCallMs: 20_000 } }) as Progress;
    expect(step.done).toBe(false);
    expect(step.rows).toBeGreaterThan(0);
    const report = reportOf(emu, 'Faturas', BRUNO);
    const bruno = (emu.run('listConnections', [], as(BRUNO)) as Rec[])[0];
    // Right after a step the run may still be going: no take-over yet.
    expect(emu.run('takeOverReport', [report.id, bruno.id], as(BRUNO))).toMatchObject({ ok: false });
    emu.now += 6 * 60_000;
    expect(emu.run('takeOverReport', [report.id, bruno.id], as(BRUNO))).toMatchObject({ ok: true });
    expect(emu.run('setReportSchedule', [report.id, { kind: 'hourly' }, false], as(BRUNO))).toMatchObject({ ok: true });
    await sb.clearLog();
    fireInOrder(emu, [ANA, BRUNO], new Date(emu.now + 3_600_000), false);
    expect(new Set((await sb.requestLog()).map((e) => e.org))).toEqual(new Set([sb.orgs[1].name]));
    const col = columnsOf(emu, 'Faturas').idFatura;
    const ids = emu
      .values('Faturas')
      .slice(1)
      .map((r) => Number(r[col]))
      .sort((a, b) => a - b);
    const expected = (await sb.dump<Rec>(sb.orgs[1].name, 'faturas')).map((f) => f.idFatura as number).sort((a, b) => a - b);
    expect(ids).toEqual(expected);
  });

  it('an editor who left: nobody runs their schedule with another key until someone takes it over', async () => {
    const emu = emulator();
    editors(emu, [ANA, BRUNO]);
    scheduledPulls(emu, [ANA, BRUNO]);
    // Ana left the office: her account and trigger are gone.
    emu.triggers.triggers = emu.triggers.triggers.filter((t) => t.owner !== ANA);
    emu.properties.user.delete(ANA);
    await sb.clearLog();
    fireInOrder(emu, [BRUNO], new Date(emu.now + 3_600_000), false);
    expect(new Set((await sb.requestLog()).map((e) => e.org))).toEqual(new Set([sb.orgs[1].name]));
    expect(pulledIds(emu, 'Clientes ana')).toEqual(await customerIds(ANA));
    const report = reportOf(emu, 'Clientes ana', BRUNO);
    const bruno = (emu.run('listConnections', [], as(BRUNO)) as Rec[])[0];
    expect((emu.run('takeOverReport', [report.id, bruno.id], as(BRUNO)) as Rec).ok).toBe(true);
    fireInOrder(emu, [BRUNO], new Date(emu.now + 3_600_000), false);
    expect(pulledIds(emu, 'Clientes ana')).toEqual(await customerIds(BRUNO));
  });
});

/** Rows of custom subscriptions with keys `prefix-i`, valid in the given editor's organization. */
async function subscriptionRows(user: string, prefix: string, n: number): Promise<unknown[][]> {
  const cat = await catalog(sb, ORG[user]);
  return Array.from({ length: n }, (_, i) => [
    `${prefix}-${i}`,
    cat.clientes[i % cat.clientes.length],
    '05/11/2026',
    '11/2026',
    'MENSAL',
    cat.produtos[0],
    `H${i}`,
    50,
    'AGRUPADA',
    10,
  ]);
}

/** A template of custom subscriptions under a name of the editor's own, filled with rows. */
function bulkSheet(emu: GasEmulator, user: string, sheet: string, rows: unknown[][]): void {
  const made = (emu.run('createBulkTemplate', ['criarAssinaturaPersonalizada'], as(user)) as Rec).value.sheetName as string;
  emu.withServices((s) => {
    const sh = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(made)!;
    sh.setName(sheet);
    sh.getRange(3, 1, rows.length, rows[0].length).setValues(rows as never);
  });
}

async function createdKeys(user: string): Promise<string[]> {
  return (await sb.dump<Rec>(sb.orgs[ORG[user]].name, 'assinaturas')).map((a) => String(a.idIntegracao)).filter((k) => /^(ANA|BRU)-/.test(k));
}

/** Starts a bulk run that stops after its first short step, as when the sidebar is closed. */
function startedAndLeft(emu: GasEmulator, user: string, sheet: string): void {
  const r = emu.run(
    'startBulkRun',
    [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Empresa', scope: 'all', batchSize: 2, stepSeconds: 5 }],
    { ...as(user), costs: { urlFetchCallMs: 3000 } },
  ) as Rec;
  expect(r.ok).toBe(true);
  expect(r.value.done).toBe(false);
}

describe('unfinished bulk runs in a shared document', () => {
  for (const documentContext of [true, false]) {
    for (const order of [
      [ANA, BRUNO],
      [BRUNO, ANA],
    ]) {
      it(`each is finished by its owner's trigger, in its owner's organization (${documentContext ? 'with' : 'without'} the document; ${order.map((u) => u.slice(0, 3)).join(' → ')})`, async () => {
        const emu = emulator();
        editors(emu, [ANA, BRUNO]);
        bulkSheet(emu, ANA, 'Lote Ana', await subscriptionRows(ANA, 'ANA', 8));
        bulkSheet(emu, BRUNO, 'Lote Bruno', await subscriptionRows(BRUNO, 'BRU', 8));
        startedAndLeft(emu, ANA, 'Lote Ana');
        startedAndLeft(emu, BRUNO, 'Lote Bruno');
        // Bruno cannot continue Ana's run.
        const form = emu.run('getBulkForm', [], as(BRUNO)) as Rec;
        expect(form.jobs.map((j: Rec) => [j.owner, j.mine]).sort()).toEqual([
          [ANA, false],
          [BRUNO, true],
        ]);
        const ana = form.jobs.find((j: Rec) => j.owner === ANA).jobId;
        expect(emu.run('continueBulkRun', [ana], as(BRUNO))).toMatchObject({ ok: false });
        // Triggers fire after the sidebars have been idle for a while.
        for (let i = 0; i < 3; i++) fireInOrder(emu, order, new Date(emu.now + 3_600_000), documentContext);
        expect((await createdKeys(ANA)).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `ANA-${i}`).sort());
        expect((await createdKeys(BRUNO)).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `BRU-${i}`).sort());
        expect(emu.triggers.triggers).toHaveLength(0);
      });
    }
  }
});

describe('taking a bulk run over', () => {
  it('only once it has been idle for a while; from then on it goes on with the new owner’s key only', async () => {
    const emu = emulator();
    editors(emu, [ANA, BRUNO]);
    bulkSheet(emu, ANA, 'Lote Ana', await subscriptionRows(ANA, 'ANA', 6));
    startedAndLeft(emu, ANA, 'Lote Ana');
    const job = (emu.run('getBulkForm', [], as(BRUNO)) as Rec).jobs[0];
    const bruno = (emu.run('listConnections', [], as(BRUNO)) as Rec[])[0];
    expect(emu.run('takeOverBulkRun', [job.jobId, bruno.id], as(BRUNO))).toMatchObject({ ok: false });
    emu.now += 6 * 60_000;
    expect(emu.run('takeOverBulkRun', [job.jobId, bruno.id], as(BRUNO))).toMatchObject({ ok: true, value: { owner: BRUNO } });
    expect((emu.run('getBulkForm', [], as(BRUNO)) as Rec).jobs[0]).toMatchObject({ owner: BRUNO, mine: true });
    expect(emu.run('continueBulkRun', [job.jobId], as(ANA))).toMatchObject({ ok: false });
    const created = await createdKeys(ANA);
    await sb.clearLog();
    for (let i = 0; i < 2; i++) fireInOrder(emu, [ANA, BRUNO], new Date(emu.now + 3_600_000), false);
    // Ana's key sent nothing more; the remaining rows went to Bruno's organization (where their customers do not exist).
    expect(await createdKeys(ANA)).toEqual(created);
    const log = await sb.requestLog();
    expect(log.length).toBeGreaterThan(0);
    expect(new Set(log.map((e) => e.org))).toEqual(new Set([sb.orgs[1].name]));
  });
});

describe('unfinished NFS-e emissions in a shared document', () => {
  for (const order of [
    [ANA, BRUNO],
    [BRUNO, ANA],
  ]) {
    it(`each editor's notes are issued in their own organization only (without the document; ${order.map((u) => u.slice(0, 3)).join(' → ')})`, async () => {
      const emu = emulator();
      editors(emu, [ANA, BRUNO]);
      const chosen: Record<string, number[]> = {};
      const before: Record<string, Set<number>> = {};
      for (const user of [ANA, BRUNO]) {
        const sheet = `Faturas ${user.slice(0, 3)}`;
        importAll(emu, { listing: 'faturas', sheetName: sheet, name: sheet, connection: 'Empresa' }, as(user));
        const emitiveis = new Set((await catalog(sb, ORG[user])).emitiveis);
        const col = columnsOf(emu, sheet).idFatura;
        const rows = emu
          .values(sheet)
          .map((r, i) => ({ row: i + 1, id: r[col] as number }))
          .filter((r) => emitiveis.has(r.id))
          .slice(0, 4);
        chosen[user] = rows.map((r) => r.id).sort((a, b) => a - b);
        before[user] = new Set((await sb.dump<Rec>(sb.orgs[ORG[user]].name, 'nfse')).map((n) => n.idNotaFiscalServico as number));
        emu.select(sheet, ...rows.map((r) => `A${r.row}`));
        const r = emu.run(
          'startBulkRun',
          [{ operation: 'emitirNfse', sheetName: sheet, connection: 'Empresa', scope: 'selected', batchSize: 1, stepSeconds: 5 }],
          { ...as(user), costs: { urlFetchCallMs: 3000 } },
        ) as Rec;
        expect(r.ok).toBe(true);
        expect(r.value.done).toBe(false);
      }
      for (let i = 0; i < 3; i++) fireInOrder(emu, order, new Date(emu.now + 3_600_000), false);
      for (const user of [ANA, BRUNO]) {
        const notes = await sb.dump<Rec>(sb.orgs[ORG[user]].name, 'nfse');
        const issued = notes.filter((n) => !before[user].has(n.idNotaFiscalServico)).map((n) => n.idFatura as number);
        expect(issued.sort((a, b) => a - b)).toEqual(chosen[user]);
      }
      expect(emu.triggers.triggers).toHaveLength(0);
    });
  }
});

/** The work sheet's rows as key → value, and a way to write one as any editor could in Planilhas. */
function workSheet(emu: GasEmulator) {
  const rows = emu.values(WORK_SHEET) as string[][];
  const find = (prefix: string) => rows.filter((r) => String(r[0]).startsWith(prefix)).map((r) => [r[0], JSON.parse(String(r[1]))] as [string, Rec]);
  const write = (key: string, value: unknown) =>
    emu.withServices(
      (s) => {
        s.SpreadsheetApp.getActiveSpreadsheet()
          .getSheetByName(WORK_SHEET)!
          .appendRow([key, JSON.stringify(value)]);
      },
      { user: BRUNO },
    );
  const replace = (key: string, value: unknown) =>
    emu.withServices(
      (s) => {
        const sh = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(WORK_SHEET)!;
        const row = rows.findIndex((r) => r[0] === key) + 1;
        sh.getRange(row, 2).setValue(JSON.stringify(value));
      },
      { user: BRUNO },
    );
  return { find, write, replace };
}

describe('ownership cannot be forged', () => {
  for (const documentContext of [true, false]) {
    it(`a report or a bulk run stored as someone else's runs nothing (${documentContext ? 'with' : 'without'} the document)`, async () => {
      const emu = emulator();
      editors(emu, [ANA, BRUNO]);
      // Ana has a daily schedule (so a trigger), not due in the next hours.
      importAll(emu, { listing: 'clientes', sheetName: 'Clientes Ana', name: 'Ana', connection: 'Empresa' }, as(ANA));
      const anaReport = reportOf(emu, 'Ana', ANA);
      emu.run('setReportSchedule', [anaReport.id, { kind: 'daily', hour: 3 }, false], as(ANA));
      // Bruno starts a bulk run of his own, then sets about making Ana's trigger run things with her key.
      bulkSheet(emu, BRUNO, 'Lote Bruno', await subscriptionRows(ANA, 'BRU', 6));
      const started = emu.run(
        'startBulkRun',
        [{ operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote Bruno', connection: 'Empresa', scope: 'all', batchSize: 1, stepSeconds: 5 }],
        { ...as(BRUNO), costs: { urlFetchCallMs: 4000 } },
      ) as Rec;
      expect(started.value.done).toBe(false);
      const sheet = workSheet(emu);
      const [[, stored]] = sheet.find('faturamento.relatorio.');
      // Everything Bruno needs is in the document: Ana's owner record and her connection id.
      const forgedReport = {
        ...stored,
        id: 'forjado1',
        name: 'Roubo',
        sheetName: 'Roubo',
        listing: 'clientes',
        schedule: { kind: 'hourly' },
        scheduleSince: 0,
      };
      sheet.write('faturamento.relatorio.forjado1', forgedReport);
      // Ana's own report, pointed at another listing and made hourly behind her back.
      sheet.replace(`faturamento.relatorio.${anaReport.id}`, { ...stored, listing: 'cobrancas', schedule: { kind: 'hourly' }, scheduleSince: 0 });
      // Bruno's unfinished bulk run, rows valid in Ana's organization, now claiming to be Ana's with her connection.
      const [[jobKey, job]] = sheet.find('faturamento.lote.');
      sheet.replace(jobKey, { ...job, owner: stored.owner, connectionId: stored.connectionId, updatedAt: 0 });
      // Through the entry points the owner is always the caller.
      expect(emu.run('setReportSchedule', ['forjado1', { kind: 'hourly' }, true], as(BRUNO))).toMatchObject({ ok: false });

      await sb.clearLog();
      for (const order of [
        [ANA, BRUNO],
        [BRUNO, ANA],
      ])
        fireInOrder(emu, order, new Date(emu.now + 3_600_000), documentContext);
      expect(await sb.requestLog()).toEqual([]);
      expect(emu.sheetNames()).not.toContain('Roubo');
      expect(await createdKeys(ANA)).toEqual([]);
      // What Ana sees: the forged report claims to be hers but is not vouched for, so she can take it over or delete it.
      expect(reportOf(emu, 'Roubo', ANA)).toMatchObject({ owner: ANA, mine: false, disowned: true });
      expect(reportOf(emu, 'Roubo', BRUNO)).toMatchObject({ owner: ANA, mine: false, disowned: false });
    });
  }
});

describe('a server that echoes the key', () => {
  it('never gets the key written anywhere but the owner’s user properties', async () => {
    const emu = emulator();
    editors(emu, [ANA, BRUNO]);
    scheduledPulls(emu, [ANA]);
    await sb.configure({ faults: [{ kind: 'echoKey', status: 400 }] });
    const key = sb.orgs[0].apiKey;
    // A manual run from the sidebar, a scheduled one with and without the document, a bulk run and a connection test.
    const manual = emu.run('runReport', [reportOf(emu, 'Clientes ana', ANA).id], as(ANA)) as Progress;
    const seen: unknown[] = [manual, finishRun(emu, manual.reportId, as(ANA))];
    fireInOrder(emu, [ANA], new Date(emu.now + 3_600_000), true);
    fireInOrder(emu, [ANA], new Date(emu.now + 3_600_000), false);
    bulkSheet(emu, ANA, 'Lote Ana', await subscriptionRows(ANA, 'ANA', 3));
    seen.push(emu.run('startBulkRun', [{ operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote Ana', connection: 'Empresa', scope: 'all' }], as(ANA)));
    seen.push(emu.run('testConnection', [{ id: (emu.run('listConnections', [], as(ANA)) as Rec[])[0].id }], as(ANA)));
    seen.push(emu.run('listReports', [], as(ANA)), emu.run('listReports', [], as(BRUNO)), emu.run('getBulkForm', [], as(BRUNO)));

    // The server did echo it, and the add-on did show the failures.
    expect((await sb.requestLog()).length).toBeGreaterThan(3);
    expect(emu.mail.length).toBeGreaterThan(0);
    expect(JSON.stringify(emu.mail)).toContain('[chave removida]');
    const everywhere = {
      cells: emu.sheetNames().map((n) => [emu.displayValues(n), emu.formulas(n)]),
      notes: emu.spreadsheet.sheets.map((s) => JSON.stringify(s)),
      documentProperties: [...emu.properties.document.values()].map((m) => [...m]),
      scriptProperties: [...emu.properties.script],
      othersProperties: [...emu.properties.user].filter(([u]) => u !== ANA).map(([, m]) => [...m]),
      logs: emu.logs,
      mail: emu.mail,
      returned: [seen, emu.history.map((h) => [h.value, h.error])],
      cache: JSON.stringify(emu.cache),
    };
    const text = JSON.stringify(everywhere);
    expect(text).not.toContain(key);
    expect([...emu.properties.userStore(ANA).values()].some((v) => v === key)).toBe(true);
  });
});
