/**
 * Seeded chance for what Google leaves to chance (latency, a kill's torn
 * writes, passing errors, a trigger's minute): the same seed gives the same
 * draws, so a failure a test finds is found again on every run.
 */

/** A small LCG in [0, 1): the same sequence for the same seed. */
export function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** A number in [0, 2³²) from a seed and some names (FNV-1a): one draw that needs no sequence. */
export function hashed(seed: number, ...parts: string[]): number {
  let h = 0x811c9dc5 ^ seed;
  for (const c of parts.join('\u0000')) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return h >>> 0;
}

/** The same draw in [0, 1). */
export const chance = (seed: number, ...parts: string[]): number => hashed(seed, ...parts) / 2 ** 32;
