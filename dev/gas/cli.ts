/**
 * npm run gas -- <function> [jsonArgs] [options]
 *
 * Opens the document (onOpen), runs <function> against the real dist/Code.js
 * and prints the sheets, menus, dialogs, logs and counters that result.
 *
 * Options:
 *   --auth NONE|LIMITED|FULL   auth mode of the run (default FULL)
 *   --no-open                  skip onOpen before the run
 *   --seed <file.json>         { "sheets": { "<name>": [[...]] }, "properties": { "user"|"document"|"script": {..} } }
 *   --select <Sheet>!<A1>      what the user has selected
 *   --answer <json>            a scripted alert/prompt answer, e.g. '{"button":"OK","text":"abc"}' (repeatable)
 *   --triggers <ISO time>      afterwards, fire the time-driven triggers due by then
 *   --budget <ms>              execution time limit (default 360000)
 */
import { readFileSync } from 'node:fs';
import type { AuthModeName } from './auth';
import { GasEmulator, type ExecutionReport } from './runner';
import type { MenuEntry } from './ui';
import { LOCAL_TEST_SERVERS } from './allow-list';

function parse(argv: string[]) {
  const positional: string[] = [];
  const opts: { auth: AuthModeName; open: boolean; seed?: string; select?: string; answers: unknown[]; triggers?: string; budget?: number } = {
    auth: 'FULL',
    open: true,
    answers: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--auth') opts.auth = argv[++i] as AuthModeName;
    else if (a === '--no-open') opts.open = false;
    else if (a === '--seed') opts.seed = argv[++i];
    else if (a === '--select') opts.select = argv[++i];
    else if (a === '--answer') opts.answers.push(JSON.parse(argv[++i]));
    else if (a === '--triggers') opts.triggers = argv[++i];
    else if (a === '--budget') opts.budget = Number(argv[++i]);
    else positional.push(a);
  }
  return { fn: positional[0], args: positional[1] ? (JSON.parse(positional[1]) as unknown[]) : [], opts };
}

function printReport(r: ExecutionReport): void {
  console.log(`\n== ${r.functionName} [${r.kind}, ${r.authMode}, ${r.user}] -> ${r.status}`);
  if (r.error) console.log(`   error: ${r.error.message}`);
  if (r.value !== undefined) console.log(`   value: ${JSON.stringify(r.value, null, 2).split('\n').join('\n   ')}`);
  const c = r.counters;
  console.log(
    `   ${c.virtualMs.toFixed(0)} virtual ms, ${c.spreadsheetCalls} spreadsheet calls, ${c.cellsWritten} cells written, ` +
      `${c.urlFetchRequests} fetches in ${c.urlFetchWaves} waves, ${c.propertyReads}/${c.propertyWrites} property reads/writes`,
  );
  for (const l of r.logs) console.log(`   [${l.source}.${l.level}] ${l.message}`);
}

function printMenu(items: MenuEntry[], indent: string): void {
  for (const item of items) {
    if (item.kind === 'separator') console.log(`${indent}----`);
    else if (item.kind === 'item') console.log(`${indent}${item.caption} -> ${item.functionName}()`);
    else {
      console.log(`${indent}${item.caption} >`);
      printMenu(item.items, `${indent}  `);
    }
  }
}

function main(): void {
  const { fn, args, opts } = parse(process.argv.slice(2));
  if (!fn) {
    console.error('usage: npm run gas -- <function> [jsonArgs] [--auth MODE] [--no-open] [--seed file] [--select Sheet!A1] [--answer json] [--triggers ISO]');
    process.exit(2);
  }
  const emu = new GasEmulator({ budgetMs: opts.budget, urlFetchWhitelist: LOCAL_TEST_SERVERS });
  if (opts.seed) {
    const seed = JSON.parse(readFileSync(opts.seed, 'utf8')) as {
      sheets?: Record<string, unknown[][]>;
      properties?: Partial<Record<'user' | 'document' | 'script', Record<string, string>>>;
    };
    emu.withServices(({ SpreadsheetApp, PropertiesService }) => {
      const ss = SpreadsheetApp.getActiveSpreadsheet();
      for (const [name, rows] of Object.entries(seed.sheets ?? {})) {
        const sheet = ss.getSheetByName(name) ?? ss.insertSheet(name);
        const width = Math.max(...rows.map((r) => r.length));
        if (rows.length) sheet.getRange(1, 1, rows.length, width).setValues(rows.map((r) => [...r, ...Array(width - r.length).fill('')]));
      }
      const p: Partial<Record<'user' | 'document' | 'script', Record<string, string>>> = seed.properties ?? {};
      if (p.user) PropertiesService.getUserProperties().setProperties(p.user);
      if (p.document) PropertiesService.getDocumentProperties().setProperties(p.document);
      if (p.script) PropertiesService.getScriptProperties().setProperties(p.script);
    });
  }
  if (opts.select) {
    const [sheet, ...ranges] = opts.select.split(/[!,]/);
    emu.select(sheet, ...ranges);
  }
  emu.answer(...(opts.answers as Parameters<GasEmulator['answer']>));
  if (opts.open) printReport(emu.open(opts.auth === 'FULL' ? 'LIMITED' : opts.auth));
  if (fn !== 'onOpen') printReport(emu.execute(fn, args, { authMode: opts.auth }));
  if (opts.triggers) for (const r of emu.runDueTriggers(new Date(opts.triggers))) printReport(r);

  const globals = new Set(emu.loadedGlobals().added);
  console.log('\n== menus');
  for (const m of emu.ui.menus) {
    console.log(`${m.addon ? 'Extensions > ' : ''}${m.caption}`);
    printMenu(m.items, '  ');
  }
  for (const item of emu.menuItems()) {
    if (!globals.has(item.functionName))
      console.log(`  !! menu item "${item.path.join(' > ')}" calls ${item.functionName}(), which the bundle does not define`);
  }
  if (emu.ui.dialogs.length) console.log('\n== dialogs');
  for (const d of emu.ui.dialogs) console.log(`${d.kind} "${d.title}" ${d.width}x${d.height}, ${d.html.length} chars of HTML`);
  if (emu.spreadsheet.toasts.length) console.log('\n== toasts');
  for (const t of emu.spreadsheet.toasts) console.log(`${t.title}: ${t.message}`);
  console.log('\n== sheets');
  for (const name of emu.sheetNames()) {
    const rows = emu.displayValues(name);
    const shown = rows.slice(0, 20).map((r) => r.join(' | '));
    console.log(`-- ${name} (${rows.length} rows with data)`);
    for (const line of shown) console.log(`   ${line}`);
    if (rows.length > 20) console.log(`   ... ${rows.length - 20} more rows`);
  }
  if (emu.triggers.triggers.length) console.log('\n== triggers');
  for (const t of emu.triggers.triggers)
    console.log(`${t.handler} for ${t.owner}, next run ${Number.isFinite(t.nextRun) ? new Date(t.nextRun).toISOString() : 'never (fired one-shot)'}`);
  if (emu.mail.length) console.log(`\n== mail: ${emu.mail.length} recorded`);
}

main();
