import { describe, expect, it } from 'vitest';
import { CALL_MS, CELL_READ_MS, CELL_WRITE_MS, fits, StepBudget, WORST_ROUND_TRIP_MS, writeCostMs } from '../../src/core/deadline';

describe('planning a step against the execution limit', () => {
  it("uses the platform's pessimistic figures", () => {
    expect(WORST_ROUND_TRIP_MS).toBe(60_000);
    expect(CELL_WRITE_MS).toBe(0.225);
    expect(CELL_READ_MS).toBe(0.05);
    expect(CALL_MS).toBe(60);
  });

  it('costs a write per cell plus its calls (eight by default)', () => {
    expect(writeCostMs(1_000, 20)).toBe(1_000 * 20 * 0.225 + 8 * 60);
    expect(writeCostMs(10, 4, 2)).toBe(10 * 4 * 0.225 + 2 * 60);
    expect(writeCostMs(0, 0, 0)).toBe(0);
  });

  it('starts work only when it ends by the limit, and always without one', () => {
    expect(fits(1_000, 500, 1_500)).toBe(true);
    expect(fits(1_000, 501, 1_500)).toBe(false);
    expect(fits(1_000, 1e12, undefined)).toBe(true);
  });

  it("starts a step's first wave past the soft deadline when it fits the limit, and no second one", () => {
    let now = 10_000;
    const budget = new StepBudget(() => now, { deadline: 5_000, limit: now + WORST_ROUND_TRIP_MS + 100 });
    expect(budget.startWave(100)).toBe(10_000);
    expect(budget.startWave(101)).toBeNull();
    now += 1;
    budget.waveEnded(10_000);
    expect(budget.startWave(0)).toBeNull();
    expect(new StepBudget(() => 0, { deadline: 10_000 }).startWave(0)).toBe(0);
  });
});
