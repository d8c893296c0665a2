/**
 * Kills walked over whole runs: a bulk subscription run, a bulk NFS-e run and
 * a consolidated pull. Each execution of the run is killed at its call k, the
 * execution that retries it at call k + stride, and so on until one runs past
 * its kill and ends; the next execution's walk starts again from the first
 * call. So every step of the run is killed at every stride-th call (where a
 * run is short, in two walks less than a stride apart), each kill landing a
 * prefix of the execution's unflushed sheet writes (none, all, or a seeded
 * draw) under the next. The run is finished as the sidebar finishes it
 * (Continuar, the card's Continuar, a re-run of the rows left PENDENTE,
 * unkilled). Nobody edits anything: every record is sent and written exactly
 * once, counted against what the sandbox holds, the run is continued, not
 * started over, and no answer, Histórico line or e-mail calls the owner's
 * work altered.
 */
import { describe, expect, it } from 'vitest';
import { COST_MODELS } from '../../../dev/gas/clock';
import type { GasEmulator } from '../../../dev/gas/runner';
import type { Landed } from '../../../dev/gas/torn-writes';
import type { SandboxHandle } from '../../../dev/sandbox/harness';
import { catalog, type Rec } from '../../core/bulk/fixtures';
import { columnsOf, connect, emulator, importAll, rowsByHeader, subscriptionSheet } from '../helpers';
import { sandbox } from './setup';

const sandboxOf = sandbox(37);

const HOUR = 3_600_000;
/** The prefix each kill lands, in turn: a seeded draw, and both ends. */
const LANDINGS: Landed[] = ['random', 'none', 'random', 'all'];

/** A sidebar call: the function and its arguments. */
type Call = [string, unknown[]];

/** What the user does next, seeing the answer of the last call (undefined when it was killed); null: the run is over. */
type Next = (answer: Rec | undefined) => Call | null;

/** A run as the sidebar drives it: its first call, what follows each answer, and whether its executions are still killed. */
interface Steps {
  first: Call;
  next: Next;
  /** False once the run proper is over (a later re-run of what it left PENDENTE goes unkilled). */
  killing(): boolean;
}

interface Walked {
  /** Executions killed. */
  kills: number;
  /** Every answer and error of the run's executions, as text. */
  said: string[];
}

/**
 * Runs `first`, then what `next` asks after each answer until it says the run is over, each execution killed at its
 * call `k` (from `start`, `stride` further in each retry after a kill, back to `start` after an execution that ends).
 */
function walk(emu: GasEmulator, { first, next, killing }: Steps, start: number, stride: number): Walked {
  const said: string[] = [];
  let kills = 0;
  let k = start;
  let call: Call | null = first;
  for (let i = 0; call; i++) {
    if (i > 600) throw new Error(`never finished: ${said.slice(-4).join(' | ')}`);
    const kill = { atCall: k, landed: LANDINGS[kills % LANDINGS.length], seed: kills };
    const report = emu.execute(call[0], call[1], killing() ? { kill } : {});
    said.push(JSON.stringify(report.value ?? null), report.error?.message ?? '');
    if (report.status === 'killed') {
      kills++;
      k += stride;
      call = next(undefined);
      continue;
    }
    k = start;
    if (report.status === 'error') throw new Error(`${call[0]} failed: ${report.error?.message}`);
    const out = report.value as Rec | null;
    // A sheet a killed start left behind asks to be confirmed: the person clicks again, as the refusal says, and the form keeps it.
    if (out?.ok === false && out.field === 'confirmReplace') {
      Object.assign(call[1][0] as Rec, { confirmReplace: (call[1][0] as Rec).sheetName });
      continue;
    }
    if (out?.ok === false) throw new Error(`refused: ${out.message}`);
    call = next((out?.ok === true ? out.value : out) as Rec);
  }
  return { kills, said };
}

/** What the owner reads that calls their work altered: the run's answers, then the Histórico and e-mails after their hourly run read what is stored. */
function toldAltered(emu: GasEmulator, said: string[]): string[] {
  emu.runDueTriggers(new Date(emu.now + HOUR));
  const history = emu.sheetNames().includes('Histórico') ? emu.values('Histórico').map((r) => r.join(' ')) : [];
  const mail = emu.mail.map((m) => `${m.subject} ${m.body}`);
  return [...said, ...history, ...mail].filter((t) => /alterad/i.test(t));
}

/** The sidebar's steps of a bulk run: Continuar while it runs, its run found again after a kill, a re-run while rows are PENDENTE. */
function bulkSteps(emu: GasEmulator, form: Rec, status: string): Steps {
  let jobId: string | undefined;
  let rerun = false;
  const start: Call = ['startBulkRun', [form]];
  const next: Next = (answer) => {
    if (!answer) jobId ??= ((emu.run('getBulkForm') as Rec).jobs as Rec[])[0]?.jobId as string | undefined;
    else jobId = answer.done ? undefined : (answer.jobId as string);
    if (jobId) return ['continueBulkRun', [jobId, form.stepSeconds]];
    if (!answer) return start;
    // A run that ends with PENDENTE rows asks to be run again, which checks them once the safe delay (10 minutes) is past.
    if (!rowsByHeader(emu, form.sheetName as string).some((r) => r[status] === 'PENDENTE')) return null;
    emu.now += 15 * 60_000;
    rerun = true;
    return start;
  };
  return { first: start, next, killing: () => !rerun };
}

/** How many of `items` have each key. */
function counted<T>(items: T[], key: (item: T) => unknown): Map<unknown, number> {
  const out = new Map<unknown, number>();
  for (const item of items) out.set(key(item), (out.get(key(item)) ?? 0) + 1);
  return out;
}

/** How many records of `resource` the sandbox holds per value of `field`, among those `mine` picks. */
async function countBy(sb: SandboxHandle, resource: 'assinaturas' | 'nfse', field: string, mine: (v: unknown) => boolean): Promise<Map<unknown, number>> {
  return counted(
    (await sb.dump<Rec>(sb.orgs[0].name, resource)).filter((r) => mine(r[field])),
    (r) => r[field],
  );
}

/** A fresh sandbox and a user connected to it, in an emulator whose pessimistic costs make short steps, each saving the run's state several times. */
async function bulkWorld(): Promise<{ sb: SandboxHandle; cat: Awaited<ReturnType<typeof catalog>>; emu: GasEmulator }> {
  const sb = sandboxOf();
  await sb.reset();
  const emu = emulator({ costs: COST_MODELS.pessimistic, latency: { ms: 300 } });
  connect(emu, sb);
  return { sb, cat: await catalog(sb), emu };
}

/** What a bulk run made (records by key, from the sandbox): how many, how many twice, and the POSTs it sent. */
async function sent(sb: SandboxHandle, made: Map<unknown, number>): Promise<Rec> {
  return { made: made.size, madeTwice: [...made.values()].filter((n) => n > 1).length, posts: (await sb.requestLog({ method: 'POST' })).length };
}

describe('a bulk subscription run killed at every stretch of its calls, with torn writes', () => {
  // Past 9 KB, the run's state is split in parts: each save writes new parts and blanks the old ones.
  const ROWS = 150;

  it('creates every subscription once, finishes, and never calls the owner’s run altered', async () => {
    const { sb, cat, emu } = await bulkWorld();
    const sheetName = subscriptionSheet(emu, cat, ROWS, 'Caminho');
    const form = { operation: 'criarAssinaturaPersonalizada', sheetName, connection: 'Demo', scope: 'all', batchSize: 10, stepSeconds: 5 };
    // One walk: each step of this run makes about 200 calls.
    const { kills, said } = walk(emu, bulkSteps(emu, form, 'Status'), 1, 25);
    const created = await countBy(sb, 'assinaturas', 'idIntegracao', (v) => String(v).startsWith('lote-'));
    expect({
      killedOften: kills > 40,
      ...(await sent(sb, created)),
      rowsNotOk: rowsByHeader(emu, sheetName).filter((r) => r.Status !== 'OK' && r.Status !== 'EXEMPLO').length,
      altered: toldAltered(emu, said),
    }).toEqual({ killedOften: true, made: ROWS, madeTwice: 0, posts: ROWS, rowsNotOk: 0, altered: [] });
  });
});

describe('a bulk NFS-e run killed at every stretch of its calls, with torn writes', () => {
  const NOTES = 30;

  it('issues one note per chosen invoice, finishes, and never calls the owner’s run altered', async () => {
    const outcomes: Rec = {};
    for (const start of [1, 8]) {
      const { sb, cat, emu } = await bulkWorld();
      importAll(emu, { listing: 'faturas', sheetName: 'Faturas' });
      const id = columnsOf(emu, 'Faturas').idFatura;
      const emitiveis = new Set(cat.emitiveis);
      const chosen = emu
        .values('Faturas')
        .map((r, i) => ({ row: i + 1, invoice: r[id] as number }))
        .filter((r) => emitiveis.has(r.invoice))
        .slice(0, NOTES);
      emu.select('Faturas', ...chosen.map((c) => `A${c.row}`));
      const form = { operation: 'emitirNfse', sheetName: 'Faturas', connection: 'Demo', scope: 'selected', batchSize: 3, stepSeconds: 5 };
      await sb.clearLog();
      const { kills, said } = walk(emu, bulkSteps(emu, form, 'Status do lote'), start, 12);
      const invoices = new Set(chosen.map((c) => c.invoice));
      const issued = await countBy(sb, 'nfse', 'idFatura', (v) => invoices.has(v as number));
      const rows = rowsByHeader(emu, 'Faturas');
      outcomes[`from call ${start}`] = {
        killedOften: kills > 10,
        ...(await sent(sb, issued)),
        rowsNotOk: chosen.filter((c) => rows[c.row - 2]['Status do lote'] !== 'OK').length,
        altered: toldAltered(emu, said),
      };
    }
    const clean = { killedOften: true, made: NOTES, madeTwice: 0, posts: NOTES, rowsNotOk: 0, altered: [] };
    expect(outcomes).toEqual({ 'from call 1': clean, 'from call 8': clean });
  });
});

/** The card's action after a kill took the answer: Continuar while the run is unfinished, Atualizar when none is stored, Importar when the report was never saved. */
function pullSteps(emu: GasEmulator, form: Rec): Steps & { restarts(): number } {
  let reportId: string | undefined;
  let restarts = 0;
  const next: Next = (answer) => {
    if (answer) {
      reportId = answer.reportId as string;
      return answer.done ? null : ['continueReportRun', [reportId]];
    }
    const card = (emu.run('listReports') as Rec[]).find((r) => r.name === form.name);
    if (!card) return ['startImportRun', [form]];
    reportId = card.id as string;
    if (card.canContinue) return ['continueReportRun', [reportId]];
    if (card.lastRun?.result === 'ok') return null;
    restarts++;
    return ['runReport', [reportId]];
  };
  return { first: ['startImportRun', [form]], next, killing: () => true, restarts: () => restarts };
}

describe('a consolidated pull killed at every stretch of its calls, with torn writes', () => {
  const COMPANIES = ['Empresa A', 'Empresa B', 'Empresa C'];

  it('ends with each company’s records once, and never calls the owner’s pull altered', async () => {
    const outcomes: Rec = {};
    for (const start of [1, 9]) {
      const sb = sandboxOf();
      await sb.reset({ size: { faturas: 400 } });
      const emu = emulator();
      COMPANIES.forEach((name, org) => {
        connect(emu, sb, name, org);
      });
      const form = { connection: '', companies: { all: true }, listing: 'faturas', filters: {}, sheetName: 'Consolidado', name: 'Consolidado' };
      const steps = pullSteps(emu, form);
      const { kills, said } = walk(emu, steps, start, 20);
      const col = columnsOf(emu, 'Consolidado');
      const held = counted(emu.values('Consolidado').slice(1), (r) => `${r[col.empresa]} ${r[col.idFatura]}`);
      const expected: string[] = [];
      for (const [org, name] of COMPANIES.entries()) for (const f of await sb.dump<Rec>(sb.orgs[org].name, 'faturas')) expected.push(`${name} ${f.idFatura}`);
      const card = (emu.run('listReports') as Rec[]).find((r) => r.name === form.name);
      outcomes[`from call ${start}`] = {
        killedOften: kills > 10,
        result: card?.lastRun?.result,
        startedOver: steps.restarts(),
        missing: expected.filter((k) => !held.has(k)).length,
        twice: [...held.values()].filter((n) => n > 1).length,
        extra: held.size - expected.length,
        altered: toldAltered(emu, said),
      };
    }
    const clean = { killedOften: true, result: 'ok', startedOver: 0, missing: 0, twice: 0, extra: 0, altered: [] };
    expect(outcomes).toEqual({ 'from call 1': clean, 'from call 9': clean });
  });
});
