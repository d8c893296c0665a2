/**
 * A kill leaves some prefix of the execution's writes since its last flush in
 * the document, in the order it made them, and property writes as they landed,
 * one by one. Kinder before: a kill lost every unflushed write, so a script
 * that wrote a value and its signature never met a value without its
 * signature, nor an older value with a newer one.
 */
import { describe, expect, it } from 'vitest';
import { fixture } from './helpers';

const CODE = `
function writes(n) {
  var sheet = SpreadsheetApp.getActiveSheet();
  var props = PropertiesService.getScriptProperties();
  for (var i = 1; i <= n; i++) {
    sheet.getRange(i, 1).setValue(i);
    props.setProperty('wrote', String(i));
  }
  return sheet.getRange('C1').getValue();
}
function flushedThenWrites() {
  var sheet = SpreadsheetApp.getActiveSheet();
  sheet.getRange('B1').setValue('flushed');
  SpreadsheetApp.flush();
  for (var i = 1; i <= 5; i++) sheet.getRange(i, 1).setValue(i);
  while (true) sheet.getRange('C1').getValue();
}
function forever() {
  var sheet = SpreadsheetApp.getActiveSheet();
  for (var i = 1; i <= 8; i++) sheet.getRange(i, 1).setValue(i);
  while (true) sheet.getRange('C1').getValue();
}
`;

/** getActiveSheet, getScriptProperties, then getRange, setValue and setProperty per value, and the last read's getRange and getValue. */
const callsOf = (n: number) => 2 + 3 * n + 2;
const column = (emu: ReturnType<typeof fixture>, rows = 5) => emu.values('Página1', `A1:A${rows}`).map((r) => r[0]);

describe('torn writes at a kill', () => {
  it('lands the first n writes since the last flush, in the order they were made; properties as they were written', () => {
    const emu = fixture(CODE);
    const report = emu.execute('writes', [5], { kill: { atCall: callsOf(5), landed: 2 } });
    expect(report.status).toBe('killed');
    expect(column(emu)).toEqual([1, 2, '', '', '']);
    // Every property write landed at once, whatever became of the cells written between them.
    expect(emu.properties.script.get('wrote')).toBe('5');
  });

  it('lands none, or all, when told', () => {
    const none = fixture(CODE);
    none.execute('writes', [5], { kill: { atCall: callsOf(5), landed: 'none' } });
    expect(column(none)).toEqual(['', '', '', '', '']);
    const all = fixture(CODE);
    all.execute('writes', [5], { kill: { atCall: callsOf(5), landed: 'all' } });
    expect(column(all)).toEqual([1, 2, 3, 4, 5]);
  });

  it('by default lands a prefix of seeded random length: any length, never a hole, the same for the same seed', () => {
    const landedWith = (seed: number) => {
      const emu = fixture(CODE);
      expect(emu.execute('writes', [5], { kill: { atCall: callsOf(5), seed } }).status).toBe('killed');
      return column(emu).filter((v) => v !== '').length;
    };
    const lengths = Array.from({ length: 60 }, (_, seed) => landedWith(seed));
    expect(new Set(lengths)).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    expect(landedWith(17)).toBe(lengths[17]);
    for (let seed = 0; seed < 10; seed++) {
      const emu = fixture(CODE);
      emu.execute('writes', [5], { kill: { atCall: callsOf(5), seed } });
      const cells = column(emu);
      const k = cells.filter((v) => v !== '').length;
      expect(cells).toEqual([...[1, 2, 3, 4, 5].slice(0, k), ...Array(5 - k).fill('')]);
    }
  });

  it('the 6-minute kill tears too: the emulator’s kill seed decides how much of the unflushed writes lands', () => {
    const options = { costs: { spreadsheetCallMs: 100, cellWriteMs: 0, otherCallMs: 0 }, budgetMs: 2000 };
    const landed = new Set(
      Array.from({ length: 12 }, (_, seed) => {
        const emu = fixture(CODE, { ...options, kill: { seed } });
        expect(emu.execute('forever').status).toBe('killed');
        return column(emu, 8).filter((v) => v !== '').length;
      }),
    );
    expect(landed.size).toBeGreaterThan(2);
  });

  it('what was flushed always stays; only the writes after the last flush can be torn', () => {
    for (let seed = 0; seed < 8; seed++) {
      const emu = fixture(CODE, { costs: { spreadsheetCallMs: 100, otherCallMs: 0, flushMs: 0 }, budgetMs: 3000, kill: { seed } });
      expect(emu.execute('flushedThenWrites').status).toBe('killed');
      expect(emu.values('Página1', 'B1')).toEqual([['flushed']]);
    }
    const torn = fixture(CODE, { costs: { spreadsheetCallMs: 100, otherCallMs: 0, flushMs: 0 }, budgetMs: 3000 });
    torn.execute('flushedThenWrites', [], { kill: { landed: 3 } });
    expect(column(torn)).toEqual([1, 2, 3, '', '']);
  });
});

describe('a kill at the n-th service call', () => {
  it('walks every call of a run: run once to count them, then kill at each; the call it names never runs', () => {
    const emu = fixture(CODE);
    const whole = emu.execute('writes', [3]);
    const calls = whole.counters.serviceCalls;
    expect(calls).toBe(callsOf(3));
    for (let n = 1; n <= calls; n++) {
      const run = fixture(CODE).execute('writes', [3], { kill: { atCall: n, landed: 'none' } });
      expect(run.status).toBe('killed');
      expect(run.counters.serviceCalls).toBe(n - 1);
    }
    // One past the last call: nothing to kill.
    expect(fixture(CODE).execute('writes', [3], { kill: { atCall: calls + 1 } }).status).toBe('ok');
  });

  it('a property written just before the kill stays, beside the sheet write before it lost', () => {
    const emu = fixture(CODE);
    // The third setProperty is call 2 + 3·3 = 11: killed at the read after it, with no sheet write landed.
    emu.execute('writes', [3], { kill: { atCall: 12, landed: 'none' } });
    expect(emu.properties.script.get('wrote')).toBe('3');
    expect(column(emu, 3)).toEqual(['', '', '']);
  });
});
