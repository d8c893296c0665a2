/**
 * Where a room goes says what it may lean on. The core's families stand in
 * one order (docs/architecture.md, the layers): a file imports only its own
 * family, the ground (the files at src/core's root) and the families before
 * its own, so a folder tells a newcomer what a change there can reach. And
 * each sidebar server is named for the sidebar code it answers:
 * src/gas/<name>-server.ts for src/ui/client/<name>.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FAMILIES = ['sheets', 'connections', 'trust', 'reports', 'pull', 'bulk', 'dashboards', 'runs', 'hourly', 'central'];

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(posix.join(dir, e.name)) : e.name.endsWith('.ts') ? [posix.join(dir, e.name)] : [],
  );
}

/** The files of src/ a file imports, types included, by their paths from the repository's root. */
function imports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/^(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/gm)].map((m) => posix.normalize(posix.join(posix.dirname(file), m[1])));
}

/** A core file's family: its folder under src/core, or the ground at its root. */
function family(file: string): string | null {
  if (!file.startsWith('src/core/')) return null;
  const parts = file.slice('src/core/'.length).split('/');
  return parts.length === 1 ? 'ground' : parts[0];
}

const rank = (f: string): number => (f === 'ground' ? -1 : FAMILIES.indexOf(f));

describe('the families of src/core', () => {
  const files = sources('src/core');

  it('are the folders the documents name, and nothing else', () => {
    const folders = [...new Set(files.map(family))].filter((f) => f !== 'ground').sort();
    expect(folders).toEqual([...FAMILIES].sort());
    const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    for (const f of FAMILIES) expect(doc).toContain(`| \`src/core/${f}/\` |`);
  });

  it('import only their own family, the ground, and the families before their own', () => {
    const wrong = files.flatMap((file) => {
      const mine = family(file) as string;
      return imports(file)
        .map((target) => ({ target, theirs: family(target) }))
        .filter(({ theirs }) => theirs !== null && theirs !== mine && rank(theirs) >= rank(mine))
        .map(({ target }) => `${file} → ${target}`);
    });
    expect(wrong).toEqual([]);
  });

  it('tells a file’s family and what it imports, types and re-exports included', () => {
    expect(family('src/core/deadline.ts')).toBe('ground');
    expect(family('src/core/dashboards/kinds/sem-nfse.ts')).toBe('dashboards');
    expect(imports('src/core/runs/begin.ts')).toEqual(expect.arrayContaining(['src/core/pull/start', 'src/core/reports/reports', 'src/core/runs/deps']));
    expect(imports('src/gas/sidebar-contract.ts')).toEqual(expect.arrayContaining(['src/gas/lote-server', 'src/gas/outcome']));
  });
});

describe('the sidebar servers', () => {
  const servers = readdirSync(join(root, 'src/gas')).filter((f) => f.endsWith('-server.ts'));

  it('are each named for the sidebar code it answers', () => {
    expect(servers.length).toBeGreaterThan(0);
    const orphans = servers.filter((f) => !existsSync(join(root, 'src/ui/client', f.replace(/-server\.ts$/, '.ts'))));
    expect(orphans).toEqual([]);
  });

  it('are the only rooms the sidebar contract takes its functions from', () => {
    const from = imports('src/gas/sidebar-contract.ts').map((p) => relative('src/gas', p));
    expect(from.filter((p) => p !== 'outcome' && !p.endsWith('-server'))).toEqual([]);
    expect(new Set(from)).toEqual(new Set([...servers.map((f) => f.replace(/\.ts$/, '')), 'outcome']));
  });
});
