/**
 * Writes test/durations.json from the durations vitest cached for this machine's last full run, rounded to 100 ms,
 * so a clean clone orders its test files as this machine would (test/sequencer.ts).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const cache = join(import.meta.dirname, '../../node_modules/.vite/vitest');
const runs = readdirSync(cache).map((d) => join(cache, d, 'results.json'));
const out: Record<string, number> = {};
for (const file of runs) {
  const { results } = JSON.parse(readFileSync(file, 'utf8')) as { results: Array<[string, { duration?: number }]> };
  // Keys name their project (node:, browser:); older caches' keys without one are left out.
  for (const [key, r] of results) if (r.duration !== undefined && !key.startsWith(':')) out[key] = Math.round(r.duration / 100) * 100;
}
const sorted = Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(join(import.meta.dirname, '../../test/durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(sorted).length} files`);
