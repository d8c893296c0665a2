import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from './helpers';

const CODE = `
function sidebar() {
  var t = HtmlService.createTemplateFromFile('Painel');
  t.nome = '<Ana & Cia>';
  t.itens = ['a', 'b'];
  var out = t.evaluate().setTitle('Painel').setWidth(300);
  SpreadsheetApp.getUi().showSidebar(out);
  SpreadsheetApp.getUi().showModalDialog(HtmlService.createHtmlOutputFromFile('Painel').setWidth(500).setHeight(200), 'Diálogo');
  return out.getContent();
}
function missingFile() { HtmlService.createHtmlOutputFromFile('Nada'); }
function helper() { return 'do servidor'; }
function dates() {
  var d = new Date(Date.UTC(2026, 9, 1, 2, 30));
  return [
    Utilities.formatDate(d, 'America/Sao_Paulo', 'dd/MM/yyyy HH:mm'),
    Utilities.formatDate(d, 'UTC', "yyyy-MM-dd'T'HH:mm:ssXXX"),
    Utilities.formatDate(d, 'America/Sao_Paulo', 'EEE, d MMM yyyy Z'),
    Utilities.parseDate('01/10/2026 08:15', 'America/Sao_Paulo', 'dd/MM/yyyy HH:mm').getTime(),
    Utilities.parseDate('01/10/2026', 'America/Sao_Paulo', 'dd/MM/yyyy') instanceof Date
  ];
}
function badParse() { Utilities.parseDate('1 de outubro', 'America/Sao_Paulo', 'dd/MM/yyyy'); }
function encodings() {
  var bytes = Utilities.base64Decode(Utilities.base64Encode('ação'));
  return [
    Utilities.base64Encode('ação'),
    Utilities.newBlob(bytes).getDataAsString(),
    Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, 'abc').slice(0, 4),
    Utilities.getUuid().length,
    Utilities.newBlob('x', 'text/plain', 'a.txt').getName(),
    Utilities.formatString('%s tem %d itens', 'lista', 3.7)
  ];
}
function session() { return [Session.getActiveUser().getEmail(), Session.getEffectiveUser().getEmail(), Session.getScriptTimeZone(), Session.getActiveUserLocale()]; }
function logs() { Logger.log('a %s', 'b'); Logger.log({ x: 1 }); console.log('c', 1); console.warn('w'); console.error('e'); return Logger.getLog(); }
function mail(n) { for (var i = 0; i < n; i++) MailApp.sendEmail('cliente@example.com', 'Assunto', 'Corpo'); return MailApp.getRemainingDailyQuota(); }
function cachePut(key, value, s) { CacheService.getUserCache().put(key, value, s); }
function cacheGet(key) { return CacheService.getUserCache().get(key); }
function ask() {
  var ui = SpreadsheetApp.getUi();
  var r = ui.prompt('Token', 'Cole o token', ui.ButtonSet.OK_CANCEL);
  var b = ui.alert('Confirma?', ui.ButtonSet.YES_NO);
  return [String(r.getSelectedButton()), r.getResponseText(), String(b), b === ui.Button.YES];
}
function menus() {
  var ui = SpreadsheetApp.getUi();
  ui.createMenu('Extra').addItem('Um', 'um').addSeparator().addSubMenu(ui.createMenu('Mais').addItem('Dois', 'dois')).addToUi();
}
`;

function htmlDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gas-html-'));
  writeFileSync(
    join(dir, 'Painel.html'),
    '<h1>Olá <?= nome ?></h1><? for (var i = 0; i < itens.length; i++) { ?><li><?= itens[i] ?></li><? } ?><p><?!= helper() ?></p><i><?!= "<b>" ?></i>',
  );
  return dir;
}

describe('HtmlService and Ui', () => {
  it('evaluates templates with escaped and raw scriptlets in the script context, and records dialogs', () => {
    const emu = fixture(CODE, { htmlDir: htmlDir() });
    const html = emu.run('sidebar');
    expect(html).toBe('<h1>Olá &lt;Ana &amp; Cia&gt;</h1><li>a</li><li>b</li><p>do servidor</p><i><b></i>');
    expect(emu.ui.dialogs.map((d) => [d.kind, d.title, d.width])).toEqual([
      ['sidebar', 'Painel', 300],
      ['modal', 'Diálogo', 500],
    ]);
    expect(emu.ui.dialogs[1].html).toContain('<?= nome ?>');
  });

  it('a missing HTML file fails like Apps Script', () => {
    expect(fixture(CODE, { htmlDir: htmlDir() }).execute('missingFile').error?.message).toBe('No HTML file named Nada was found.');
  });

  it('alert and prompt take answers scripted by the test', () => {
    const emu = fixture(CODE);
    emu.answer({ button: 'OK', text: 'abc123' }, { button: 'YES' });
    expect(emu.run('ask')).toEqual(['OK', 'abc123', 'YES', true]);
    expect(emu.ui.prompts.map((p) => [p.kind, p.prompt])).toEqual([
      ['prompt', 'Cole o token'],
      ['alert', 'Confirma?'],
    ]);
    expect(emu.execute('ask').error?.message).toMatch(/no scripted answer left/);
  });

  it('records menus as a tree', () => {
    const emu = fixture(CODE);
    emu.run('menus');
    expect(emu.ui.menus).toEqual([
      {
        caption: 'Extra',
        addon: false,
        items: [
          { kind: 'item', caption: 'Um', functionName: 'um' },
          { kind: 'separator' },
          { kind: 'submenu', caption: 'Mais', items: [{ kind: 'item', caption: 'Dois', functionName: 'dois' }] },
        ],
      },
    ]);
    expect(emu.menuItems().map((i) => i.path.join(' > '))).toEqual(['Extra > Um', 'Extra > Mais > Dois']);
  });
});

describe('Utilities, Session, Logger, MailApp, CacheService', () => {
  it('formatDate and parseDate honour the time zone', () => {
    const out = fixture(CODE).run('dates') as unknown[];
    expect(out).toEqual(['30/09/2026 23:30', '2026-10-01T02:30:00Z', 'Wed, 30 Sep 2026 -0300', Date.UTC(2026, 9, 1, 11, 15), true]);
    expect(fixture(CODE).execute('badParse').error?.message).toBe('Unparseable date: "1 de outubro"');
  });

  it('encodes, digests and builds blobs with Java-style signed bytes', () => {
    expect(fixture(CODE).run('encodings')).toEqual(['YcOnw6Nv', 'ação', [-70, 120, 22, -65], 36, 'a.txt', 'lista tem 3 itens']);
  });

  it('Session reports the running user, the script zone and the locale', () => {
    const emu = fixture(CODE);
    expect(emu.run('session', [], { user: 'ana@example.com.br' })).toEqual(['ana@example.com.br', 'ana@example.com.br', 'America/Sao_Paulo', 'pt_BR']);
  });

  it('records Logger and console output per execution', () => {
    const emu = fixture(CODE);
    const report = emu.execute('logs');
    expect(report.value).toBe('a b\n{ x: 1 }\n');
    expect(report.logs.map((l) => [l.source, l.level, l.message])).toEqual([
      ['Logger', 'log', 'a b'],
      ['Logger', 'log', '{ x: 1 }'],
      ['console', 'log', 'c 1'],
      ['console', 'warn', 'w'],
      ['console', 'error', 'e'],
    ]);
  });

  it('MailApp records mail and spends the daily quota', () => {
    const emu = fixture(CODE, { quotas: { emailsPerDay: 3 } });
    expect(emu.run('mail', [2])).toBe(1);
    expect(emu.mail.map((m) => m.to)).toEqual(['cliente@example.com', 'cliente@example.com']);
    expect(emu.execute('mail', [2]).error?.message).toBe('Service invoked too many times for one day: email.');
  });

  it('CacheService expires on the virtual clock, at most after 6 hours, and limits keys and values', () => {
    const emu = fixture(CODE);
    emu.run('cachePut', ['k', 'v', 60]);
    expect(emu.run('cacheGet', ['k'])).toBe('v');
    emu.now += 61_000;
    expect(emu.run('cacheGet', ['k'])).toBeNull();
    emu.run('cachePut', ['long', 'v', 86_400]);
    emu.now += 6 * 3_600_000 + 1000;
    expect(emu.run('cacheGet', ['long'])).toBeNull();
    expect(emu.execute('cachePut', ['x'.repeat(251), 'v', 60]).error?.message).toBe('Argument too large: key');
    expect(emu.execute('cachePut', ['k', 'x'.repeat(100 * 1024 + 1), 60]).error?.message).toBe('Argument too large: value');
  });
});
