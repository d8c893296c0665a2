/**
 * Several editors of one document: each with their own user properties and
 * their own trigger that runs as its creator, at its own minute within the
 * hour; document properties and the document lock shared. And time-driven
 * triggers run without the document as their active spreadsheet.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GasEmulator, ownMinute } from '../../dev/gas/runner';
import { fixture } from './helpers';

const CODE = `
function remember(v) {
  PropertiesService.getUserProperties().setProperty('v', v);
  PropertiesService.getDocumentProperties().setProperty('last', v);
  ScriptApp.newTrigger('tick').timeBased().everyHours(1).create();
}
function tick() {
  var me = Session.getEffectiveUser().getEmail();
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  var doc = PropertiesService.getDocumentProperties();
  var lock = LockService.getDocumentLock();
  var opened = SpreadsheetApp.openById('${'doc-1'}');
  var log = JSON.parse(PropertiesService.getScriptProperties().getProperty('log') || '[]');
  log.push({ me: me, v: PropertiesService.getUserProperties().getProperty('v'), active: ss !== null, doc: doc !== null, lock: lock !== null,
    opened: opened.getName(), minute: new Date().getMinutes(), triggers: ScriptApp.getUserTriggers(opened).length });
  PropertiesService.getScriptProperties().setProperty('log', JSON.stringify(log));
}
function readLog() { return JSON.parse(PropertiesService.getScriptProperties().getProperty('log') || '[]'); }
`;

const HOUR = 3_600_000;

function twoEditors(options: ConstructorParameters<typeof GasEmulator>[0] = {}) {
  const emu = fixture(CODE, {
    spreadsheet: { id: 'doc-1', name: 'Escritório' },
    startAt: new Date('2026-11-22T10:00:00-03:00'),
    triggerMinuteSeed: 7,
    ...options,
  });
  emu.run('remember', ['da Ana'], { user: 'ana@example.com.br' });
  emu.run('remember', ['do Bruno'], { user: 'bruno@example.com.br' });
  return emu;
}

type Entry = { me: string; v: string; active: boolean; doc: boolean; lock: boolean; opened: string; minute: number; triggers: number };

describe('a document shared by several editors', () => {
  it('runs each trigger as its creator, with that creator’s properties, at its own seeded minute', () => {
    const emu = twoEditors();
    expect(emu.properties.documentStore('doc-1').get('last')).toBe('do Bruno');
    const start = emu.now;
    emu.runDueTriggers(new Date(start + HOUR + 59 * 60_000));
    emu.runDueTriggers(new Date(start + 2 * HOUR + 59 * 60_000));
    const log = emu.run('readLog') as Entry[];
    for (const e of log) expect(e.v).toBe(e.me.startsWith('ana') ? 'da Ana' : 'do Bruno');
    // Two hours, two triggers: each fired twice, always at its own minute.
    const minutes = Object.fromEntries(emu.triggers.triggers.map((t) => [t.owner, ownMinute(7, t.id)]));
    expect(log).toHaveLength(4);
    for (const e of log) expect(e.minute).toBe(minutes[e.me]);
    expect(new Set(Object.values(minutes)).size).toBe(2);
    // Each sees only their own trigger.
    expect(log.every((e) => e.triggers === 1 && e.active && e.doc && e.lock)).toBe(true);
  });

  it('fires in the order of the minutes Google picked, whoever created first', () => {
    const emu = twoEditors();
    const first = [...emu.triggers.triggers].sort((a, b) => ownMinute(7, a.id) - ownMinute(7, b.id))[0].owner;
    emu.runDueTriggers(new Date(emu.now + HOUR + 59 * 60_000));
    expect((emu.run('readLog') as Entry[])[0].me).toBe(first);
  });

  it('can fire time-driven triggers without the document: no active spreadsheet, no document properties, no document lock; openById works', () => {
    const emu = twoEditors({ triggerDocumentContext: false });
    emu.runDueTriggers(new Date(emu.now + HOUR + 59 * 60_000));
    const log = emu.run('readLog') as Entry[];
    expect(log).toHaveLength(2);
    for (const e of log) expect(e).toMatchObject({ active: false, doc: false, lock: false, opened: 'Escritório', triggers: 1 });
  });

  it('refuses openById when the manifest only grants spreadsheets.currentonly', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gas-manifest-'));
    writeFileSync(join(dir, 'Code.js'), CODE);
    const manifest = { timeZone: 'America/Sao_Paulo', oauthScopes: ['https://www.googleapis.com/auth/spreadsheets.currentonly'] };
    writeFileSync(join(dir, 'appsscript.json'), JSON.stringify(manifest));
    const emu = new GasEmulator({ codePath: join(dir, 'Code.js'), countRealTime: false, spreadsheet: { id: 'doc-1' } });
    emu.run('remember', ['x']);
    const [report] = emu.runDueTriggers(new Date(emu.now + 2 * HOUR));
    expect(report.error?.message).toContain('Required permissions: https://www.googleapis.com/auth/spreadsheets');
  });
});
