/**
 * Small rooms: a file of src/ that grows past a few screens is holding more
 * than one thing. The interface's declarative tables are the exception: one
 * entry per listing, field or write, long by nature. (Functions are held to
 * 80 lines by the lint.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_LINES = 450;
const TABLES = new Set(['src/api/operations.ts', 'src/api/writes.ts', 'src/api/records.ts', 'src/api/fields.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.ts$/.test(e.name) ? [relative(root, join(dir, e.name)).split('\\').join('/')] : [],
  );
}

const lines = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('rooms of src/ stay small', () => {
  it(`counts a file's lines as an editor shows them`, () => {
    expect(lines('a\nb\n')).toBe(2);
    expect(lines('a\nb')).toBe(2);
  });

  it(`has no file over ${MAX_LINES} lines but the interface's tables`, () => {
    const over = sources(join(root, 'src'))
      .filter((f) => !TABLES.has(f))
      .map((f) => ({ f, n: lines(readFileSync(join(root, f), 'utf8')) }))
      .filter(({ n }) => n > MAX_LINES)
      .map(({ f, n }) => `${f}: ${n} lines`);
    expect(over).toEqual([]);
  });
});
