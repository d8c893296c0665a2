/**
 * How one round trip is shared between the companies read at once: a
 * consolidated pull and the Central read several companies' listings in the
 * same waves.
 */

/** Requests in one round trip, whoever they go to: the same waves as one company's pull. */
export const WAVE_REQUESTS = 10;

/**
 * How many pages each walking company asks in the next wave: the wave's
 * requests shared out in turn, never more than a company has left. A company
 * not started yet asks its first two pages together (they tell the
 * numbering), or waits for the next wave.
 */
export function shareWave(wants: ReadonlyArray<{ pages: number; first: boolean }>, total = WAVE_REQUESTS): number[] {
  const out = wants.map(() => 0);
  let left = total;
  wants.forEach((w, i) => {
    if (w.first && w.pages > 0 && left >= 2) {
      out[i] = 2;
      left -= 2;
    }
  });
  for (let moved = true; moved; ) {
    moved = false;
    wants.forEach((w, i) => {
      if (w.first || left === 0 || out[i] >= w.pages) return;
      out[i] += 1;
      left -= 1;
      moved = true;
    });
  }
  return out;
}
