/**
 * Refreshing the Central: N companies in resumable steps. The refresh is a
 * job in the document's work store (its competência, its companies, which
 * the hourly check found unchanged); each company's result is its own item
 * (store.ts), saved once its month is read whole and naming the refresh that
 * wrote it. So a step killed at any point loses only the companies it was
 * reading, the next step goes on from the items saved, and no company is
 * counted twice. A company whose service fails gets its failure on its row;
 * the others go on.
 */
import type { Zone } from '../../api/calendar';
import type { BillingClient } from '../../api/client';
import { UserError } from '../../api/user-error';
import { plural } from '../../api/words';
import { CALL_MS, StepBudget, type StepTimes, writeCostMs } from '../deadline';
import { distinctOrganizations, type Organization } from '../connections/organizations';
import type { DashboardSheetPort } from '../dashboards/port';
import { todayOf } from '../dashboards/sources';
import { JobStore } from '../trust/job-store';
import type { Owner } from '../trust/owners';
import type { SignedStore } from '../trust/seal';
import { changes, marksOf } from './ask';
import { markReviewed, ReviewStore, undoneBy, unmarkReviewed } from './marks';
import { type MonthFigures, monthFigures } from './month';
import { type CentralStatus, statusOf } from './status';
import { type CentralWork, centralView, type WorkInfo, writeCentral } from './sheet';
import { type CentralCompany, type CentralJob, CentralStore, type CompanyMonth, companyKey, monthId } from './store';

export type { CentralJob };
import { basesOf, type Check, check, checkWaves, clientOf, incomplete, type Lane, lane, laneDone, readWave } from './waves';

export interface CentralDeps {
  /** The document's work store, signed as the running user's. */
  store: SignedStore;
  clientFor(connectionId: string): BillingClient;
  now(): number;
  /** The spreadsheet's zone. */
  zone: Zone;
  user: Owner;
  /** The Central sheet, rewritten at the end of each step when given. */
  sheet?: () => DashboardSheetPort;
  /** The work around each company (links, schedules), which the shell knows. */
  work?: CentralWork;
  /** Companies read at once (`LANES` unless said). */
  lanes?: number;
}

export interface CentralStart {
  competencia: string;
  /** The user's connections; each organization is read once (the first connection of it). */
  companies: readonly CentralCompany[];
  /** Reads in full only the companies whose data changed since their last read (as far as the interface shows). */
  onlyChanged: boolean;
}

export interface CentralProgress {
  done: number;
  total: number;
  message: string;
}

export const JOB_PREFIX = 'faturamento.central.';
export const JOB_ID = 'job';

/** Companies read at once: their listings share each wave. */
export const LANES = 10;

const jobs = (deps: CentralDeps) => new JobStore<CentralJob>(deps.store, JOB_PREFIX);

export function currentJob(deps: CentralDeps): CentralJob | null {
  return jobs(deps).get(JOB_ID);
}

/** Starts a refresh of `start.companies` for the competência; the steps do the reading. */
export function startCentral(deps: CentralDeps, start: CentralStart): CentralProgress {
  const distinct = distinctOrganizations(start.companies);
  const job: CentralJob = {
    id: `${deps.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`,
    owner: { id: deps.user.id, email: deps.user.email },
    competencia: start.competencia,
    onlyChanged: start.onlyChanged,
    startedAt: deps.now(),
    companies: distinct.kept.map((c) => ({ connectionId: c.connectionId, name: c.name, ...(c.organization ? { organization: c.organization } : {}) })),
    skipped: distinct.skipped.map((s) => ({ name: s.left.name, used: s.used.name })),
    unchanged: [],
  };
  jobs(deps).put(JOB_ID, job);
  new CentralStore(deps.store).prune(start.competencia);
  return progressOf(job, 0);
}

function progressOf(job: CentralJob, done: number): CentralProgress {
  const total = job.companies.length;
  const message = job.finishedAt
    ? `Central atualizada: ${plural(total, 'empresa', 'empresas')} na competência ${job.competencia}.`
    : `Atualizando a Central: ${done} de ${plural(total, 'empresa', 'empresas')}…`;
  return { done, total, message };
}

/** Whether a company was done by this refresh: read (or failed) by it, or found unchanged. */
const doneBy = (job: CentralJob, items: Map<string, CompanyMonth>, key: string): boolean => items.get(key)?.run === job.id || job.unchanged.includes(key);

/** Whether the hourly check may stand for a full read: figures read today, no failure since, and marks to compare with. */
function checkable(job: CentralJob, item: CompanyMonth | undefined, deps: CentralDeps): item is CompanyMonth & { marks: object; refreshedAt: number } {
  if (!job.onlyChanged || !item?.figures || item.failure || !item.marks || item.refreshedAt === undefined) return false;
  const day = (at: number) => todayOf(deps.zone, at).day;
  const a = day(item.refreshedAt);
  const b = day(deps.now());
  return a.year === b.year && a.month === b.month && a.day === b.day;
}

/** One step: the hourly checks of the companies that allow one, then full reads, a lane at a time, while the budget lasts. */
export function stepCentral(deps: CentralDeps, times: StepTimes): { done: boolean; progress: CentralProgress } {
  const store = jobs(deps);
  const job = store.get(JOB_ID);
  if (!job) return { done: true, progress: { done: 0, total: 0, message: 'Nenhuma atualização da Central em andamento.' } };
  const central = new CentralStore(deps.store);
  const items = central.month(job.competencia);
  const budget = new StepBudget(deps.now, times);
  if (!job.finishedAt) {
    const pending = job.companies.filter((c) => !doneBy(job, items, companyKey(c)));
    const toRead = runChecks(deps, job, pending, items, budget);
    if (toRead.length !== pending.length) store.put(JOB_ID, job);
    readCompanies(deps, job, toRead, items, budget);
    if (job.companies.every((c) => doneBy(job, items, companyKey(c)))) {
      job.finishedAt = deps.now();
      store.put(JOB_ID, job);
    }
  }
  const done = job.companies.filter((c) => doneBy(job, items, companyKey(c))).length;
  if (deps.sheet) writeCentral(deps.sheet(), centralView(deps, job, items));
  return { done: job.finishedAt !== undefined, progress: progressOf(job, done) };
}

/** The hourly checks of the companies that allow one; returns the companies to read in full (changed, or not checkable). */
function runChecks(deps: CentralDeps, job: CentralJob, pending: CentralCompany[], items: Map<string, CompanyMonth>, budget: StepBudget): CentralCompany[] {
  const checks: Check[] = [];
  const read: CentralCompany[] = [];
  for (const c of pending) {
    const item = items.get(companyKey(c));
    if (checkable(job, item, deps)) checks.push(check(clientOf(deps.clientFor, c), c, job.competencia, item.marks, item.marks.bases ?? {}));
    else read.push(c);
  }
  checkWaves(checks, budget);
  for (const c of checks) {
    if (c.answer && changes(items.get(companyKey(c.company))!.marks!, c.answer).length === 0) job.unchanged.push(companyKey(c.company));
    else if (c.answer || c.failure) read.push(c.company);
  }
  return read;
}

/** Full reads of `companies`, `LANES` at a time; each company's item saved as soon as its month is whole. */
function readCompanies(deps: CentralDeps, job: CentralJob, companies: CentralCompany[], items: Map<string, CompanyMonth>, budget: StepBudget): void {
  const queue = [...companies];
  const lanes: Lane[] = [];
  // At its worst each wave is followed by saving every lane it finishes, the job and the sheet.
  const reserve = () => lanes.length * CALL_MS + writeCostMs(job.companies.length + 12, 24, 12);
  for (;;) {
    while (lanes.length < (deps.lanes ?? LANES) && queue.length && (!budget.pastDeadline() || lanes.length === 0)) {
      const c = queue.shift()!;
      const item = items.get(companyKey(c));
      lanes.push(lane(clientOf(deps.clientFor, c), c, job.competencia, item?.marks?.bases ?? {}, deps.now()));
    }
    if (lanes.length === 0) return;
    if (!readWave(lanes, budget, reserve(), deps.now)) return;
    for (const l of lanes.filter(laneDone)) {
      lanes.splice(lanes.indexOf(l), 1);
      const saved = finish(deps, job, l, items.get(companyKey(l.company)));
      items.set(companyKey(l.company), saved);
    }
    if (budget.pastDeadline() && lanes.length === 0) return;
  }
}

/** A company read whole (or failed): its figures, marks and review checked, saved as this refresh's. */
function finish(deps: CentralDeps, job: CentralJob, l: Lane, before: CompanyMonth | undefined): CompanyMonth {
  const key = companyKey(l.company);
  const central = new CentralStore(deps.store);
  const base: CompanyMonth = before
    ? { ...before, company: l.company, run: job.id }
    : { id: monthId(job.competencia, key), createdAt: deps.now(), competencia: job.competencia, company: l.company, run: job.id };
  if (l.failure) return central.save({ ...base, failure: { at: deps.now(), message: l.failure } });
  const partial = incomplete(l);
  // The service answered, but not every page: not a connection's failure, and no figures either.
  if (partial) return central.save({ ...base, failure: { at: deps.now(), message: partial, incomplete: true } });
  const figures = monthFigures(l.records, job.competencia, todayOf(deps.zone, l.began), deps.zone);
  const item: CompanyMonth = { ...base, refreshedAt: l.began, figures, marks: { ...marksOf(l.began, l.records.nfse), bases: basesOf(l) } };
  delete item.failure;
  const reviews = new ReviewStore(deps.store);
  const review = reviews.find(item.id);
  const undone = review ? undoneBy(review, figures, deps.zone) : undefined;
  if (!review || !undone) return central.save(item);
  // The reason first, then the review's removal: a kill between the two leaves a review the sheet already reads as undone.
  const saved = central.save({ ...item, undone });
  reviews.delete(item.id);
  return saved;
}

/** Rewrites the Central sheet from the last refresh and what the store keeps (after a review is marked or cleared). */
export function redrawCentral(deps: CentralDeps): void {
  const job = currentJob(deps);
  if (job && deps.sheet) writeCentral(deps.sheet(), centralView(deps, job, new CentralStore(deps.store).month(job.competencia)));
}

/** One company of the last refresh, for the sidebar. */
export interface CentralEntry {
  connectionId: string;
  name: string;
  organization?: Organization;
  status: CentralStatus;
  figures?: MonthFigures;
  reviewedBy?: string;
  reviewedAt?: number;
  undone?: string;
  /** The work around the company, as the shell told it (its spreadsheets, schedules). */
  work?: WorkInfo;
}

/** The last refresh as the sidebar lists it: its competência, where it stands, and each company's status and review. */
export function centralSummary(deps: CentralDeps): { competencia: string; running: boolean; finishedAt?: number; companies: CentralEntry[] } | null {
  const job = currentJob(deps);
  if (!job) return null;
  const view = centralView(deps, job, new CentralStore(deps.store).month(job.competencia));
  return {
    competencia: job.competencia,
    running: job.finishedAt === undefined,
    ...(job.finishedAt === undefined ? {} : { finishedAt: job.finishedAt }),
    companies: view.rows.map((r) => ({
      connectionId: r.company.connectionId,
      name: r.company.name,
      ...(r.company.organization ? { organization: r.company.organization } : {}),
      status: statusOf(r.month ?? {}),
      ...(r.month?.figures && !r.month.failure ? { figures: r.month.figures } : {}),
      ...(r.review ? { reviewedBy: r.review.by.email || r.review.by.id, reviewedAt: r.review.at } : {}),
      ...(r.month?.undone && !r.review ? { undone: r.month.undone } : {}),
      ...(r.work ? { work: r.work } : {}),
    })),
  };
}

/** Marks (or clears) the review of a company of the last refresh as the running user's, and rewrites the sheet. */
export function reviewCompany(deps: CentralDeps, connectionId: string, reviewed: boolean): void {
  const job = currentJob(deps);
  const company = job?.companies.find((c) => c.connectionId === connectionId);
  const month = company ? new CentralStore(deps.store).find(job!.competencia, company) : null;
  if (!month) throw new UserError('Esta empresa não está na última atualização da Central: atualize a Central e tente de novo.');
  const reviews = new ReviewStore(deps.store);
  if (reviewed) markReviewed(reviews, month, deps.user, deps.now());
  else unmarkReviewed(reviews, month, deps.user);
  redrawCentral(deps);
}
