/**
 * A document for running reports in Node: the pull's strict book
 * (pull/strict-book.ts), the document's properties, a report store and job
 * store, and a small fake service (fake-service.ts) on a clock that each round
 * trip moves by a second.
 */
import { type Report, ReportStore, type RunOrigin, type RunSummary } from '../../../src/core/reports/reports';
import { beginRun } from '../../../src/core/runs/begin';
import { pullJobStore, type RunDeps } from '../../../src/core/runs/deps';
import type { RunProgress } from '../../../src/core/runs/progress';
import { continueRun } from '../../../src/core/runs/step';
import { MemoryStore, trusted } from '../bulk/fixtures';
import type { MemorySheet } from '../bulk/memory-book';
import { customers, FakeService, zone } from '../fake-service';
import { StrictBook } from '../pull/strict-book';

/** A report's sheet keeps its column metadata, so a later run finds its columns intact and may merge: the pull's strict sheet. */
export type { StrictSheet as TaggedSheet } from '../pull/strict-book';

/** 22/11/2026 12:00 in São Paulo. */
export const T0 = Date.UTC(2026, 10, 22, 15);
export const HOUR = 3_600_000;

export function world(companies: Record<string, Array<Record<string, unknown>>> = { k1: customers(1, 7) }) {
  const service = new FakeService(companies);
  const book = new StrictBook();
  const doc = new MemoryStore();
  let clock = T0;
  service.onTrip = () => {
    clock += 1_000;
  };
  let ids = 0;
  const reports = new ReportStore(trusted(doc), () => `rep${++ids}aaaaaa`);
  const notified: Array<{ report: Report; run: RunSummary }> = [];
  const after: Report[] = [];
  const deps: RunDeps = {
    reports,
    jobs: pullJobStore(trusted(doc)),
    book,
    zone,
    now: () => clock,
    clientFor: (id) => service.client(id, () => clock),
    connections: () => Object.keys(companies).map((id) => ({ id, name: `Empresa ${id}` })),
    notifyFailure: (report, run) => notified.push({ report, run }),
    afterReportRun: (report) => after.push(report),
  };
  const report = (fields: Partial<Report> = {}): Report =>
    reports.create(
      {
        name: 'Clientes ativos',
        listing: 'clientes',
        connection: 'Empresa k1',
        connectionId: 'k1',
        filters: {},
        sheetName: 'Clientes',
        incremental: false,
        schedule: null,
        notifyByEmail: false,
        ...fields,
      },
      clock,
    );
  const history = () => (book.byName('Histórico') as MemorySheet | null)?.records() ?? [];
  return { service, book, doc, deps, reports, report, notified, after, history, tick: (ms: number) => (clock += ms), now: () => clock };
}

export type World = ReturnType<typeof world>;

/** Steps a report's run to its end, as the sidebar does. */
export function runToEnd(w: World, id: string) {
  let p = continueRun(w.deps, id, w.now() + 600_000);
  for (let i = 0; i < 20 && !p.done; i++) p = continueRun(w.deps, id, w.now() + 600_000);
  return p;
}

/** Starts a run of the stored report `id` as a card's "Atualizar" does, with its stored job: one still running goes on instead. */
export function refresh(deps: RunDeps, id: string, origin: RunOrigin): RunProgress {
  return beginRun(deps, deps.reports.get(id), origin, deps.jobs.get(id)).progress;
}

/** Each job saved (as `checkpoint` and its rows) and each flush of the book, in order, from now on. */
export function savesOf(w: World): string[] {
  const events: string[] = [];
  const put = w.deps.jobs.put.bind(w.deps.jobs);
  w.deps.jobs.put = (id, job) => {
    events.push(`checkpoint ${job.state.rows}`);
    put(id, job);
  };
  const flush = w.book.flush.bind(w.book);
  w.book.flush = () => {
    events.push('flush');
    flush();
  };
  return events;
}
