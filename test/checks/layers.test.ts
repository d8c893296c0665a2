import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { APPS_SCRIPT_GLOBALS, checkLayers, findImports, formatViolation, readTree } from '../../dev/checks/layers';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A small tree that follows every rule, with the traps a naive check falls into. */
const CLEAN: Record<string, string> = {
  'src/main.ts': `export { onOpen } from './gas/menu';\nexport type Sheet = GoogleAppsScript.Spreadsheet.Sheet;\n`,
  'src/gas/menu.ts': [
    `import { tableSpec } from '../core/table';`,
    `import { listing } from '../api/operations';`,
    `export function onOpen(e: GoogleAppsScript.Events.SheetsOnOpen): void {`,
    `  SpreadsheetApp.getUi().createAddonMenu().addToUi();`,
    `  SpreadsheetApp.flush();`,
    `  tableSpec(listing('faturas'), e);`,
    `}`,
  ].join('\n'),
  'src/api/operations.ts': `import * as z from 'zod';\nimport { parse } from './fields';\nexport const listing = (k: string) => ({ k, z, parse });\n`,
  'src/api/fields.ts': `export const parse = (s: string) => s;\n`,
  'src/api/words.ts': `/** Imports nothing: a sidebar may take it as a value. */\nexport const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);\n`,
  'src/core/table.ts': [
    `/** Never SpreadsheetApp.flush() here: the port batches writes (UrlFetchApp.fetchAll is the transport's). */`,
    `import type { ListingKey } from '../api/operations';`,
    `import { listing } from '../api/operations';`,
    `// import { menu } from '../gas/menu';`,
    `const hint = 'SpreadsheetApp.flush() and import("../gas/menu") are only text here';`,
    `const re = /SpreadsheetApp\\.flush\\(\\)|'/g;`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a fixture
    'const tpl = `${hint} ${re.source} ${`Utilities.sleep(1)`}`;',
    `export function tableSpec(l: unknown, ctx: { Session: number; Logger?: unknown }): string {`,
    `  const Session = { user: () => 'x' };`,
    `  const o = { SpreadsheetApp: 1, Utilities: 2 };`,
    `  return [Session.user(), ctx.Session, o.SpreadsheetApp, tpl, listing, l].join();`,
    `}`,
    `export type Key = ListingKey;`,
  ].join('\n'),
  'src/ui/client/relatorios.ts': [
    `import type { ReportView } from '../../core/reports';`,
    `import { type Schedule, type RunProgress } from '../../core/schedule';`,
    `export type { Schedule } from '../../core/schedule';`,
    `type Progress = import('../../core/report-runs').RunProgress;`,
    `import { el } from './dom';`,
    `export function render(v: ReportView, s: Schedule, p: RunProgress, q: Progress): void { el(String([v, s, p, q])); }`,
  ].join('\n'),
  'src/ui/client/dom.ts': `export const el = (s: string) => document.createElement(s);\n`,
  'dev/sandbox/server.ts': `import http from 'node:http';\nimport { Rng } from './rng.js';\nexport const s = [http, Rng];\n`,
  'dev/sandbox/rng.ts': `export class Rng {}\n`,
  // Outside the rule's scope: tools and tests may use anything.
  'dev/gas/spreadsheet-app.ts': `import { tableSpec } from '../../src/core/table';\nexport const x = [SpreadsheetApp, tableSpec];\n`,
  'test/core/table.test.ts': `import { tableSpec } from '../../src/core/table';\nUrlFetchApp.fetch('x');\nexport { tableSpec };\n`,
};

function check(extra: Record<string, string>): string[] {
  return checkLayers(new Map(Object.entries({ ...CLEAN, ...extra }))).map(formatViolation);
}

describe('layer check', () => {
  it('passes a clean tree (comments, strings, regexes, property names, locals and types are not references)', () => {
    expect(check({})).toEqual([]);
  });

  it('finds an Apps Script call in src/core, on its line', () => {
    const out = check({
      'src/core/flush.ts': `import type { X } from '../api/x';\n\nexport function done(x: X): X {\n  SpreadsheetApp.flush();\n  return x;\n}\n`,
    });
    expect(out).toEqual([
      'src/core/flush.ts:4: SpreadsheetApp is an Apps Script service: only src/gas may use it (the rest of src/ reaches Apps Script through the ports src/gas implements)',
    ]);
  });

  it('finds every way of reaching a service outside src/gas', () => {
    const out = check({
      'src/api/http.ts': [
        `export function get(url: string): string {`,
        `  const r = UrlFetchApp`,
        `    .fetch(url);`,
        `  if (typeof Utilities !== 'undefined') Utilities.sleep(1);`,
        `  const services = { PropertiesService };`,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a fixture
        '  return `${r.getContentText()} ${Session.getActiveUser()}` + String(services);',
        `}`,
      ].join('\n'),
      'src/ui/client/lote.ts': `export const u = () => ScriptApp.getOAuthToken();\n`,
    });
    expect(out.map((line) => line.replace(/ is an Apps Script service.*/, ''))).toEqual([
      'src/api/http.ts:2: UrlFetchApp',
      'src/api/http.ts:4: Utilities',
      'src/api/http.ts:5: PropertiesService',
      'src/api/http.ts:6: Session',
      'src/ui/client/lote.ts:1: ScriptApp',
    ]);
  });

  it('refuses GoogleAppsScript as a value anywhere, and its types outside src/gas and src/main.ts', () => {
    const out = check({
      'src/gas/borders.ts': `export const style = GoogleAppsScript.Spreadsheet.BorderStyle.DOTTED;\nexport type S = GoogleAppsScript.Spreadsheet.Sheet;\n`,
      'src/core/sheet.ts': `export function rows(\n  sheet: GoogleAppsScript.Spreadsheet.Sheet,\n): number {\n  return sheet.getLastRow();\n}\n`,
    });
    expect(out).toEqual([
      'src/core/sheet.ts:2: GoogleAppsScript types belong to src/gas and src/main.ts: the rest of src/ describes what it needs from Apps Script in its own ports',
      'src/gas/borders.ts:1: GoogleAppsScript used as a value: it is a type namespace of @types/google-apps-script and does not exist at run time',
    ]);
  });

  it('finds an import of src/core in src/api, types included', () => {
    const out = check({
      'src/api/calendar.ts': `import { zoneOf } from '../core/calendar';\nimport type { Zone } from '../core/calendar';\nexport const z: Zone = zoneOf();\n`,
      'src/api/records.ts': `export * from '../gas/services';\nexport const ui = () => import('../ui/client/dom');\n`,
    });
    expect(out).toEqual([
      "src/api/calendar.ts:1: imports '../core/calendar' (src/core/calendar): src/api imports nothing from src/core, src/gas, src/ui or src/main.ts",
      "src/api/calendar.ts:2: imports '../core/calendar' (src/core/calendar) (types only): src/api imports nothing from src/core, src/gas, src/ui or src/main.ts",
      "src/api/records.ts:1: imports '../gas/services' (src/gas/services): src/api imports nothing from src/core, src/gas, src/ui or src/main.ts",
      "src/api/records.ts:2: imports '../ui/client/dom' (src/ui/client/dom): src/api imports nothing from src/core, src/gas, src/ui or src/main.ts",
    ]);
  });

  it('finds an import of src/gas (or src/ui, or the entry file) in src/core', () => {
    const out = check({
      'src/core/bulk/job.ts': [
        `import {`,
        `  lock,`,
        `  type Lock,`,
        `} from '../../gas/lock';`,
        `import type { Page } from '../../ui/client/dom';`,
        `export { onOpen } from '../../main';`,
        `export const l: Lock | Page = lock;`,
      ].join('\n'),
    });
    expect(out).toEqual([
      "src/core/bulk/job.ts:4: imports '../../gas/lock' (src/gas/lock): src/core imports nothing from src/gas, src/ui or src/main.ts",
      "src/core/bulk/job.ts:5: imports '../../ui/client/dom' (src/ui/client/dom) (types only): src/core imports nothing from src/gas, src/ui or src/main.ts",
      "src/core/bulk/job.ts:6: imports '../../main' (src/main): src/core imports nothing from src/gas, src/ui or src/main.ts",
    ]);
  });

  it("finds src/core reaching the client's http, and leaves comments, strings and other names alone", () => {
    expect(
      check({
        'src/core/pull.ts': [
          `// client.http.deadline was how it was done`,
          `const note = 'client.http.sendAll';`,
          `export function step(c: { http: { deadline?: number }; withLimit(n: number): void }, http: number) {`,
          `  c.withLimit(http);`,
          `  c.http.deadline = 1;`,
          `}`,
        ].join('\n'),
      }),
    ).toEqual(["src/core/pull.ts:5: src/core reaches the billing service only through the client's own methods (withLimit, lookupEach, …), never its `http`"]);
  });

  it('finds an import cycle in src/core, type imports included, once, at the import that starts it', () => {
    const found = check({
      'src/core/a.ts': `import type { B } from './b';\nexport type A = { b?: B };\n`,
      'src/core/b.ts': `import { c } from './sub/c';\nexport type B = number;\nexport const b = c;\n`,
      'src/core/sub/c.ts': `import type { A } from '../a';\nexport const c = 1 as unknown as A;\n`,
      'src/core/self.ts': `import { x } from './self';\nexport const x = 1;\nexport const y = x;\n`,
      'src/core/leaf.ts': `import type { A } from './a';\nexport type L = A;\n`,
    });
    expect(found).toEqual([
      'src/core/a.ts:1: import cycle in src/core (types included): src/core/a.ts → src/core/b.ts → src/core/sub/c.ts → src/core/a.ts; the shared part belongs in a room both import, or one side takes what it needs structurally',
      'src/core/self.ts:1: import cycle in src/core (types included): src/core/self.ts → src/core/self.ts; the shared part belongs in a room both import, or one side takes what it needs structurally',
    ]);
  });

  it('finds a value import from outside src/ui in a sidebar, and lets types through', () => {
    const out = check({
      'src/ui/client/importar.ts': [
        `import type { ImportSpec } from '../../core/import-job';`,
        `import { childSheetName, type ImportState } from '../../core/import-job';`,
        `import '../../gas/ui';`,
        `export const later = () => import('../../api/filters');`,
        `export const n = (s: ImportSpec, st: ImportState) => childSheetName(s, st);`,
        // The shared wording imports nothing: a value a sidebar may take from outside src/ui.
        `import { plural } from '../../api/words';`,
        `export const w = plural(1, 'linha', 'linhas');`,
      ].join('\n'),
    });
    const rule = 'src/ui/client imports only types from outside src/ui (a value import drags server code into the sidebar); use `import type`';
    expect(out).toEqual([
      `src/ui/client/importar.ts:2: imports '../../core/import-job' (src/core/import-job): ${rule}`,
      `src/ui/client/importar.ts:3: imports '../../gas/ui' (src/gas/ui): ${rule}`,
      `src/ui/client/importar.ts:4: imports '../../api/filters' (src/api/filters): ${rule}`,
    ]);
  });

  it('lets a sidebar take as a value only a module that imports nothing, outside src/gas and src/main.ts', () => {
    const rule = 'src/ui/client imports only types from outside src/ui (a value import drags server code into the sidebar); use `import type`';
    const out = check({
      // Once the wording imports something, it would drag that into every sidebar.
      'src/api/words.ts': `import { parse } from './fields';\nexport const plural = (n: number) => parse(String(n));\n`,
      'src/gas/leaf.ts': `export const token = () => ScriptApp.getOAuthToken();\n`,
      'src/core/leaf.ts': `// import { x } from './y';\nexport const twice = (n: number) => 2 * n;\n`,
      'src/ui/client/paineis.ts': [
        `import { plural } from '../../api/words';`,
        `import { token } from '../../gas/leaf';`,
        `import { twice } from '../../core/leaf.js';`,
        `import { missing } from '../../api/missing';`,
        `export const p = [plural, token, twice, missing];`,
      ].join('\n'),
    });
    expect(out).toEqual([
      `src/ui/client/paineis.ts:1: imports '../../api/words' (src/api/words): ${rule}`,
      `src/ui/client/paineis.ts:2: imports '../../gas/leaf' (src/gas/leaf): ${rule}`,
      `src/ui/client/paineis.ts:4: imports '../../api/missing' (src/api/missing): ${rule}`,
    ]);
  });

  it('finds an import of src/ in dev/sandbox, and of dev/ or test/ in src/', () => {
    const out = check({
      'dev/sandbox/routes/faturas.ts': `import { listing } from '../../../src/api/operations';\nimport type { Zone } from '../../../src/api/calendar';\nexport const f = listing;\n`,
      'src/core/reports.ts': `import { fixture } from '../../test/bulk/fixtures';\nexport const r = fixture;\n`,
    });
    expect(out).toEqual([
      "dev/sandbox/routes/faturas.ts:1: imports '../../../src/api/operations' (src/api/operations): dev/sandbox imports nothing from src/ (it is an independent reading of the spec)",
      "dev/sandbox/routes/faturas.ts:2: imports '../../../src/api/calendar' (src/api/calendar) (types only): dev/sandbox imports nothing from src/ (it is an independent reading of the spec)",
      "src/core/reports.ts:1: imports '../../test/bulk/fixtures' (test/bulk/fixtures): src/ imports nothing from outside src/ (tests and tools never ship)",
    ]);
  });

  it('reports a file it cannot parse', () => {
    expect(check({ 'src/core/broken.ts': `export const a = ;\n` })).toEqual(['src/core/broken.ts:1: cannot parse: Unexpected ";"']);
  });

  it('reads every import form', () => {
    const source = [
      `import a from './a';`,
      `import * as b from './b';`,
      `import c, { d, type E } from './c';`,
      `import type F from './f';`,
      `import type { G } from './g';`,
      `import { type H, type I as J } from './h';`,
      `import type from './type-default';`,
      `import './side-effect';`,
      `import k = require('./k');`,
      `import type L = require('./l');`,
      `export * from './m';`,
      `export * as n from './n';`,
      `export { o, type P } from './o';`,
      `export type { Q } from './q';`,
      `export type * from './r';`,
      `export { local };`,
      `const s = await import('./s');`,
      `const t = require('./t');`,
      `const u = import.meta.url + x.import('./not') + y.require('./not');`,
      `// import v from './comment';`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a fixture
      "const w = `import x from './template' ${`nested ${import('./in-template')}`}`;",
      `const re = /import y from '.\\/regex'/;`,
    ].join('\n');
    expect(findImports(source).map((r) => `${r.line} ${r.specifier}${r.typeOnly ? ' type' : ''}${r.dynamic ? ' dynamic' : ''}`)).toEqual([
      '1 ./a',
      '2 ./b',
      '3 ./c',
      '4 ./f type',
      '5 ./g type',
      '6 ./h type',
      '7 ./type-default',
      '8 ./side-effect',
      '9 ./k',
      '10 ./l type',
      '11 ./m',
      '12 ./n',
      '13 ./o',
      '14 ./q type',
      '15 ./r type',
      '17 ./s dynamic',
      '18 ./t',
      '21 ./in-template dynamic',
    ]);
  });

  it('knows every global that @types/google-apps-script declares', () => {
    const dir = join(repoRoot, 'node_modules/@types/google-apps-script');
    const declared = readdirSync(dir)
      .filter((f) => f.endsWith('.d.ts'))
      .flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/^declare (?:var|const|let) (\w+)/gm)].map((m) => m[1]));
    // console is standard JavaScript; Date2 is an internal of the typings.
    const services = declared.filter((name) => name !== 'console' && name !== 'Date2');
    expect(services.length).toBeGreaterThan(30);
    expect(services.filter((name) => !APPS_SCRIPT_GLOBALS.includes(name))).toEqual([]);
  });

  it('passes on this repository', () => {
    expect(checkLayers(readTree(repoRoot)).map(formatViolation)).toEqual([]);
  });

  describe('command line', () => {
    const dirs: string[] = [];
    afterAll(() => {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    function run(files: Record<string, string>): { status: number | null; stdout: string } {
      const dir = mkdtempSync(join(tmpdir(), 'layers-'));
      dirs.push(dir);
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      const r = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'dev/checks/layers.ts'), dir], { cwd: repoRoot, encoding: 'utf8' });
      return { status: r.status, stdout: r.stdout };
    }

    it('prints file:line: message per violation and exits 1', () => {
      const r = run({ ...CLEAN, 'src/core/flush.ts': `export function done(): void {\n  SpreadsheetApp.flush();\n}\n` });
      expect(r.stdout).toBe(
        'src/core/flush.ts:2: SpreadsheetApp is an Apps Script service: only src/gas may use it (the rest of src/ reaches Apps Script through the ports src/gas implements)\n' +
          'layers: 1 violation(s) in 1 file(s)\n',
      );
      expect(r.status).toBe(1);
    });

    it('exits 0 on a clean tree', () => {
      const r = run(CLEAN);
      expect(r.stdout).toMatch(/^layers: ok \(\d+ files\)\n$/);
      expect(r.status).toBe(0);
    });
  });
});
