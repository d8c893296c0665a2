/** Links in a cell's text (rich text values), with Sheets' semantics: several links in one cell, kept apart from the value. */
import { describe, expect, it } from 'vitest';
import { fixture } from './helpers';

const CODE = `
function sheet() { return SpreadsheetApp.getActiveSpreadsheet().getSheets()[0]; }
function linked() {
  var v = SpreadsheetApp.newRichTextValue().setText('Matriz\\nFilial 2').setLinkUrl(0, 6, 'https://a.example/1').setLinkUrl(7, 15, 'https://a.example/2').build();
  var plain = SpreadsheetApp.newRichTextValue().setText('0012').build();
  sheet().getRange('A1:B1').setRichTextValues([[v, plain]]);
}
function read() {
  return sheet().getRange('A1:C1').getRichTextValues()[0].map(function (r) {
    return r && { text: r.getText(), whole: r.getLinkUrl(), runs: r.getRuns().map(function (x) { return [x.getText(), x.getLinkUrl()]; }) };
  });
}
function values() { return sheet().getRange('A1:B1').getValues(); }
function overwrite() { sheet().getRange('A1').setValue('outra'); }
function wholeLink() { sheet().getRange('C1').setRichTextValue(SpreadsheetApp.newRichTextValue().setText('Planilha').setLinkUrl('https://a.example/3').build()); }
function number() { sheet().getRange('D1').setValue(42); return sheet().getRange('D1').getRichTextValue(); }
function outside() { SpreadsheetApp.newRichTextValue().setText('abc').setLinkUrl(1, 9, 'https://a.example'); }
`;

describe('rich text links', () => {
  it('holds several links in one cell, each over its part of the text, and the text as text', () => {
    const emu = fixture(CODE);
    emu.run('linked');
    emu.run('wholeLink');
    expect(emu.run('read')).toEqual([
      {
        text: 'Matriz\nFilial 2',
        whole: null,
        runs: [
          ['Matriz', 'https://a.example/1'],
          ['\n', null],
          ['Filial 2', 'https://a.example/2'],
        ],
      },
      // Digits stay text: a rich text value is never parsed as a number.
      { text: '0012', whole: null, runs: [['0012', null]] },
      { text: 'Planilha', whole: 'https://a.example/3', runs: [['Planilha', 'https://a.example/3']] },
    ]);
    expect(emu.run('values')).toEqual([['Matriz\nFilial 2', '0012']]);
  });

  it('drops the links when a value is written over them, and has none for a number', () => {
    const emu = fixture(CODE);
    emu.run('linked');
    emu.run('overwrite');
    expect((emu.run('read') as Array<{ runs: unknown }>)[0]).toEqual({ text: 'outra', whole: null, runs: [['outra', null]] });
    expect(emu.run('number')).toBeNull();
  });

  it('refuses a link outside the text', () => {
    const emu = fixture(CODE);
    expect(() => emu.run('outside')).toThrow(/outside the text/);
  });
});
