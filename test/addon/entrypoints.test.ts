/**
 * Every global of the bundle can be called by name from any page of the add-on
 * (google.script.run), so each needs a caller: a menu item, Apps Script itself
 * (a trigger), or a sidebar through the contract (src/gas/sidebar-contract.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CODE_PATH, GasEmulator } from '../../dev/gas/runner';
import * as contract from '../../src/gas/sidebar-contract';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const clientDir = join(root, 'src/ui/client');
const dist = dirname(DEFAULT_CODE_PATH);
const entry = JSON.parse(readFileSync(join(dist, 'entrypoints.json'), 'utf8')) as { namespace: string; html: string[] };

/** Called by Apps Script by name: the simple triggers, and the hourly dispatcher (test/addon/schedule.test.ts pins its name). */
const TRIGGERS = ['onInstall', 'onOpen', 'runScheduledReports'];

/** Contract functions named in the sidebars' code as `server.name`, with the files that name them. */
function sidebarCalls(): Map<string, string[]> {
  const calls = new Map<string, string[]>();
  for (const file of readdirSync(clientDir).filter((f) => f.endsWith('.ts') && f !== 'rpc.ts')) {
    const source = readFileSync(join(clientDir, file), 'utf8');
    for (const [, name] of source.matchAll(/\bserver\s*\.\s*([A-Za-z_$][\w$]*)/g)) calls.set(name, [...(calls.get(name) ?? []), file]);
  }
  return calls;
}

describe('the entry points of the real bundle', () => {
  const emu = new GasEmulator();
  const { added, types } = emu.loadedGlobals();
  const globals = added.filter((name) => types[name] === 'function').sort();
  // The menu as the bundle's own onOpen builds it.
  emu.open();
  const menu = emu.menuItems().map((item) => item.functionName);
  const sidebar = Object.keys(contract).sort();
  const callers: Record<string, string[]> = { menu, trigger: TRIGGERS, sidebar };

  it('are only the menu handlers, the triggers and the sidebar contract', () => {
    const uncalled = globals.filter((name) => !Object.values(callers).some((names) => names.includes(name)));
    expect(uncalled, 'globals nothing calls (no menu item, trigger or sidebar contract function): drop them from src/main.ts').toEqual([]);
  });

  it('include every menu handler, trigger and contract function', () => {
    const missing = Object.entries(callers).flatMap(([caller, names]) => names.filter((n) => !globals.includes(n)).map((n) => `${n} (${caller})`));
    expect(missing, 'called by name but not a global of the bundle').toEqual([]);
  });

  it('leave no contract function uncalled by the sidebars', () => {
    const calls = sidebarCalls();
    expect(
      sidebar.filter((name) => !calls.has(name)),
      'contract functions no file of src/ui/client calls as server.name(...): drop them from src/gas/sidebar-contract.ts',
    ).toEqual([]);
    // A sanity check of the scan itself: the type-check already refuses names outside the contract.
    expect([...calls.keys()].filter((name) => !sidebar.includes(name))).toEqual([]);
  });

  it('are reached by the sidebars only through the typed wrapper', () => {
    const direct = readdirSync(clientDir).filter(
      (f) => f.endsWith('.ts') && f !== 'rpc.ts' && /google\s*\.\s*script\s*\.\s*run/.test(readFileSync(join(clientDir, f), 'utf8')),
    );
    expect(direct).toEqual([]);
  });
});

describe('the sidebars', () => {
  const uiDir = join(root, 'src/ui');
  const pages = readdirSync(uiDir).filter((f) => f.endsWith('.html'));

  // The contract is imported for its types only: a value import would put server code (and zod) in the page.
  it.each(pages)('%s bundles nothing from outside src/ui', async (page) => {
    const html = readFileSync(join(uiDir, page), 'utf8');
    const scripts = [...html.matchAll(/<script src="([^"]+\.ts)"><\/script>/g)].map(([, src]) => join(uiDir, src));
    expect(scripts.length).toBeGreaterThan(0);
    const out = await build({
      entryPoints: scripts,
      bundle: true,
      format: 'iife',
      write: false,
      metafile: true,
      outdir: dist,
      absWorkingDir: root,
      logLevel: 'silent',
    });
    // But the wording every message shares, which imports nothing (the layer check's one exception).
    expect(Object.keys(out.metafile.inputs).filter((input) => !input.startsWith('src/ui/') && input !== 'src/api/words.ts')).toEqual([]);
  });

  // Their type-check knows Apps Script's services (the contract's types come from server files): the pages must not use them.
  it.each(entry.html)('%s as built names no Apps Script service', (file) => {
    const html = readFileSync(join(dist, file), 'utf8');
    const services = [
      'SpreadsheetApp',
      'PropertiesService',
      'UrlFetchApp',
      'HtmlService',
      'ScriptApp',
      'LockService',
      'CacheService',
      'MailApp',
      'Session.',
      'Utilities.',
    ];
    expect(services.filter((name) => html.includes(name))).toEqual([]);
  });
});
