/**
 * The grid behaves as Sheets' does where a person notices: a paste past the
 * last row or column grows the tab, every row of a tab can be scrolled to (a
 * big import too), numbers and formula results sit to the right, and a chart's
 * legend keeps clear of its month labels.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Services } from '../../dev/gas/runner';
import { MAX_CELLS } from '../../dev/gas/spreadsheet-model';
import { cell, paste, readGrid, scrollGrid, tab, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();

/** A new tab made in the emulator (as a script would), shown on the page. */
function newTab(name: string, make: (sheet: GoogleAppsScript.Spreadsheet.Sheet, services: Services) => void): void {
  t.pg.emulator.withServices((s) => make(s.SpreadsheetApp.getActiveSpreadsheet().insertSheet(name), s));
  t.pg.emulator.select(name, 'A1');
  t.pg.touch();
}

/** Whether the cell is drawn inside the part of the grid on screen. */
async function onScreen(page: Page, a1: string): Promise<boolean> {
  const box = await cell(page, a1).boundingBox();
  const view = await page.locator('#grid-wrap').boundingBox();
  return !!box && !!view && box.y >= view.y && box.y + box.height <= view.y + view.height;
}

const errors = () => t.page.locator('.toast.error').allTextContents();

describe('the grid grows as Sheets grows it', () => {
  it('a paste longer than the rows left adds rows to fit it, and the new rows show', async () => {
    await tab(t.page, 'Página1').click();
    expect(t.pg.emulator.spreadsheet.byName('Página1')!.maxRows).toBe(1000);
    await scrollGrid(t.page, 'bottom');
    await cell(t.page, 'A998').click();
    await expect.poll(() => t.pg.emulator.spreadsheet.selection?.ranges).toEqual(['A998']);
    await paste(t.page, ['CPF-1\t1', 'CPF-2\t2', 'CPF-3\t3', 'CPF-4\t4', 'CPF-5\t5'].join('\n'));
    await expect.poll(() => t.pg.emulator.spreadsheet.byName('Página1')!.maxRows).toBe(1002);
    expect(t.pg.emulator.values('Página1', 'A998:B1002')).toEqual([1, 2, 3, 4, 5].map((n) => [`CPF-${n}`, n]));
    await scrollGrid(t.page, 'bottom');
    await expect
      .poll(() => readGrid(t.page, 'A1001:B1002'))
      .toEqual([
        ['CPF-4', '4'],
        ['CPF-5', '5'],
      ]);
    expect(await t.page.locator('#grid tbody th[data-row="1002"]').textContent()).toBe('1002');
    expect(await errors()).toEqual([]);
  });

  it('a paste wider than the columns left adds columns to fit it', async () => {
    await scrollGrid(t.page, 'top');
    await cell(t.page, 'Z1').click();
    await expect.poll(() => t.pg.emulator.spreadsheet.selection?.ranges).toEqual(['Z1']);
    await paste(t.page, 'Janeiro\tFevereiro\tMarço');
    await expect.poll(() => t.pg.emulator.spreadsheet.byName('Página1')!.maxColumns).toBe(28);
    await expect.poll(() => readGrid(t.page, 'Z1:AB1')).toEqual([['Janeiro', 'Fevereiro', 'Março']]);
    expect(await t.page.locator('#grid thead th[data-col="28"]').textContent()).toBe('AB');
    expect(await errors()).toEqual([]);
  });
});

describe('a paste the spreadsheet has no room for', () => {
  it('says so in Portuguese and changes nothing', async () => {
    // Another tab takes all but a few cells of the 10 million a spreadsheet may have.
    const room = MAX_CELLS - t.pg.emulator.spreadsheet.totalCells() - 26 * 1000;
    newTab('Cheia', (sheet) => sheet.insertRowsAfter(1000, Math.floor(room / 26)));
    // The full tab goes whatever happens here: the tests after this one need the room back.
    onTestFinished(() => {
      const ss = t.pg.emulator.spreadsheet;
      if (!ss.byName('Cheia')) return;
      t.pg.emulator.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().deleteSheet(s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Cheia')!));
      t.pg.touch();
    });
    await expect.poll(() => tab(t.page, 'Cheia').getAttribute('aria-selected')).toBe('true');
    await tab(t.page, 'Página1').click();
    await expect.poll(() => tab(t.page, 'Página1').getAttribute('aria-selected')).toBe('true');
    const before = t.pg.emulator.spreadsheet.byName('Página1')!.maxRows;
    // The tab's grid is drawn after the click answers: scrolled to its bottom until its last row is there to click.
    await expect
      .poll(async () => {
        await scrollGrid(t.page, 'bottom');
        return cell(t.page, `A${before}`).count();
      })
      .toBe(1);
    await cell(t.page, `A${before}`).click();
    await expect.poll(() => t.pg.emulator.spreadsheet.selection?.ranges).toEqual([`A${before}`]);
    await paste(t.page, 'um\ndois\ntrês');
    await expect.poll(errors).toEqual([expect.stringContaining('Esta ação aumentaria o número de células da planilha acima do limite de 10.000.000 células.')]);
    expect(t.pg.emulator.spreadsheet.byName('Página1')!.maxRows).toBe(before);
    expect(t.pg.emulator.values('Página1', `A${before}`)).toEqual([['CPF-5']]);
  });
});

describe('every row of a tab can be seen', () => {
  /** A tab of 2,500 rows, "linha 1" to "linha 2500", made once and shown. */
  let made = false;
  async function bigTab(): Promise<void> {
    if (!made) {
      newTab('Grande', (sheet) => {
        sheet.insertRowsAfter(1000, 1500);
        sheet.getRange(1, 1, 2500, 2).setValues(Array.from({ length: 2500 }, (_, i) => [`linha ${i + 1}`, i + 1]));
      });
      made = true;
    } else await tab(t.page, 'Grande').click();
    await expect.poll(() => tab(t.page, 'Grande').getAttribute('aria-selected')).toBe('true');
  }

  it('a tab of 2,500 rows scrolls to its last row, with no rows left out', async () => {
    await bigTab();
    await scrollGrid(t.page, 'bottom');
    await expect
      .poll(() => readGrid(t.page, 'A2499:B2500'))
      .toEqual([
        ['linha 2499', '2499'],
        ['linha 2500', '2500'],
      ]);
    await expect.poll(() => onScreen(t.page, 'A2500')).toBe(true);
    await scrollGrid(t.page, 0.5);
    await expect.poll(() => onScreen(t.page, 'A1250')).toBe(true);
    expect(await readGrid(t.page, 'A1250')).toEqual([['linha 1250']]);
    expect(await t.page.getByText(/linhas com dados não aparecem/).count()).toBe(0);
  });

  it('arrow keys pressed in a row move one cell each and the grid scrolls to follow them', async () => {
    await bigTab();
    await scrollGrid(t.page, 'bottom');
    await cell(t.page, 'A2490').click();
    for (let i = 0; i < 40; i++) await t.page.keyboard.press('ArrowUp');
    await expect.poll(() => t.pg.emulator.spreadsheet.selection?.ranges).toEqual(['A2450']);
    await expect.poll(() => t.page.locator('#namebox').textContent()).toBe('A2450');
    await expect.poll(() => onScreen(t.page, 'A2450')).toBe(true);
  });
});

describe('alignment as Sheets gives it', () => {
  it('numbers and the results of formulas that are numbers sit to the right, text to the left', async () => {
    newTab('Alinhamento', (sheet) => {
      sheet.getRange('A1:A2').setValues([[10], [20]]);
      sheet.getRange('B1:B4').setFormulas([['=A1+A2'], ['=SUM(A1:A2)'], ['="R$ "&A1'], ['=A1>5']]);
      sheet.getRange('C1').setValue('texto');
    });
    await expect.poll(() => readGrid(t.page, 'A1:C1')).toEqual([['10', '30', 'texto']]);
    const align = (a1: string) => cell(t.page, a1).evaluate((el) => getComputedStyle(el).textAlign);
    expect(await Promise.all(['A1', 'B1', 'B2', 'B3', 'B4', 'C1'].map(align))).toEqual(['right', 'right', 'right', 'left', 'center', 'left']);
  });
});

interface Box {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** A chart over A1:<last> of a new tab, built as the add-on builds its dashboards' charts (one header row). */
function chartTab(name: string, rows: unknown[][], options: Record<string, unknown>): void {
  newTab(name, (sheet, s) => {
    sheet.getRange(1, 1, rows.length, 1).setNumberFormat('@');
    sheet.getRange(1, 1, rows.length, rows[0].length).setValues(rows);
    let chart = sheet
      .newChart()
      .setChartType(s.Charts.ChartType.COLUMN)
      .addRange(sheet.getRange(1, 1, rows.length, rows[0].length))
      .setNumHeaders(1)
      .setPosition(2, 8, 0, 0)
      .setOption('title', name);
    for (const [key, value] of Object.entries(options)) chart = chart.setOption(key, value);
    sheet.insertChart(chart.build());
  });
}

/** Where the chart's texts and bars are drawn, in page pixels. */
async function chartLayout(title: string): Promise<{ frame: Box; texts: Box[]; bars: Box[] }> {
  const svg = t.page.getByRole('figure', { name: `Gráfico: ${title}` }).locator('svg');
  await svg.waitFor();
  return svg.evaluate((el) => {
    const box = (e: Element): Box => {
      const b = e.getBoundingClientRect();
      return { text: e.textContent ?? '', left: b.left, right: b.right, top: b.top, bottom: b.bottom };
    };
    return { frame: box(el), texts: Array.from(el.querySelectorAll('text'), box), bars: Array.from(el.querySelectorAll('rect'), box) };
  });
}

const overlap = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const clashes = (boxes: Box[]) =>
  boxes.flatMap((a, i) =>
    boxes
      .slice(i + 1)
      .filter((b) => overlap(a, b))
      .map((b) => `${a.text} × ${b.text}`),
  );
const outside = (boxes: Box[], frame: Box) =>
  boxes.filter((b) => b.left < frame.left || b.right > frame.right || b.top < frame.top || b.bottom > frame.bottom).map((b) => b.text);
const entry = (b: Box) => b.text.replace(/^\W+/, '');

describe('charts', () => {
  it('a legend at the bottom keeps clear of the month labels, and the labels of each other', async () => {
    // Twelve months and three series, as the cash-flow dashboard's chart: legend below.
    const rows: unknown[][] = [['Mês', 'Recebimentos', 'Pagamentos', 'Saldo']];
    for (let m = 1; m <= 12; m++) rows.push([`${String(m).padStart(2, '0')}/2026`, 1000 * m, 800 * m, 200 * m - 1500]);
    chartTab('Fluxo de caixa por mês', rows, { 'legend.position': 'bottom' });
    const { frame, texts } = await chartLayout('Fluxo de caixa por mês');
    const legend = texts.filter((b) => /Recebimentos|Pagamentos|Saldo/.test(b.text));
    const months = texts.filter((b) => /\/2026$/.test(b.text));
    expect(legend.map(entry)).toEqual(['Recebimentos', 'Pagamentos', 'Saldo']);
    expect(months.length).toBeGreaterThan(0);
    expect(clashes([...legend, ...months])).toEqual([]);
    expect(outside([...legend, ...months], frame)).toEqual([]);
  });

  it('a legend on the right stands beside the bars, one entry a line; legend.position none shows none', async () => {
    // Five companies stacked by bucket, as the consolidated receivables dashboard.
    const companies = ['Aurora Contábil Ltda', 'Boreal Serviços', 'Cerrado Assessoria', 'Delta Consultores', 'Total'];
    const buckets = ['A vencer', '1–30 dias', '31–60 dias', '61–90 dias', 'Mais de 90 dias'];
    chartTab('Por faixa e empresa', [['Faixa', ...companies], ...buckets.map((b, i) => [b, ...companies.map((_, c) => 100 * (i + 1) + c)])], {
      isStacked: true,
      'legend.position': 'right',
    });
    const { frame, texts, bars } = await chartLayout('Por faixa e empresa');
    const legend = texts.filter((b) => companies.some((c) => b.text.includes(c)));
    expect(legend.map(entry)).toEqual(companies);
    expect(clashes(legend)).toEqual([]);
    expect(outside(legend, frame)).toEqual([]);
    const rightmostBar = Math.max(...bars.map((b) => b.right));
    expect(legend.filter((b) => b.left <= rightmostBar).map(entry)).toEqual([]);

    chartTab(
      'Sem legenda',
      [
        ['Mês', 'Faturado', 'Recebido'],
        ['01/2026', 10, 8],
        ['02/2026', 12, 11],
      ],
      { 'legend.position': 'none' },
    );
    const plain = await chartLayout('Sem legenda');
    expect(plain.texts.filter((b) => /Faturado|Recebido/.test(b.text))).toEqual([]);
  });
});
