import { describe, expect, it } from 'vitest';
import { AUTHORIZATION_REQUIRED_MESSAGE, authDenial } from '../../dev/gas/auth';
import { fixture } from './helpers';

const CODE = `
function tryAll() {
  var out = {};
  function attempt(name, fn) { try { fn(); out[name] = 'ok'; } catch (e) { out[name] = e.message; } }
  attempt('menu', function () { SpreadsheetApp.getUi().createAddonMenu().addItem('x', 'x').addToUi(); });
  attempt('userProperties', function () { PropertiesService.getUserProperties().getProperty('k'); });
  attempt('documentProperties', function () { PropertiesService.getDocumentProperties().setProperty('k', 'v'); });
  attempt('urlFetch', function () { UrlFetchApp.fetch('http://127.0.0.1:1/'); });
  attempt('triggers', function () { ScriptApp.getProjectTriggers(); });
  attempt('newTrigger', function () { ScriptApp.newTrigger('x').timeBased().everyHours(1).create(); });
  attempt('sheet', function () { SpreadsheetApp.getActiveSpreadsheet().getSheets(); });
  attempt('mail', function () { MailApp.getRemainingDailyQuota(); });
  attempt('log', function () { Logger.log('hi'); });
  return out;
}
`;

describe('authorization modes', () => {
  it('AuthMode.NONE (onOpen before the add-on is enabled) allows menus only', () => {
    const out = fixture(CODE).run('tryAll', [], { authMode: 'NONE', kind: 'simple-trigger' }) as Record<string, string>;
    expect(out.menu).toBe('ok');
    expect(out.log).toBe('ok');
    for (const key of ['userProperties', 'documentProperties', 'urlFetch', 'triggers', 'newTrigger', 'sheet', 'mail']) {
      expect(out[key]).toMatch(/^You do not have permission to call /);
    }
    expect(out.urlFetch).toContain('script.external_request');
  });

  it('LIMITED allows the document and properties, not UrlFetch, triggers or mail', () => {
    const out = fixture(CODE).run('tryAll', [], { authMode: 'LIMITED', kind: 'simple-trigger' }) as Record<string, string>;
    expect(out).toMatchObject({ menu: 'ok', userProperties: 'ok', documentProperties: 'ok', sheet: 'ok' });
    for (const key of ['urlFetch', 'triggers', 'newTrigger', 'mail']) expect(out[key]).toMatch(/^You do not have permission/);
  });

  it('FULL allows everything (the fetch then fails at the network level)', () => {
    const out = fixture(CODE, { urlFetchTimeoutMs: 2000 }).run('tryAll') as Record<string, string>;
    expect(out).toMatchObject({ menu: 'ok', userProperties: 'ok', documentProperties: 'ok', triggers: 'ok', newTrigger: 'ok', sheet: 'ok', mail: 'ok' });
    expect(out.urlFetch).toMatch(/^Address unavailable: /);
  });

  it('the onOpen event carries the auth mode', () => {
    const emu = fixture('function onOpen(e) { PropertiesService; Logger.log(e.authMode + ":" + (e.source ? "source" : "none")); }');
    emu.open('NONE');
    emu.open('LIMITED');
    expect(emu.logs.map((l) => l.message)).toEqual(['NONE:none', 'LIMITED:source']);
  });

  it('a user who must authorize again is refused the calls needing a granted scope, not the document or properties', () => {
    for (const [object, method] of [
      ['UrlFetchApp', 'fetch'],
      ['MailApp', 'sendEmail'],
      ['SpreadsheetApp', 'openById'],
    ]) {
      expect(authDenial(object, method, 'FULL', true)).toBe(AUTHORIZATION_REQUIRED_MESSAGE);
      expect(authDenial(object, method, 'FULL')).toBeNull();
    }
    for (const [object, method] of [
      ['SpreadsheetApp', 'getActiveSpreadsheet'],
      ['Properties', 'getProperty'],
      ['ScriptApp', 'getAuthorizationInfo'],
    ]) {
      expect(authDenial(object, method, 'FULL', true)).toBeNull();
    }
    // The mode's own refusal comes first: a simple trigger never had the scope to lose.
    expect(authDenial('UrlFetchApp', 'fetch', 'LIMITED', true)).toMatch(/^You do not have permission/);
  });
});

describe('a user who must authorize the script again', () => {
  it('has a run calling UrlFetchApp.fetch fail, while getAuthorizationInfo says REQUIRED', () => {
    const emu = fixture(`
      function status() { return ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL).getAuthorizationStatus(); }
      function fetchIt() { UrlFetchApp.fetch('http://127.0.0.1:1/'); }
    `);
    emu.triggers.authorizationRequired.add('ana@example.com.br');
    expect(emu.run('status', [], { user: 'ana@example.com.br' })).toBe('REQUIRED');
    const report = emu.execute('fetchIt', [], { user: 'ana@example.com.br' });
    expect(report.status).toBe('error');
    expect(report.error?.message).toBe(AUTHORIZATION_REQUIRED_MESSAGE);
    expect(report.counters.urlFetchRequests).toBe(0);
  });

  it('when told which scopes a new version added, is refused only the calls needing those', () => {
    const added = ['https://www.googleapis.com/auth/spreadsheets'];
    expect(authDenial('SpreadsheetApp', 'openById', 'FULL', added)).toBe(AUTHORIZATION_REQUIRED_MESSAGE);
    expect(authDenial('MailApp', 'sendEmail', 'FULL', added)).toBeNull();
    expect(authDenial('UrlFetchApp', 'fetch', 'FULL', added)).toBeNull();
    const emu = fixture(`function mail() { MailApp.sendEmail('ana@example.com.br', 'a', 'b'); }`);
    emu.triggers.authorizationRequired.add('ana@example.com.br');
    expect(emu.execute('mail', [], { user: 'ana@example.com.br' }).error?.message).toBe(AUTHORIZATION_REQUIRED_MESSAGE);
    emu.triggers.scopesToGrant.set('ana@example.com.br', added);
    expect(emu.execute('mail', [], { user: 'ana@example.com.br' }).status).toBe('ok');
    expect(emu.mail).toHaveLength(1);
  });
});
