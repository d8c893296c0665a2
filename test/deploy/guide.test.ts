/**
 * docs/deploy.md can be followed as written: every clasp command it names exists
 * in the clasp we pin, with the options it gives (its own `--help` says so), and
 * its scope list is the manifest's, each scope justified once.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { GUIDE, manifestScopes, withScopeBlock } from '../../dev/deploy/scopes';

const run = promisify(execFile);
const guide = readFileSync(GUIDE, 'utf8');

/** The text inside code: fenced blocks (without shell comments) and inline code spans. */
function codeIn(markdown: string): string[] {
  const fenced = [...markdown.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].flatMap((m) => m[1].split('\n').map((line) => line.replace(/\s#.*$/, '')));
  const inline = [...markdown.replace(/```[a-z]*\n[\s\S]*?```/g, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
  return [...fenced, ...inline];
}

/** Each clasp command the guide names, with every option it gives it anywhere. */
function claspCommands(markdown: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const code of codeIn(markdown)) {
    for (const m of code.matchAll(/(?:^|[\s(])(?:npx )?clasp ([a-z][\w-]*)([^\n]*)/g)) {
      const options = out.get(m[1]) ?? new Set<string>();
      for (const o of m[2].replace(/"[^"]*"/g, '').matchAll(/(?:^|\s)(--?[A-Za-z][\w-]*)/g)) options.add(o[1]);
      out.set(m[1], options);
    }
  }
  return out;
}

interface Cli {
  commands: Cli[];
  exitOverride(fn: (err: Error) => never): Cli;
  configureOutput(o: { writeOut: (s: string) => void; writeErr: (s: string) => void }): Cli;
  parseAsync(argv: string[]): Promise<unknown>;
}

/**
 * What `npx clasp <command> --help` prints, from the installed clasp's own command-line
 * program run in this process (a Node process per command took a second or more each).
 */
async function help(command: string): Promise<string> {
  const entry = join(process.cwd(), 'node_modules/@google/clasp/build/src/commands/program.js');
  const { makeProgram } = (await import(pathToFileURL(entry).href)) as { makeProgram: () => Cli };
  const program = makeProgram();
  let out = '';
  const write = (s: string) => {
    out += s;
  };
  for (const c of [program, ...program.commands])
    c.exitOverride((err) => {
      throw err;
    }).configureOutput({ writeOut: write, writeErr: write });
  try {
    await program.parseAsync(['node', 'clasp', command, '--help']);
  } catch (err) {
    if (!/^commander\.help/.test((err as { code?: string }).code ?? '')) throw err;
  }
  return out;
}

describe('the deploy guide', () => {
  it('names only clasp commands and options that exist in the pinned clasp', async () => {
    const commands = claspCommands(guide);
    expect([...commands.keys()]).toEqual(expect.arrayContaining(['login', 'create', 'push', 'version', 'deploy', 'deployments', 'open-script']));
    for (const [command, options] of commands) {
      const text = await help(command);
      // An unknown command prints clasp's general usage ("Usage: clasp <command>") and still exits 0.
      const usage = /^Usage: clasp (\S+)/m.exec(text)?.[1] ?? '';
      expect(usage.split('|'), `clasp ${command}`).toContain(command);
      for (const option of options) expect(text, `clasp ${command} ${option}`).toMatch(new RegExp(`(^|[\\s,])${option}\\b`, 'm'));
    }
  });

  it('reads commands and options from code, and an unknown command has no usage of its own', async () => {
    const parsed = claspCommands('Run `npx clasp open` then:\n\n```bash\nnpx clasp deploy -V 3 --description "a --b" # not --this\n```\n');
    expect(Object.fromEntries([...parsed].map(([c, o]) => [c, [...o]]))).toEqual({ open: [], deploy: ['-V', '--description'] });
    expect(/^Usage: clasp (\S+)/m.exec(await help('open'))?.[1]).toBe('<command>');
  });

  it('names the clasp version the project pins, which is the one npx runs', async () => {
    const pinned = (JSON.parse(readFileSync('package.json', 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['@google/clasp'];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(guide).toContain(`\`@google/clasp\` ${pinned}`);
    const { stdout } = await run('npx', ['clasp', '--version'], { timeout: 30_000 });
    expect(stdout.trim()).toBe(pinned);
  });

  it('lists the scopes of the manifest the build writes, and justifies each once', () => {
    const scopes = manifestScopes();
    expect(scopes).toContain('https://www.googleapis.com/auth/spreadsheets');
    expect(withScopeBlock(guide, scopes)).toBe(guide);
    const justified = [...guide.matchAll(/^\| `(https:\/\/www\.googleapis\.com\/auth\/[^`]+)` \| (\S[^|]*) \| (\S[^|]*) \|$/gm)];
    expect(justified.map((m) => m[1]).sort()).toEqual([...scopes].sort());
    expect(justified.find((m) => m[1].endsWith('/spreadsheets'))?.[2]).toMatch(/^Sensitive/);
  });
});
