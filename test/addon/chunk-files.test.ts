/**
 * The lazy chunks' code lives in files of the project (`chunk-<name>.html`),
 * read through HtmlService by the execution that first calls into one. A file
 * that does not come back as the build wrote it stops that call with an error
 * naming the file, before any of the chunk's code is handed out; the
 * Diagnóstico compares every file with the build's record.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceBundleParts } from '../../dev/gas/bundle';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { builtManifest } from '../../build';
import { connect, emulator } from './helpers';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 7, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});

/** What mutation testing's instrumentation compiles in an execution, far less than a chunk (test/addon/lazy-chunks.test.ts). */
const INSTRUMENTATION = 1_000;
/** A count as the messages write it (80.955). */
const pt = (n: number) => n.toLocaleString('pt-BR');
const bulkFile = () => sourceBundleParts().files['chunk-bulk.html'];
const failure = (emu: GasEmulator, fn: string): string => {
  try {
    emu.run(fn);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`${fn} did not fail`);
};

describe('the lazy chunks’ files', () => {
  it('are read only by the execution that loads a chunk, one file for its one chunk', () => {
    const emu = emulator();
    expect(emu.open('LIMITED').counters.filesRead).toBe(0);
    connect(emu, sb);
    emu.run('getImportForm');
    expect(emu.history.at(-1)?.counters.filesRead).toBe(0);
    emu.run('getBulkForm');
    expect(emu.history.at(-1)?.counters.filesRead).toBe(1);
    // At least the chunk: under mutation testing the instrumentation compiles a few characters of its own.
    expect(emu.history.at(-1)?.counters.compiledChars).toBeGreaterThanOrEqual(bulkFile().length);
  });

  it('a file pushed short stops the call with an error naming it, and nothing of the chunk is compiled', () => {
    const emu = emulator({ files: { 'chunk-bulk.html': bulkFile().slice(0, -1) } });
    connect(emu, sb);
    expect(failure(emu, 'getBulkForm')).toMatch(
      new RegExp(
        `parte "bulk" do código \\(arquivo chunk-bulk\\.html do projeto\\): ela tem ${pt(bulkFile().length - 1).replace('.', '\\.')} caracteres e o pacote espera ${pt(bulkFile().length).replace('.', '\\.')} caracteres`,
      ),
    );
    expect(emu.history.at(-1)?.counters.compiledChars).toBeLessThan(INSTRUMENTATION);
  });

  it('a chunk whose code fails as it runs is never handed out half-loaded: each call fails, naming it', () => {
    const text = bulkFile();
    expect(text.endsWith('return __chunk.default;\n')).toBe(true);
    // The same length, so only running it can tell.
    const broken = `${text.slice(0, -'return __chunk.default;\n'.length)}throw new Error("meio")\n`;
    const emu = emulator({ files: { 'chunk-bulk.html': broken } });
    connect(emu, sb);
    expect(failure(emu, 'getBulkForm')).toMatch(/Não foi possível carregar a parte "bulk" do código \(arquivo chunk-bulk\.html do projeto\): meio/);
    expect(failure(emu, 'getBulkForm')).toMatch(/chunk-bulk\.html do projeto\): meio/);
  });

  it('a project pushed without its chunk files fails the call, naming the missing file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sem-partes-'));
    writeFileSync(join(dir, 'Code.js'), sourceBundleParts().code);
    writeFileSync(join(dir, 'appsscript.json'), JSON.stringify(builtManifest()));
    const emu = emulator({ codePath: join(dir, 'Code.js') });
    connect(emu, sb);
    expect(failure(emu, 'getBulkForm')).toMatch(
      /Não foi possível ler a parte "bulk" do código \(arquivo chunk-bulk\.html do projeto\): No HTML file named chunk-bulk was found/,
    );
  });

  it('the Diagnóstico checks every file against the build’s record: OK as built, FALHA naming a file changed in place', () => {
    const row = (emu: GasEmulator) => {
      emu.run('runDiagnostics');
      return (emu.values('Diagnóstico') as string[][]).find((r) => r[0].startsWith('As partes do código guardadas em arquivos HTML'));
    };
    const intact = emulator();
    connect(intact, sb);
    const files = Object.values(sourceBundleParts().files);
    const total = files.reduce((sum, t) => sum + t.length, 0);
    expect(row(intact)?.slice(1, 3)).toEqual([`${files.length} arquivos, ${pt(total)} caracteres, tamanho e SHA-256 iguais aos do pacote`, 'OK']);
    // One character changed, the length kept: only the hash tells.
    const text = bulkFile();
    const changed = emulator({ files: { 'chunk-bulk.html': `${text.slice(0, 1)}${text[1] === 'a' ? 'b' : 'a'}${text.slice(2)}` } });
    connect(changed, sb);
    expect(row(changed)?.slice(1, 3)).toEqual(['diferentes do que o pacote gravou (tamanho ou SHA-256): chunk-bulk.html', 'FALHA']);
  });
});
