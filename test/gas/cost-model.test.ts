/** The figures the Diagnóstico compares with are the cost model's: the product's copy and the emulator's charges cannot drift apart. */
import { describe, expect, it } from 'vitest';
import { COST_MODELS } from '../../dev/gas/clock';
import { COST_FIGURES } from '../../src/gas/cost-model';

describe('the product’s copy of the cost model', () => {
  it('holds the emulator’s figures at both ends', () => {
    for (const end of ['optimistic', 'pessimistic'] as const) {
      const copy = COST_FIGURES[end];
      const charged = Object.fromEntries(Object.keys(copy).map((k) => [k, COST_MODELS[end][k as keyof typeof copy]]));
      expect(copy).toEqual(charged);
    }
  });
});
