/**
 * How many rows one bulk batch takes. A batch has a fixed cost whatever its
 * size (the PENDENTE marks written and flushed before anything is sent, the
 * results written back, the checkpoint) and then one round trip per wave of
 * `width` rows. Small batches spend most of a step on that fixed cost; the
 * planner makes each batch long enough that it is a small share of the batch,
 * short enough to end by the step's soft deadline, and never larger than the
 * rows left. The hard limit is not the planner's: every wave checks it before
 * it starts (a wave may hang for a minute), and rows whose wave did not start
 * go back to how they were.
 */
import { CALL_MS, CELL_WRITE_MS } from '../deadline';

/** A flush at the pessimistic end of the public figures (100–500 ms). */
export const FLUSH_MS = 500;
/**
 * Sheets and properties calls of a batch besides its waves: the marks, the flush, the results, and the
 * checkpoint, which writes a part and its header (each a signature, a property and a cell), blanks the
 * part it replaces, and settles those signatures after the next flush.
 */
export const BATCH_CALLS = 20;
/** The fixed cost may be at most this share of a batch's time. */
export const OVERHEAD_SHARE = 0.05;
/** At most this many waves in one batch: bounds what a kill leaves PENDENTE and the cells of one write. */
export const MAX_WAVES = 40;
/** A wave's duration before any was measured: a round trip at the pessimistic end with a slow service. */
export const DEFAULT_WAVE_MS = 1_000;

export interface BatchPlanInput {
  /** Epoch ms now and the step's soft deadline. */
  now: number;
  deadline: number;
  /** Rows sent at once in one wave (fetchAll's concurrency, halved after a 429). */
  width: number;
  /** Rows of the pass not yet scanned (an upper bound on what is left to send). */
  rowsLeft: number;
  /** Columns written back per row. */
  columns: number;
  /** What one wave took so far in this step, if measured. */
  waveMs?: number;
}

export interface BatchPlan {
  /** Rows to send in this batch (a multiple of width unless the rows left are fewer). */
  rows: number;
  waves: number;
  /** The fixed cost the plan assumed. */
  overheadMs: number;
}

/** The fixed cost of a batch of `rows` rows: its calls, its flush, its cells written twice (marks and results). */
export function batchOverheadMs(rows: number, columns: number): number {
  return BATCH_CALLS * CALL_MS + FLUSH_MS + 2 * rows * columns * CELL_WRITE_MS;
}

export function planBatch(input: BatchPlanInput): BatchPlan {
  const width = Math.max(1, Math.floor(input.width));
  const waveMs = Math.max(1, input.waveMs ?? DEFAULT_WAVE_MS);
  const needed = Math.max(1, Math.ceil(input.rowsLeft / width));
  const fixed = batchOverheadMs(0, input.columns);
  // Long enough: the fixed cost at most OVERHEAD_SHARE of the batch's time.
  const amortized = Math.ceil(fixed / (OVERHEAD_SHARE * waveMs));
  // Short enough: the expected waves end by the soft deadline (a wave past it is not started anyway).
  const inTime = Math.floor((input.deadline - input.now - fixed) / waveMs);
  const waves = Math.max(1, Math.min(needed, amortized, inTime, MAX_WAVES));
  const rows = Math.min(waves * width, Math.max(1, input.rowsLeft));
  return { rows, waves, overheadMs: batchOverheadMs(rows, input.columns) };
}
