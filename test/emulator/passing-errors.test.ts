/**
 * Passing errors: Sheets calls, openById, UrlFetchApp and PropertiesService
 * fail now and then with Google's own words, at a rate a test sets, from a
 * seed; the same call goes through a moment later. Kinder before: no service
 * ever failed unless the document, the quota or the server was really gone.
 */
import { describe, expect, it } from 'vitest';
import { SERVER_ERROR_MESSAGE, spreadsheetsFailedMessage, tooManyTimesMessage } from '../../dev/gas/faults';
import { fixture } from './helpers';

const CODE = `
function open(id) { return SpreadsheetApp.openById(id).getName(); }
function readCell() { return SpreadsheetApp.getActiveSheet().getRange('A1').getValue(); }
function fetchIt() { return UrlFetchApp.fetch('https://example.com/v2/clientes').getResponseCode(); }
function properties(n) {
  var p = null;
  while (!p) { try { p = PropertiesService.getScriptProperties(); } catch (e) {} }
  var failed = [];
  for (var i = 0; i < n; i++) {
    try { p.setProperty('k' + i, 'v'); failed.push(''); } catch (e) { failed.push(e.message); }
  }
  return failed;
}
`;

const ID = '1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE';

describe('passing errors at a rate a test sets', () => {
  it('openById fails with Google’s words now and then; the document is still there a moment later', () => {
    const emu = fixture(CODE);
    emu.addSpreadsheet({ id: ID, name: 'Cliente' });
    const failed = emu.execute('open', [ID], { faults: { rate: 1, services: ['openById'] } });
    expect(failed.status).toBe('error');
    expect([spreadsheetsFailedMessage(ID), SERVER_ERROR_MESSAGE]).toContain(failed.error?.message);
    expect(emu.run('open', [ID])).toBe('Cliente');
  });

  it('Sheets calls name the document they were reading', () => {
    const emu = fixture(CODE, { faults: { rate: 1, services: ['spreadsheets'], seed: 4 } });
    const messages = new Set(Array.from({ length: 12 }, () => emu.execute('readCell').error?.message));
    expect(messages).toEqual(new Set([spreadsheetsFailedMessage(emu.spreadsheet.id), SERVER_ERROR_MESSAGE]));
  });

  it('UrlFetchApp fetch fails before anything is sent, with a server error or a rate limit', () => {
    const emu = fixture(CODE, { faults: { rate: 1, services: ['urlFetch'] } });
    const messages = new Set(Array.from({ length: 12 }, () => emu.execute('fetchIt').error?.message));
    expect(messages).toEqual(new Set([SERVER_ERROR_MESSAGE, tooManyTimesMessage('urlfetch')]));
    expect(emu.totals.urlFetchRequests).toBe(0);
  });

  it('PropertiesService fails at about the rate set, the same calls for the same seed, and the rest is written', () => {
    const run = (seed: number) => fixture(CODE, { faults: { rate: 0.2, seed, services: ['properties'] } }).run('properties', [200]) as string[];
    const first = run(7);
    const failures = first.filter((m) => m !== '');
    expect(failures.length).toBeGreaterThan(20);
    expect(failures.length).toBeLessThan(65);
    expect(new Set(failures)).toEqual(new Set([SERVER_ERROR_MESSAGE, tooManyTimesMessage('properties')]));
    expect(run(7)).toEqual(first);
    expect(run(8)).not.toEqual(first);
  });

  it('a run’s own faults replace the emulator’s; null turns them off for it', () => {
    const emu = fixture(CODE, { faults: { rate: 1 } });
    expect(emu.execute('readCell').status).toBe('error');
    expect(emu.execute('readCell', [], { faults: null }).status).toBe('ok');
    expect(emu.execute('readCell', [], { faults: { rate: 1, services: ['properties'] } }).status).toBe('ok');
  });
});
