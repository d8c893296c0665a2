/**
 * The bundle built from the current src/, in memory. Tests that run the add-on
 * in the emulator use it instead of dist/Code.js, so a change in src/ (a
 * mutant, an edit without `npm run build`) reaches them. Built once per
 * process and shared between test workers through a cache file keyed by the
 * sources' content.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cacheDir = join(root, 'node_modules/.cache/gas-bundle');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'ui' ? [] : sourceFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** Content hash of everything the bundle is built from (sidebar code is not part of Code.js). */
export function sourceHash(): string {
  const hash = createHash('sha256');
  hash.update(process.env.BILLING_API_BASE_URLS ?? '');
  for (const file of [
    ...sourceFiles(join(root, 'src')),
    ...sourceFiles(join(root, 'dev/build')),
    join(root, 'build.ts'),
    join(root, 'addon.config.json'),
    join(root, 'package-lock.json'),
  ].sort()) {
    hash.update(file);
    hash.update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/** What the bundle is made of: the script every execution parses, and the project's files that hold its lazy chunks. */
export interface BundleParts {
  code: string;
  files: Record<string, string>;
}

let memo: { hash: string; parts: BundleParts } | undefined;

/** Keeps a bundle built from the sources whose hash was taken before the build began (`npm run build` hands its own over). */
export function rememberBundle(hash: string, parts: BundleParts): void {
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(join(cacheDir, `${hash}.json`), JSON.stringify(parts));
}

export function sourceBundleParts(): BundleParts {
  const hash = sourceHash();
  if (memo?.hash === hash) return memo.parts;
  const cached = join(cacheDir, `${hash}.json`);
  let parts: BundleParts;
  if (existsSync(cached)) parts = JSON.parse(readFileSync(cached, 'utf8')) as BundleParts;
  else {
    // esbuild plugins (the lazy chunks) need its asynchronous API: the build runs in a child process.
    const out = execFileSync(process.execPath, ['--import', 'tsx', join(root, 'build.ts'), '--parts'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
    parts = JSON.parse(out) as BundleParts;
    rememberBundle(hash, parts);
  }
  memo = { hash, parts };
  return parts;
}

export function sourceBundle(): string {
  return sourceBundleParts().code;
}
