/**
 * The work index the Central do escritório reads from any spreadsheet: per
 * document and company, built from the document's stored reports, kept in
 * parts of the user's properties, trimmed and then cut (and saying so) when
 * full, and read back per company.
 */
import { QUIET_NOTE } from '../../../src/core/hourly/quiet-mark';
import { describe, expect, it } from 'vitest';
import { nextDueAt } from '../../../src/core/hourly/dispatch';
import { pauseCompany } from '../../../src/core/hourly/paused';
import {
  type DocumentWork,
  documentUrl,
  documentWork,
  MAX_PARTS,
  MESSAGE_CHARS,
  PART_BYTES,
  readWorkIndex,
  spreadsheetsOf,
  WorkIndexStore,
  workOf,
} from '../../../src/core/hourly/work-index';
import type { Report, RunSummary } from '../../../src/core/reports/reports';
import { MemoryStore } from '../bulk/fixtures';
import { zone } from '../fake-service';
import { HOUR, T0 } from '../runs/run-world';

const CONNECTIONS = [
  { id: 'k1', name: 'Padaria' },
  { id: 'k2', name: 'Ótica' },
  { id: 'k3', name: 'Escola' },
];
const DOC_A = 'A'.repeat(44);
const DOC_B = 'B'.repeat(44);

const report = (name: string, fields: Partial<Report> = {}): Report =>
  ({ id: name, name, listing: 'clientes', connection: 'Padaria', connectionId: 'k1', schedule: null, createdAt: T0, filters: {}, ...fields }) as Report;
const run = (result: RunSummary['result'], finishedAt: number, fields: Partial<RunSummary> = {}): RunSummary => ({
  startedAt: finishedAt - 1_000,
  finishedAt,
  origin: 'agendado',
  rows: 1,
  durationMs: 1_000,
  result,
  ...fields,
});
const build = (reports: Report[], name = 'Controle', now = T0) => documentWork(reports, { name, now, zone, connections: CONNECTIONS });

describe("a document's work", () => {
  it('groups its reports by company with the last run, the next start and the failures waiting', () => {
    const hourly = report('Faturas', { schedule: { kind: 'hourly' }, scheduleSince: T0, lastRun: run('ok', T0 - HOUR) });
    const failed = report('Cobranças', { lastRun: run('erro', T0 - 2 * HOUR, { message: 'Chave recusada' }) });
    const daily = report('NFS-e', { connectionId: 'k2', schedule: { kind: 'daily', hour: 6 }, scheduleSince: T0, lastRun: run('ok', T0 - 3 * HOUR) });
    const work = build([hourly, failed, daily]) as DocumentWork;
    expect(work.name).toBe('Controle');
    expect(work.connections.k1).toEqual({
      reports: ['Faturas', 'Cobranças'],
      lastRun: { at: T0 - HOUR, ok: true },
      next: nextDueAt({ reports: [hourly], pulls: [], bulk: [] }, zone),
      failures: 1,
    });
    expect(work.connections.k2.next).toBe(nextDueAt({ reports: [daily], pulls: [], bulk: [] }, zone));
    expect(work.connections.k2.next).toBeGreaterThan(work.connections.k1.next as number);
    expect(work.connections.k3).toBeUndefined();
  });

  it("says a consolidated run's failure only for the companies that failed, and a cancelled run as not ok without a failure", () => {
    const consolidated = report('Todas', {
      companies: { all: true, ids: [] },
      lastRun: run('parcial', T0, { failedCompanies: [{ name: 'Ótica', message: 'x'.repeat(500), retryable: false }] }),
    });
    const cancelled = report('Parado', { connectionId: 'k3', lastRun: run('cancelado', T0 + 1) });
    const running = report('Agora', { connectionId: 'k3', lastRun: run('em andamento', T0 + 2) });
    const work = build([consolidated, cancelled, running]) as DocumentWork;
    expect(work.connections.k1).toMatchObject({ lastRun: { at: T0, ok: true }, failures: 0 });
    expect(work.connections.k2).toMatchObject({ lastRun: { at: T0, ok: false, message: 'x'.repeat(MESSAGE_CHARS) }, failures: 1 });
    expect(work.connections.k3).toEqual({ reports: ['Todas', 'Parado', 'Agora'], lastRun: { at: T0 + 1, ok: false, message: 'Cancelado' }, failures: 0 });
    // A report's own lasting pause (a failure retrying cannot fix) puts its next start later.
    const backedOff = report('Recuo', { schedule: { kind: 'hourly' }, scheduleSince: T0, pausedUntil: T0 + 30 * HOUR });
    expect(build([backedOff])?.connections.k1.next).toBe(T0 + 30 * HOUR);
  });

  it('is null when no report is of any company', () => {
    expect(build([])).toBeNull();
    expect(build([report('Órfão', { connectionId: undefined, connection: 'Apagada' })])).toBeNull();
  });
});

describe('the index in the user properties', () => {
  it('is read from any document: every spreadsheet of a company, by name, with its link, the latest run, the soonest start and every failure', () => {
    const store = new MemoryStore();
    const index = new WorkIndexStore(store);
    expect(
      index.set(DOC_B, build([report('Faturas', { schedule: { kind: 'hourly' }, scheduleSince: T0, lastRun: run('erro', T0 - HOUR) })], 'Padaria 2026')),
    ).toBe('saved');
    expect(index.set(DOC_A, build([report('Clientes', { lastRun: run('ok', T0) }), report('NFS-e', { connectionId: 'k2' })], 'Controle'))).toBe('saved');
    pauseCompany(store, 'k2', true);
    const read = readWorkIndex(store);
    expect(workOf(read, 'k1')).toEqual({
      links: [
        { name: 'Controle', url: documentUrl(DOC_A), reports: ['Clientes'] },
        { name: 'Padaria 2026', url: documentUrl(DOC_B), reports: ['Faturas'] },
      ],
      lastRun: { at: T0, ok: true },
      next: T0 + HOUR,
      failures: 1,
      paused: false,
      incomplete: false,
    });
    expect(workOf(read, 'k2')).toEqual({
      links: [{ name: 'Controle', url: documentUrl(DOC_A), reports: ['NFS-e'] }],
      failures: 0,
      paused: true,
      incomplete: false,
    });
    expect(workOf(read, 'k9')).toEqual({ links: [], failures: 0, paused: false, incomplete: false });
    expect(documentUrl(DOC_A)).toBe(`https://docs.google.com/spreadsheets/d/${DOC_A}/edit`);
  });

  it("adds the hours the owner's agenda settled a spreadsheet without opening it, for the companies of its quiet reports", () => {
    const store = new MemoryStore();
    const index = new WorkIndexStore(store);
    index.set(DOC_B, build([report('Faturas', { schedule: { kind: 'hourly' }, scheduleSince: T0, lastRun: run('ok', T0) })], 'Padaria 2026'));
    index.set(DOC_A, build([report('Clientes', { lastRun: run('ok', T0 - HOUR) })], 'Controle'));
    const quiet = (connectionId: string, checkedAt?: number) => ({
      day: '2026-11-22',
      zone: 'America/Sao_Paulo',
      othersAt: null,
      reports: [{ id: 'r', connectionId, listing: 'faturas' as const, filters: {}, walk: { base: 1 as const, pages: 1 }, records: 'x', hours: 1 }],
      ...(checkedAt === undefined ? {} : { checkedAt }),
    });
    const read = readWorkIndex(store);
    const settled = workOf(read, 'k1', { [DOC_B]: { at: T0 + 9 * HOUR, quiet: quiet('k1', T0 + 3 * HOUR + 60_000) } }, () => zone);
    expect(settled.lastRun).toEqual({ at: T0 + 3 * HOUR + 60_000, ok: true, message: QUIET_NOTE });
    // The report's own next hour from the check, not the document's next due time.
    expect(settled.next).toBe(T0 + 4 * HOUR);
    // Not yet settled since the visit, another company's report, or no record: the index as it is.
    const asIndexed = workOf(read, 'k1');
    expect(asIndexed.lastRun).toEqual({ at: T0, ok: true });
    for (const agenda of [
      { [DOC_B]: { at: T0 + 4 * HOUR, quiet: quiet('k1') } },
      { [DOC_B]: { at: T0 + 4 * HOUR, quiet: quiet('k2', T0 + 3 * HOUR) } },
      { [DOC_B]: { at: T0 + 4 * HOUR } },
    ])
      expect(workOf(read, 'k1', agenda, () => zone)).toEqual(asIndexed);
    // A check older than the index's last run changes nothing.
    expect(workOf(read, 'k1', { [DOC_B]: { at: T0 + 4 * HOUR, quiet: quiet('k1', T0 - 1) } }, () => zone)).toEqual(asIndexed);
    // A run of the company there that failed stays what is shown.
    index.set(DOC_B, build([report('Faturas', { schedule: { kind: 'hourly' }, scheduleSince: T0, lastRun: run('erro', T0) })], 'Padaria 2026'));
    const failed = workOf(readWorkIndex(store), 'k1', { [DOC_B]: { at: T0 + 4 * HOUR, quiet: quiet('k1', T0 + 3 * HOUR) } }, () => zone);
    expect(failed.lastRun).toMatchObject({ at: T0, ok: false });
  });

  it('reads back what it saved: names, runs with their messages, next starts, failures; without the detail once trimmed', () => {
    const store = new MemoryStore();
    const built = build([
      report('Faturas', { schedule: { kind: 'hourly' }, scheduleSince: T0, lastRun: run('erro', T0, { message: 'Chave recusada' }) }),
      report('Clientes', { connectionId: 'k2', lastRun: run('ok', T0 - HOUR) }),
    ]) as DocumentWork;
    expect(built.connections.k1).toMatchObject({ failures: 1, lastRun: { ok: false, message: 'Chave recusada' } });
    new WorkIndexStore(store).set(DOC_A, built);
    expect(readWorkIndex(store).documents[DOC_A]).toEqual(built);
    // What a trimmed entry keeps: the counts and times, not the names and messages.
    const trimmed = { ...built, trimmed: true };
    new WorkIndexStore(store).set(DOC_A, trimmed);
    expect(readWorkIndex(store).documents[DOC_A]).toEqual({
      ...trimmed,
      connections: {
        k1: { reports: [], lastRun: { at: T0, ok: false }, next: built.connections.k1.next, failures: 1 },
        k2: { reports: [], lastRun: { at: T0 - HOUR, ok: true }, failures: 0 },
      },
    });
  });

  it('lists the spreadsheets by name, and says a company may miss some when documents were left out', () => {
    const store = new MemoryStore();
    const index = new WorkIndexStore(store);
    index.set(DOC_A, build([report('Clientes')], 'Zeta'));
    index.set(DOC_B, build([report('Faturas')], 'Alfa'));
    expect(workOf(readWorkIndex(store), 'k1').links.map((l) => l.name)).toEqual(['Alfa', 'Zeta']);
    const cut = { documents: readWorkIndex(store).documents, dropped: 2, paused: new Set<string>() };
    expect(workOf(cut, 'k1').incomplete).toBe(true);
    expect(workOf({ ...cut, dropped: 0 }, 'k1').incomplete).toBe(false);
  });

  it('replaces a document, removes one with no work left, and writes nothing when nothing changed', () => {
    const store = new MemoryStore();
    const index = new WorkIndexStore(store);
    index.set(DOC_A, build([report('Clientes')]));
    index.set(DOC_A, build([report('Faturas', { connectionId: 'k2' })]));
    expect(Object.keys(readWorkIndex(store).documents[DOC_A].connections)).toEqual(['k2']);
    store.frozen = true;
    expect(index.set(DOC_A, build([report('Faturas', { connectionId: 'k2' })]))).toBe('saved');
    expect(index.set(DOC_B, null)).toBe('removed');
    store.frozen = false;
    expect(index.set(DOC_A, null)).toBe('removed');
    expect(readWorkIndex(store).documents).toEqual({});
  });

  it('leaves a document as written when only the time of writing would change, so it keeps its place among the oldest', () => {
    const store = new MemoryStore();
    const index = new WorkIndexStore(store);
    const clientes = () => [report('Clientes', { lastRun: run('ok', T0 - HOUR) })];
    index.set(DOC_A, build(clientes(), 'Controle', T0));
    store.frozen = true;
    expect(index.set(DOC_A, build(clientes(), 'Controle', T0 + HOUR))).toBe('saved');
    store.frozen = false;
    expect(new WorkIndexStore(store).read().documents[DOC_A].writtenAt).toBe(T0);
    // A change of anything else is written, with its time.
    index.set(DOC_A, build(clientes(), 'Controle renomeada', T0 + HOUR));
    expect(new WorkIndexStore(store).read().documents[DOC_A]).toMatchObject({ name: 'Controle renomeada', writtenAt: T0 + HOUR });
  });

  it('runs each change under the guard it was given', () => {
    const store = new MemoryStore();
    let guarded = 0;
    const index = new WorkIndexStore(store, (change) => {
      guarded++;
      return change();
    });
    index.set(DOC_A, build([report('Clientes')]));
    expect(guarded).toBe(1);
  });

  const docId = (i: number) => `doc${String(i).padStart(41, '0')}`;
  /** A document of 20 reports of two companies, with long names: about 1.7 KB kept whole. */
  const bulky = (i: number) =>
    build(
      Array.from({ length: 20 }, (_, r) =>
        report(`Relatório ${r} de uma planilha de cliente com um nome bem comprido ${i}`, { connectionId: r % 2 ? 'k1' : 'k2' }),
      ),
      `Cliente ${i}`,
      T0 + i,
    );

  it("keeps parts under 8 KB, and when full drops the oldest documents' detail first, saying so, never the counts", () => {
    const store = new MemoryStore();
    const index = new WorkIndexStore(store);
    const kept: string[] = [];
    for (let i = 0; i < 60; i++) kept.push(index.set(docId(i), bulky(i)));
    for (const [key, value] of store.map) expect(value.length, key).toBeLessThanOrEqual(PART_BYTES);
    expect(store.map.size).toBeLessThanOrEqual(MAX_PARTS);
    // Every save kept the document it was asked for, the newest whole.
    expect(kept.every((k) => k === 'saved')).toBe(true);
    const read = readWorkIndex(store);
    expect(Object.keys(read.documents)).toHaveLength(60);
    expect(read.documents[docId(0)].trimmed).toBe(true);
    expect(read.documents[docId(59)].trimmed).toBe(false);
    expect(read.documents[docId(0)].connections.k1).toEqual({ reports: [], failures: 0 });
    const company = workOf(read, 'k1');
    expect(company.links).toHaveLength(60);
    expect(company.incomplete).toBe(true);
    expect(read.dropped).toBe(0);
  });

  /** Ten companies with ids of a connection's length: about 450 bytes a document even without its detail. */
  const companies = Array.from({ length: 10 }, (_, c) => ({ id: `${String(c).padStart(8, '0')}-0000-4000-8000-000000000000`, name: `E${c}` }));
  const wide = (i: number) =>
    documentWork(
      companies.map((c) => report(`Relatório ${c.name}`, { connectionId: c.id })),
      { name: `Cliente ${i}`, now: T0 + i, zone, connections: companies },
    );

  it('writes only the part that changed, and lets parts go when the documents leave', () => {
    const store = new MemoryStore();
    const index = new WorkIndexStore(store);
    const works = Array.from({ length: 14 }, (_, i) => bulky(i));
    works.forEach((w, i) => index.set(docId(i), w));
    const keys = [...store.map.keys()].sort();
    expect(keys.length).toBeGreaterThanOrEqual(3);
    // The same work again changes nothing: no part is written (a frozen store throws on any write).
    store.frozen = true;
    works.forEach((w, i) => index.set(docId(i), w));
    store.frozen = false;
    for (let i = 0; i < 14; i++) index.set(docId(i), null);
    expect([...store.map.keys()]).toEqual(['faturamento.trabalho']);
    expect(readWorkIndex(store)).toMatchObject({ documents: {}, dropped: 0 });
  });

  it('when even the counts do not fit, the oldest documents go and the index counts them; the one just saved stays', () => {
    const store = new MemoryStore();
    const index = new WorkIndexStore(store);
    const many = 200;
    for (let i = 0; i < many; i++) index.set(docId(i), wide(i));
    for (const value of store.map.values()) expect(value.length).toBeLessThanOrEqual(PART_BYTES);
    const read = readWorkIndex(store);
    const left = Object.keys(read.documents);
    expect(read.dropped).toBe(many - left.length);
    expect(read.dropped).toBeGreaterThan(0);
    expect(left).toContain(docId(many - 1));
    expect(left).not.toContain(docId(0));
    expect(workOf(read, companies[0].id).incomplete).toBe(true);
    expect(workOf(read, companies[0].id).links).toHaveLength(left.length);
    // Every document is kept without its detail by then, the newest too; one older than all the others goes.
    expect(index.set(docId(many), wide(many))).toBe('trimmed');
    expect(index.set(docId(0), { ...(wide(0) as DocumentWork), writtenAt: 0 })).toBe('dropped');
  });

  it('trims a document too large for a part on its own, and leaves out one that cannot fit even so, counting it', () => {
    const store = new MemoryStore();
    const index = new WorkIndexStore(store);
    const many = Array.from({ length: 120 }, (_, i) => ({ id: `c${String(i).padStart(35, '0')}`, name: `E${i}` }));
    const reports = many.map((c) => report(`Relatório da empresa ${c.name} com nome comprido`, { connectionId: c.id }));
    const one = documentWork(reports, { name: 'Larga', now: T0, zone, connections: many });
    expect(index.set(DOC_A, one)).toBe('trimmed');
    const widest = Array.from({ length: 400 }, (_, i) => ({ id: `c${String(i).padStart(35, '0')}`, name: `E${i}` }));
    const huge = documentWork(
      widest.map((c) => report('R', { connectionId: c.id })),
      { name: 'Enorme', now: T0 + 1, zone, connections: widest },
    );
    expect(index.set(DOC_B, huge)).toBe('dropped');
    const read = readWorkIndex(store);
    expect(Object.keys(read.documents)).toEqual([DOC_A]);
    expect(read.dropped).toBe(1);
  });
});

describe('the spreadsheets where a company has reports', () => {
  it('are listed by id and name, by name, only where the company has reports', () => {
    const store = new MemoryStore();
    const index = new WorkIndexStore(store);
    index.set(DOC_B, build([report('Faturas')], 'Padaria · caixa') as DocumentWork);
    index.set(DOC_A, build([report('Clientes'), report('NFS-e', { connectionId: 'k2' })], 'Padaria · cadastro') as DocumentWork);
    const read = readWorkIndex(store);
    expect(spreadsheetsOf(read, 'k1')).toEqual([
      { id: DOC_A, name: 'Padaria · cadastro' },
      { id: DOC_B, name: 'Padaria · caixa' },
    ]);
    expect(spreadsheetsOf(read, 'k2')).toEqual([{ id: DOC_A, name: 'Padaria · cadastro' }]);
    expect(spreadsheetsOf(read, 'k3')).toEqual([]);
  });
});
