/**
 * The bulk batch planner: a batch long enough that its fixed cost (marks,
 * flush, results, checkpoint) is a small share of it, short enough for the
 * step's soft deadline, never more than the rows left.
 */
import { describe, expect, it } from 'vitest';
import { batchOverheadMs, MAX_WAVES, OVERHEAD_SHARE, planBatch } from '../../../src/core/bulk/planner';

const base = { now: 0, deadline: 270_000, width: 10, rowsLeft: 1_000, columns: 16 };

describe('planBatch', () => {
  it('sizes the batch so its fixed cost is at most its share of the waves', () => {
    // Waves of a second: the share needs fewer than MAX_WAVES.
    const plan = planBatch({ ...base, waveMs: 1_000 });
    const fixed = batchOverheadMs(0, base.columns);
    expect(plan.waves).toBe(Math.ceil(fixed / (OVERHEAD_SHARE * 1_000)));
    expect(plan.waves).toBeLessThan(MAX_WAVES);
    expect(plan.rows).toBe(plan.waves * 10);
    expect(fixed / (plan.waves * 1_000)).toBeLessThanOrEqual(OVERHEAD_SHARE);
  });

  it('a slower service needs fewer waves to hide the same fixed cost', () => {
    expect(planBatch({ ...base, waveMs: 5_000 }).waves).toBeLessThan(planBatch({ ...base, waveMs: 600 }).waves);
  });

  it('never more waves than MAX_WAVES, nor rows than are left', () => {
    expect(planBatch({ ...base, waveMs: 1 }).waves).toBe(MAX_WAVES);
    expect(planBatch({ ...base, rowsLeft: 25, waveMs: 600 })).toMatchObject({ rows: 25, waves: 3 });
  });

  it('what is expected to end by the soft deadline, and at least one wave however late', () => {
    expect(planBatch({ ...base, deadline: 10_000, waveMs: 600 }).waves).toBe(Math.floor((10_000 - batchOverheadMs(0, 16)) / 600));
    expect(planBatch({ ...base, deadline: 500, waveMs: 3_000 })).toMatchObject({ waves: 1, rows: 10 });
  });

  it('a narrower wave (after a 429) gives fewer rows per batch, not more waves', () => {
    const wide = planBatch({ ...base, waveMs: 600 });
    const narrow = planBatch({ ...base, width: 2, waveMs: 600 });
    expect(narrow.waves).toBe(wide.waves);
    expect(narrow.rows).toBe(wide.waves * 2);
  });

  it('the overhead it plans grows with the cells written twice per row', () => {
    expect(planBatch({ ...base, waveMs: 600 }).overheadMs).toBe(batchOverheadMs(planBatch({ ...base, waveMs: 600 }).rows, 16));
  });

  it('a fixed cost of twenty calls and a flush, and each row costs its cells written twice', () => {
    // 20 calls of 60 ms and a 500 ms flush; 0.225 ms a cell, marks and results.
    expect(batchOverheadMs(0, 16)).toBe(1_700);
    expect(batchOverheadMs(100, 10)).toBeCloseTo(1_700 + 2 * 100 * 10 * 0.225, 6);
  });

  it('counts the time left from now, not from the epoch', () => {
    const now = 1_700_000_000_000;
    const plan = planBatch({ ...base, now, deadline: now + 10_000, waveMs: 600 });
    expect(plan.waves).toBe(Math.floor((10_000 - batchOverheadMs(0, 16)) / 600));
  });
});
