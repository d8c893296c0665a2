import { describe, expect, it } from 'vitest';
import { GasRunError } from '../../dev/gas/runner';
import { fixture } from './helpers';

const CODE = `
function longJob() {
  var sheet = SpreadsheetApp.getActiveSheet();
  for (var i = 1; i <= 100; i++) {
    sheet.getRange(i, 1).setValue(i);
  }
  return 'finished';
}
function swallowKill() {
  var sheet = SpreadsheetApp.getActiveSheet();
  for (var i = 1; i <= 100; i++) {
    try { sheet.getRange(i, 1).setValue(i); } catch (e) { /* keeps going */ }
  }
  PropertiesService.getScriptProperties().setProperty('after', 'kill');
  return 'finished';
}
function flushedJob() {
  var sheet = SpreadsheetApp.getActiveSheet();
  for (var i = 1; i <= 100; i++) {
    sheet.getRange(i, 1).setValue(i);
    SpreadsheetApp.flush();
  }
}
function sleeper() { for (var i = 0; i < 10; i++) { Utilities.sleep(60000); PropertiesService.getScriptProperties().setProperty('slept', String(i + 1)); } }
function selfStopping() {
  var start = Date.now();
  var sheet = SpreadsheetApp.getActiveSheet();
  var i = 1;
  while (Date.now() - start < 4000) { sheet.getRange(i, 1).setValue(i); i++; }
  return i - 1;
}
`;

describe('the 6-minute kill at a deterministic virtual time', () => {
  // Each spreadsheet call costs 100 virtual ms, so a 1 s budget dies at a known call.
  const options = { costs: { spreadsheetCallMs: 100, cellWriteMs: 0, otherCallMs: 0, startupMs: 0 }, budgetMs: 1000 };

  it('kills at the first service call after the deadline, and what it had not flushed is lost when none of it lands', () => {
    // How much of the unflushed writes a kill lands is torn-writes.test.ts's subject: here none does.
    const emu = fixture(CODE, { ...options, kill: { landed: 'none' } });
    const report = emu.execute('longJob');
    expect(report.status).toBe('killed');
    expect(report.error?.message).toBe('Exceeded maximum execution time');
    // getActiveSheet at 0, then getRange/setValue pairs from 100: 4 values were set by 900 and
    // the 5th setValue, at 1000, is killed; none was flushed, so the sheet never got them.
    const written = emu.values('Página1', 'A1:A10').map((r) => r[0]);
    expect(written).toEqual(Array(10).fill(''));
    expect(report.counters.virtualMs).toBe(1000);
  });

  it('keeps what was flushed before the kill', () => {
    const emu = fixture(CODE, { ...options, costs: { ...options.costs, flushMs: 0 } });
    expect(emu.execute('flushedJob').status).toBe('killed');
    // Each round costs getRange, setValue and flush (100 ms each): 3 rounds end at 900.
    expect(emu.values('Página1', 'A1:A5').map((r) => r[0])).toEqual([1, 2, 3, '', '']);
  });

  it('is the same on every run', () => {
    const a = fixture(CODE, options).execute('longJob');
    const b = fixture(CODE, options).execute('longJob');
    expect(a.counters).toEqual(b.counters);
  });

  it('cannot be caught: the run is reported killed and later calls die too', () => {
    const emu = fixture(CODE, options);
    const report = emu.execute('swallowKill');
    expect(report.status).toBe('killed');
    expect(report.value).toBeUndefined();
    expect(emu.properties.script.get('after')).toBeUndefined();
  });

  it('Utilities.sleep spends virtual time', () => {
    const emu = fixture(CODE, { costs: { otherCallMs: 0, startupMs: 0 } });
    const report = emu.execute('sleeper');
    expect(report.status).toBe('killed');
    // The 6th minute of sleep ends exactly at 6:00, so the write after it is the call that dies.
    expect(emu.properties.script.get('slept')).toBe('5');
  });

  it('scripts see virtual time through Date, so they can stop themselves in time', () => {
    const emu = fixture(CODE, options);
    expect(emu.run('selfStopping', [], { budgetMs: 10_000 })).toBe(20);
  });

  it('run() throws a GasRunError that says it was killed', () => {
    const emu = fixture(CODE, options);
    expect(() => emu.run('longJob')).toThrow(GasRunError);
    try {
      emu.run('longJob');
    } catch (err) {
      expect((err as GasRunError).killed).toBe(true);
    }
  });
});
