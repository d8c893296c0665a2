/**
 * An office of spreadsheets: several documents with their own editors and
 * triggers, writes buffered per execution until flush() or the end, quota days
 * per user starting at the first request, and test deployments whose
 * installable triggers never fire. Each rule was kinder before (one document,
 * writes at once, UTC days of this script alone, every trigger fired).
 */
import { describe, expect, it } from 'vitest';
import type { ServiceCall } from '../../dev/gas/execution';
import { NO_ACCESS_MESSAGE, NO_DOCUMENT_MESSAGE } from '../../dev/gas/office';
import { TRIGGER_QUOTA_MESSAGE } from '../../dev/gas/runner';
import { fixture } from './helpers';

const CODE = `
function nameOf(id) { return SpreadsheetApp.openById(id).getName(); }
function writeIn(id, value) { SpreadsheetApp.openById(id).getSheets()[0].getRange('A1').setValue(value); }
function readIn(id) { return SpreadsheetApp.openById(id).getSheets()[0].getRange('A1').getValue(); }
function activeName() { var ss = SpreadsheetApp.getActiveSpreadsheet(); return ss ? ss.getName() : null; }
function writeActive(cell, value, flush) {
  SpreadsheetApp.getActiveSheet().getRange(cell).setValue(value);
  if (flush) SpreadsheetApp.flush();
  return SpreadsheetApp.getActiveSheet().getRange(cell).getValue();
}
function readActive(cell) { return SpreadsheetApp.getActiveSheet().getRange(cell).getValue(); }
function install() { ScriptApp.newTrigger('tick').timeBased().everyHours(1).create(); }
function tick() {
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  PropertiesService.getUserProperties().setProperty('ticked:' + (ss ? ss.getId() : 'none'), 'yes');
}
function seed() { SpreadsheetApp.getActiveSheet().getRange('A1:B3').setValues([[3, 'c'], [1, 'a'], [2, 'b']]); }
function flushThenSort() {
  var sheet = SpreadsheetApp.getActiveSheet();
  sheet.getRange('D3').setValue('x');
  SpreadsheetApp.flush();
  sheet.getRange('A1:B3').sort(1);
  sheet.deleteRow(1);
}
function flushThenKilled() {
  var sheet = SpreadsheetApp.getActiveSheet();
  sheet.getRange('D1').setValue('x');
  SpreadsheetApp.flush();
  sheet.getRange('A2').setValue('never flushed');
  while (true) sheet.getRange('A1').getValue();
}
function fetchOnce(url) { return UrlFetchApp.fetch(url).getResponseCode(); }
function writeThenRead(cell) {
  var sheet = SpreadsheetApp.getActiveSheet();
  sheet.getRange('E1').setValue('start');
  return sheet.getRange(cell).getValue();
}
function metadataHeld() {
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  ss.getSheets()[0].addDeveloperMetadata('marca', 'um');
  SpreadsheetApp.flush();
  var found = ss.createDeveloperMetadataFinder().withKey('marca').find()[0];
  ss.getSheets()[0].getRange('E1').setValue('depois');
  ss.getName();
  ss.getName();
  return found.getLocation().getSheet().getName() + ':' + found.getValue();
}
function searchMetadata() { return SpreadsheetApp.getActiveSpreadsheet().createDeveloperMetadataFinder().withKey('x').find().length; }
`;

const ANA = 'ana@example.com.br';
const BIA = 'bia@example.com.br';

describe('an office of spreadsheets', () => {
  it('opens any document shared with the user by id, and refuses one taken away or deleted with Google’s words', () => {
    const emu = fixture(CODE, { user: ANA });
    emu.addSpreadsheet({ id: 'cliente-a', name: 'Cliente A', editors: [ANA] });
    emu.addSpreadsheet({ id: 'cliente-b', name: 'Cliente B', editors: [BIA] });
    expect(emu.run('nameOf', ['cliente-a'])).toBe('Cliente A');
    expect(() => emu.run('nameOf', ['cliente-b'])).toThrow(NO_ACCESS_MESSAGE);
    expect(emu.run('nameOf', ['cliente-b'], { user: BIA })).toBe('Cliente B');
    emu.share('cliente-a', ANA, false);
    expect(() => emu.run('nameOf', ['cliente-a'])).toThrow(NO_ACCESS_MESSAGE);
    emu.deleteSpreadsheet('cliente-b');
    expect(() => emu.run('nameOf', ['cliente-b'], { user: BIA })).toThrow(NO_DOCUMENT_MESSAGE);
    // A document open to anyone, taken away from one user: still open to the others, and again to them once shared.
    emu.addSpreadsheet({ id: 'aberta', name: 'Aberta' });
    emu.share('aberta', ANA, false);
    expect(() => emu.run('nameOf', ['aberta'])).toThrow(NO_ACCESS_MESSAGE);
    expect(emu.run('nameOf', ['aberta'], { user: BIA })).toBe('Aberta');
    emu.share('aberta', ANA);
    expect(emu.run('nameOf', ['aberta'])).toBe('Aberta');
  });

  it('keeps each document’s cells apart, and runs an execution in the document it names', () => {
    const emu = fixture(CODE);
    emu.addSpreadsheet({ id: 'cliente-a', name: 'Cliente A' });
    emu.run('writeIn', ['cliente-a', 'a']);
    emu.run('writeActive', ['A1', 'first', false]);
    expect(emu.values('Página1', 'A1', 'cliente-a')).toEqual([['a']]);
    expect(emu.values('Página1', 'A1')).toEqual([['first']]);
    expect(emu.run('activeName', [], { documentId: 'cliente-a' })).toBe('Cliente A');
  });

  it('fires each user’s trigger in the document it was created in, as that user', () => {
    const emu = fixture(CODE);
    emu.addSpreadsheet({ id: 'cliente-a', name: 'Cliente A', editors: [ANA] });
    emu.run('install', [], { user: ANA, documentId: 'cliente-a' });
    emu.run('install', [], { user: BIA });
    emu.runDueTriggers(new Date(emu.now + 3_600_000));
    expect(emu.properties.userStore(ANA).get('ticked:cliente-a')).toBe('yes');
    expect(emu.properties.userStore(BIA).get(`ticked:${emu.spreadsheet.id}`)).toBe('yes');
    // Ana loses the document: her trigger there runs without it.
    emu.share('cliente-a', ANA, false);
    emu.runDueTriggers(new Date(emu.now + 3_600_000));
    expect(emu.properties.userStore(ANA).get('ticked:none')).toBe('yes');
  });
});

describe('writes buffered per execution', () => {
  /** Runs `run` as another execution, from inside the first, at its first service call after the call `after`. */
  const during = (run: () => unknown, after = 'setValue') => {
    let seen: unknown = 'not run';
    let passed = false;
    const onServiceCall = (call: ServiceCall) => {
      if (passed && seen === 'not run') seen = run();
      if (call.method === after) passed = true;
    };
    return { onServiceCall, seen: () => seen };
  };

  it('an execution sees its own writes at once; others only after its flush() or its end', () => {
    const emu = fixture(CODE);
    const unflushed = during(() => emu.run('readActive', ['B2']));
    expect(emu.run('writeActive', ['B2', 'mine', false], { onServiceCall: unflushed.onServiceCall })).toBe('mine');
    expect(unflushed.seen()).toBe('');
    expect(emu.values('Página1', 'B2')).toEqual([['mine']]);

    const flushed = during(() => emu.run('readActive', ['B3']), 'flush');
    emu.run('writeActive', ['B3', 'flushed', true], { onServiceCall: flushed.onServiceCall });
    expect(flushed.seen()).toBe('flushed');
  });

  it('rows moved after a flush move once: the document ends as the execution left it', () => {
    const emu = fixture(CODE);
    emu.run('seed');
    emu.run('flushThenSort');
    expect(emu.values('Página1', 'A1:B3')).toEqual([
      [2, 'b'],
      [3, 'c'],
      ['', ''],
    ]);
    expect(emu.values('Página1', 'D1:D3')).toEqual([[''], ['x'], ['']]);
  });

  it('after a flush, later writes are buffered again: a kill that lands none of them loses them, and only them', () => {
    // How much of the unflushed writes a kill lands is torn-writes.test.ts's subject: here none does.
    const emu = fixture(CODE, { budgetMs: 60_000, kill: { landed: 'none' } });
    emu.run('seed');
    expect(emu.execute('flushThenKilled').status).toBe('killed');
    expect(emu.values('Página1', 'A1:A3')).toEqual([[3], [1], [2]]);
    expect(emu.values('Página1', 'D1')).toEqual([['x']]);
  });

  it('an execution sees what another one ended with meanwhile at its next call on the spreadsheet', () => {
    const emu = fixture(CODE);
    const other = during(() => emu.run('writeActive', ['E2', 'other', false]));
    expect(emu.run('writeThenRead', ['E2'], { onServiceCall: other.onServiceCall })).toBe('other');
  });

  it('developer metadata an execution found stays its own after it sees what another one ended with', () => {
    const emu = fixture(CODE);
    const other = during(() => emu.run('writeActive', ['C3', 'other', false]));
    expect(emu.run('metadataHeld', [], { onServiceCall: other.onServiceCall })).toBe('Página1:um');
    expect(other.seen()).toBe('other');
  });

  it('two executions writing different cells of one sheet both keep theirs', () => {
    const emu = fixture(CODE);
    const inner = during(() => emu.run('writeActive', ['C1', 'second', false]));
    emu.run('writeActive', ['C2', 'first', false], { onServiceCall: inner.onServiceCall });
    expect(inner.seen()).toBe('second');
    expect(emu.values('Página1', 'C1:C2')).toEqual([['second'], ['first']]);
  });
});

describe('what a call costs', () => {
  it('writes still pending when an execution ends are applied at a flush’s cost', () => {
    const emu = fixture(CODE);
    const costs = { spreadsheetCallMs: 0, cellWriteMs: 0, cellReadMs: 0, formatCellMs: 0, otherCallMs: 0, propertyCallMs: 0, flushMs: 400, startupMs: 0 };
    expect(emu.execute('writeActive', ['F1', 'pendente', false], { costs }).counters.virtualMs).toBe(400);
    expect(emu.execute('writeActive', ['F2', 'aplicada', true], { costs }).counters.virtualMs).toBe(400);
    expect(emu.execute('readActive', ['F1'], { costs }).counters.virtualMs).toBe(0);
  });

  it('a search of the developer metadata is a round trip to the spreadsheet', () => {
    const emu = fixture(CODE);
    const report = emu.execute('searchMetadata', [], { costs: { spreadsheetCallMs: 50, otherCallMs: 10 } });
    // SpreadsheetApp.getActiveSpreadsheet, Spreadsheet.createDeveloperMetadataFinder and the search itself.
    expect(report.counters.spreadsheetCalls).toBe(3);
  });
});

describe('quota days and deployments', () => {
  it('counts a quota day per user across their scripts, from the first request, not from midnight', () => {
    const emu = fixture(CODE, { startAt: new Date('2026-03-02T20:00:00Z') });
    emu.otherScripts(ANA, { triggerMinutes: 90 });
    emu.run('install', [], { user: ANA });
    const [spent] = emu.runDueTriggers(new Date('2026-03-02T21:05:00Z'));
    expect(spent.error?.message).toBe(TRIGGER_QUOTA_MESSAGE);
    // Past midnight UTC the other scripts' day still runs (it began at 20:00).
    const [afterMidnight] = emu.runDueTriggers(new Date('2026-03-03T03:00:00Z'));
    expect(afterMidnight.error?.message).toBe(TRIGGER_QUOTA_MESSAGE);
    emu.runDueTriggers(new Date('2026-03-03T19:00:00Z'));
    // The slot at 20:00 on the 3rd opens a new quota day.
    const [nextDay] = emu.runDueTriggers(new Date('2026-03-03T21:05:00Z'));
    expect(nextDay.status).toBe('ok');
  });

  it('runs no installable trigger in a test deployment', () => {
    const emu = fixture(CODE, { deployment: 'test' });
    emu.run('install');
    expect(emu.triggers.triggers).toHaveLength(1);
    expect(emu.runDueTriggers(new Date(emu.now + 5 * 3_600_000))).toEqual([]);
  });
});
