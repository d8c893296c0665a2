/**
 * The repository stands alone: no tracked file names a place on the machine it
 * was written on (a working directory, a temporary folder, a home), which a
 * clone does not have. Documents cite docs/ or a public source instead, and
 * tools write paths relative to the checkout.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** An absolute path into one of these top folders; a URL's path (`…example.com/tmp/`) or a relative one (`a/tmp/`) is not one. */
const OUTSIDE = /(?<![\w.~/-])\/(?:work|tmp|root)\//g;

/** `line: text` for each line of `text` that names a path outside the repository. */
function outsidePaths(text: string): string[] {
  return text.split('\n').flatMap((line, k) => (line.match(OUTSIDE) ? [`${k + 1}: ${line.trim().slice(0, 160)}`] : []));
}

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })
    .split('\0')
    .filter(Boolean);
}

describe('the repository stands alone', () => {
  // Built here, so that this file does not name the paths it looks for.
  const at = (top: string, rest: string) => `/${top}/${rest}`;

  it('tells a path outside the repository from URLs and relative paths', () => {
    expect(outsidePaths(`see ${at('work', 'shared/platform.md')}`)).toHaveLength(1);
    expect(outsidePaths(`"projectRoot": "${at('work', 'main')}",`)).toEqual([`1: "projectRoot": "${at('work', 'main')}",`]);
    expect(outsidePaths(`ok\nwrote \`${at('tmp', 'x.json')}\`\n(${at('root', '.cache')})`)).toEqual([
      `2: wrote \`${at('tmp', 'x.json')}\``,
      `3: (${at('root', '.cache')})`,
    ]);
    expect(outsidePaths(`https://example.com${at('work', 'a')} src${at('tmp', 'b')} ./work/c "projectRoot": "."`)).toEqual([]);
  });

  it('no tracked file names one', () => {
    const found: string[] = [];
    for (const file of trackedFiles()) {
      const path = join(root, file);
      if (!existsSync(path)) continue; // deleted in the working tree, not yet committed
      const bytes = readFileSync(path);
      if (bytes.includes(0)) continue; // binary (images)
      for (const hit of outsidePaths(bytes.toString('utf8'))) found.push(`${file}:${hit}`);
    }
    expect(found).toEqual([]);
  });
});
