/**
 * One stepper for every pull, over its N companies (one company is N = 1):
 * each wave asks every company still walking for its next pages in the same
 * round trips (one `fetchAll`, the usual wave size shared between them) until
 * the listings end or the step's time does; what arrived is written in whole
 * blocks, each followed by a checkpoint, so a 6-minute kill loses at most the
 * waves since the last write, and those are fetched again and written to the
 * same rows. A company whose service does not answer rests until the next
 * step; one that fails stops alone. Once no company walks, the run settles.
 */
import { type Walk, waveAcross } from '../../api/client';
import type { ApiRecord } from '../../api/envelopes';
import type { PageResult } from '../../api/paging';
import { listing } from '../../api/operations';
import { bounded } from '../bounds';
import { fits, StepBudget, writeCostMs } from '../deadline';
import { tableSpec } from '../sheets/table';
import { failureMessage, messageOf } from './cell-limit';
import type { Companies, Walker } from './companies';
import { companiesOf } from './consolidated';
import { settle } from './settling';
import {
  ASSUMED_PAGE_ROWS,
  cancelImport,
  DEFAULT_FLUSH_ROWS,
  FINISH_CALLS,
  type ImportDeps,
  type ImportState,
  type InHand,
  isRetryable,
  MAX_TRANSIENT_FAILURES,
  SETTLING_GOES_ON,
  type StepOptions,
  transient,
} from './state';
import { shareWave } from './wave-share';
import { Writer } from './writer';

/** A company walking in this step: its walk, and the records fetched and not yet written. */
interface Lane {
  walker: Walker;
  walk: Walk;
  buffer: ApiRecord[];
}

/** A copy of the state a step works on: the one it was given stays whole, so a kill before the save keeps the last saved one. */
function nextState(state: ImportState): ImportState {
  const next: ImportState = {
    ...state,
    children: { ...state.children },
    warnings: [...state.warnings],
    steps: state.steps + 1,
    notBefore: undefined,
    ...(state.settled ? { settled: [...state.settled] } : {}),
    ...(state.companies ? { companies: state.companies.map((c) => ({ ...c })) } : {}),
  };
  for (const [k, v] of Object.entries(next.children)) next.children[k] = { ...v };
  return next;
}

/** A company's walk that failed: a time-out or a pause rests it until the next step; anything else fails it. */
function failWalker(companies: Companies, walker: Walker, err: unknown): void {
  const { place } = walker;
  // A write of the company's records set its count back: these are steps in a row without an answer.
  const failures = (place.transientFailures ?? 0) + 1;
  const text = bounded(messageOf(err), 500);
  if (transient(err) && failures < MAX_TRANSIENT_FAILURES) {
    place.transientFailures = failures;
    companies.rest(walker, err, text);
    return;
  }
  place.status = 'failed';
  place.retryable = isRetryable(err);
  place.transientFailures = 0;
  place.message = companies.failure(err, failures, text);
}

/** The cells a record may bring: its row, and a row in each child sheet. */
function recordWidth(state: ImportState, companies: Companies): number {
  const table = tableSpec(listing(state.spec.listing));
  const lead = companies.lead.length;
  return lead + table.columns.length + table.children.reduce((n, c) => n + lead + c.columns.length, 0);
}

/**
 * The listing in hand, when it is what this run asks (its listing, its filters), the run's walk has not begun (one
 * company only), and its write, at its worst, ends before the step's limit; else the run walks it as usual.
 */
function heldFor(state: ImportState, deps: ImportDeps, options: StepOptions, companies: Companies): InHand | undefined {
  const { inHand } = options;
  if (!inHand || state.companies || state.pager !== null) return undefined;
  if (inHand.listing !== state.spec.listing || JSON.stringify(inHand.filters) !== JSON.stringify(state.spec.filters)) return undefined;
  const rows = inHand.pages.reduce((n, page) => n + page.records.length, 0);
  return fits(deps.now(), writeCostMs(rows, recordWidth(state, companies), FINISH_CALLS), options.limit) ? inHand : undefined;
}

/** Each running company's walk from where it stands (a listing in hand: from its end); a connection the owner deleted fails here, alone. */
function walks(next: ImportState, companies: Companies, base: StepOptions['base'], held: InHand | undefined): Lane[] {
  const lanes: Lane[] = [];
  for (const walker of companies.walkers()) {
    if (walker.place.status !== 'running') continue;
    walker.place.message = undefined;
    const state = held?.pager ?? walker.place.pager ?? undefined;
    try {
      lanes.push({ walker, walk: walker.client().walk(next.spec.listing, walker.filters, { state, base }), buffer: [] });
    } catch (err) {
      failWalker(companies, walker, err);
    }
  }
  return lanes;
}

/** Writes what `lanes` fetched (those "Filtros na planilha" keep are counted as each company's rows), then saves the state. */
function write(next: ImportState, deps: ImportDeps, writer: Writer, lanes: readonly Lane[]): void {
  let wrote = false;
  for (const lane of lanes) {
    if (lane.buffer.length === 0) continue;
    const { place } = lane.walker;
    const before = next.rows;
    writer.write(lane.buffer, lane.walker.company);
    place.rows += next.rows - before;
    place.pager = lane.walk.pager.state;
    place.transientFailures = 0;
    lane.buffer = [];
    wrote = true;
  }
  if (!wrote) return;
  next.updatedAt = deps.now();
  deps.checkpoint?.(next);
}

/** A company's pages arrived: counted, buffered, and the total its service announced kept. */
function took(next: ImportState, lane: Lane, pages: readonly PageResult[]): void {
  const { place } = lane.walker;
  for (const page of pages) {
    next.pages += 1;
    place.pages += 1;
    for (const r of page.records) lane.buffer.push(r);
  }
  place.totalRows = lane.walk.pager.state.totalRows;
}

/** A company's wave failed: what arrived before a time-out was fetched within the plan and is written; the rest waits or fails. */
function failed(next: ImportState, deps: ImportDeps, writer: Writer, lane: Lane, err: unknown): void {
  if (transient(err)) {
    try {
      write(next, deps, writer, [lane]);
    } catch {
      // The write failed as well: the next step fetches those pages again.
    }
  }
  lane.buffer = [];
  failWalker(writer.companies, lane.walker, err);
}

/** Once every company told its total: the run's, refused up front (the first time) when the spreadsheet cannot take it. */
function totals(next: ImportState, writer: Writer, lanes: readonly Lane[], told: boolean): void {
  const places = writer.companies.walkers().map((w) => w.place);
  if (places.some((p) => p.totalRows === undefined)) return;
  next.totalRows = places.reduce((n, p) => n + (p.totalRows as number), 0);
  if (!told)
    writer.expect(
      next.totalRows,
      lanes.flatMap((l) => l.buffer),
    );
}

/** Shared waves until every company's listing ended, failed or rests, or the step's time is up; true when a cancel stopped them. */
function waves(next: ImportState, deps: ImportDeps, options: StepOptions, writer: Writer, lanes: Lane[], held: InHand | undefined): boolean {
  // The pages in hand are taken as a wave's would be: counted, buffered, the total checked against the spreadsheet.
  if (held && lanes.length) {
    took(next, lanes[0], held.pages);
    totals(next, writer, lanes, false);
  }
  const flushRows = deps.flushRows ?? DEFAULT_FLUSH_ROWS;
  // A record may bring a row to each child sheet too: the write is planned as that wide.
  const width = recordWidth(next, writer.companies);
  const budget = new StepBudget(deps.now, options);
  // Companies whose wave failed walk no more this step: resting until the next one, or failed.
  const stopped = new Set<Lane>();
  const buffered = () => lanes.reduce((n, l) => n + l.buffer.length, 0);
  const active = () => lanes.filter((l) => !l.walk.pager.done && !stopped.has(l));
  for (let wave = active(); wave.length > 0; wave = active()) {
    const shares = shareWave(wave.map((l) => ({ pages: l.walk.pager.nextWaveSize, first: l.walk.pager.state.base === undefined })));
    const asking = wave.filter((_, i) => shares[i] > 0);
    const pages = asking.reduce((n, l) => n + l.walk.pager.nextWaveSize * (l.walk.pager.state.pageSize ?? ASSUMED_PAGE_ROWS), 0);
    // At its worst the wave times out after a minute and then everything buffered is written: it must still end in time.
    const reserve = writeCostMs(buffered() + pages, width, FINISH_CALLS);
    const began = budget.startWave(reserve);
    if (began === null) break;
    for (const l of asking) l.walk.client = l.walk.client.withLimit(budget.requestLimit(reserve));
    const told = next.totalRows !== undefined;
    waveAcross(asking.map((l) => ({ walk: l.walk, max: shares[wave.indexOf(l)] }))).forEach((outcome, k) => {
      if (outcome.ok) took(next, asking[k], outcome.pages);
      else {
        failed(next, deps, writer, asking[k], outcome.error);
        stopped.add(asking[k]);
      }
    });
    budget.waveEnded(began);
    totals(next, writer, lanes, told);
    if (buffered() >= flushRows) write(next, deps, writer, lanes);
    if (active().length > 0 && deps.cancelRequested?.()) {
      write(next, deps, writer, lanes);
      return true;
    }
  }
  write(next, deps, writer, lanes);
  return false;
}

/** What each company's walk ended with: its warnings kept once, and done, or failed when nothing proves its listing whole. */
function walked(next: ImportState, companies: Companies, lanes: readonly Lane[]): void {
  for (const { walker, walk } of lanes) {
    for (const text of walk.pager.warnings) {
      const warning = companies.warning(walker, text);
      if (!next.warnings.includes(warning)) next.warnings.push(warning);
    }
    if (!walk.pager.done) continue;
    const incomplete = walk.pager.state.incomplete;
    // Rows are written but nothing proves the listing is whole: the mark stays and the company is not OK.
    if (incomplete) {
      walker.place.status = 'failed';
      walker.place.message = `Importação incompleta: ${incomplete}`;
    } else walker.place.status = 'done';
  }
}

/** Once no company walks: done (partial when some failed) after the settling, failed when all did. */
function conclude(next: ImportState, companies: Companies, settled: () => boolean): void {
  const walkers = companies.walkers();
  const running = walkers.filter((w) => w.place.status === 'running');
  if (running.length) {
    next.message = companies.waiting(running);
    return;
  }
  const failures = walkers.filter((w) => w.place.status === 'failed');
  if (failures.length === walkers.length) {
    next.status = 'failed';
    next.retryable = failures.some((w) => w.place.retryable);
    next.message = companies.failed(failures);
    return;
  }
  if (failures.length) next.partial = companies.failed(failures);
  if (!settled()) {
    next.message = SETTLING_GOES_ON;
    return;
  }
  next.message = next.partial;
  next.status = 'done';
}

/** The same ports, saving no state between writes (the ports' own getters kept). */
function unsaved(deps: ImportDeps): ImportDeps {
  return Object.create(deps, { checkpoint: { value: undefined } }) as ImportDeps;
}

/**
 * Runs waves until the listings end or the deadline nears, then settles.
 * Returns the new state; the caller persists it. A failure of the run (its
 * sheet deleted, the cell limit) leaves it `failed` with a Portuguese message
 * and the sheet still marked incomplete.
 *
 * A listing in hand (fetched moments ago, `options.inHand`) is written and
 * settled with no checkpoint in between: a kill anywhere before the run ends
 * leaves its job as it began, and the run fetches the listing again and
 * writes each record on its row again. A checkpoint per block and per settling
 * part (a property and a cell written each, and a half-second flush) would
 * spare it a round trip or two.
 */
export function stepImport(state: ImportState, deps: ImportDeps, options: StepOptions): ImportState {
  if (state.status !== 'running' || !companiesOf(state, deps).ready()) return state;
  const next = nextState(state);
  const fail = (err: unknown): ImportState => ({ ...next, status: 'failed', retryable: isRetryable(err), message: failureMessage(err), updatedAt: deps.now() });
  let writer: Writer;
  try {
    writer = new Writer(next, deps);
  } catch (err) {
    return fail(err);
  }
  const held = heldFor(state, deps, options, writer.companies);
  const saving = held ? unsaved(deps) : deps;
  const lanes = walks(next, writer.companies, options.base, held);
  try {
    if (waves(next, saving, options, writer, lanes, held)) return { ...cancelImport(next), updatedAt: deps.now() };
  } catch (err) {
    // A write failed (a sheet deleted mid-run, the cell limit): the whole run stops here.
    return fail(err);
  }
  walked(next, writer.companies, lanes);
  // Settling 200,000 rows may not fit what this execution has left, nor one whole execution: each part that
  // fits is done, the first one at least when this step fetched no page (a page fetched was written), and the next step goes on.
  conclude(next, writer.companies, () => settle(next, saving, writer, options.limit, next.pages === state.pages));
  next.updatedAt = deps.now();
  return next;
}
