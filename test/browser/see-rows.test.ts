/**
 * Ver linhas in Chromium: a conference line of the Fechamento selects its rows
 * on its report's sheet, the sidebar says where it put the person (how many
 * rows, on which tab) beside the line they clicked, and the grid scrolls to
 * the selection as Sheets does when a script activates a range, even when the
 * rows are far down a sheet people inserted rows into.
 */
import { describe, expect, it } from 'vitest';
import { clickMenu, sidebar, sidebarTitle, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();

describe('Ver linhas', () => {
  it('says how many rows it selected on which tab, and the grid scrolls to them', async () => {
    await clickMenu(t.page, 'Painéis');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Painéis');
    const sb = sidebar(t.page);
    await sb.getByLabel('Painel', { exact: true }).selectOption({ label: 'Fechamento da competência' });
    await sb.getByRole('button', { name: 'Criar painel' }).click();
    await expect.poll(() => sb.locator('#status').textContent(), { timeout: 60_000 }).toMatch(/^Painel "Fechamento da competência" criado/);

    // People inserted rows above the data: the invoices Ver linhas selects are now far below the first screen.
    const sheetName = 'Fechamento 10-2026 · Faturas';
    t.pg.emulator.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheetName)!.insertRowsAfter(1, 120));

    const line = sb.locator('[data-check="sem-nfse"]');
    await line.getByRole('button', { name: 'Ver linhas' }).click();
    const said = line.locator('.notice');
    await expect
      .poll(() => said.textContent(), { timeout: 30_000 })
      .toMatch(new RegExp(`^Faturas sem NFS-e: [\\d.]+ linhas? selecionadas? na aba "${sheetName}"\\.$`));
    const count = Number(/: ([\d.]+) linha/.exec((await said.textContent()) ?? '')![1].replace(/\./g, ''));
    const selection = t.pg.emulator.spreadsheet.selection!;
    const rows = selection.ranges.reduce((n, a1) => {
      const [from, to] = a1.replace(/[A-Z]/g, '').split(':').map(Number);
      return n + (to ?? from) - from + 1;
    }, 0);
    expect(count).toBe(rows);
    // What it said is where the person looks: beside the line, in the sidebar's view.
    await expect
      .poll(() =>
        said.evaluate((el) => {
          const box = el.getBoundingClientRect();
          return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
        }),
      )
      .toBe(true);

    await expect.poll(() => t.page.locator('#tabs [role="tab"][aria-selected="true"]').textContent()).toContain(sheetName);
    const active = Number(/\d+/.exec(selection.ranges[selection.ranges.length - 1])![0]);
    expect(active).toBeGreaterThan(120);
    // The active range's first row is drawn and in the grid's view, with the selection box on it.
    await expect
      .poll(() =>
        t.page.locator('#grid-wrap').evaluate((wrap, r) => {
          const head = wrap.querySelector(`th[data-row="${r}"]`)?.getBoundingClientRect();
          const view = wrap.getBoundingClientRect();
          const below = wrap.querySelector('thead')!.getBoundingClientRect().bottom;
          return !!head && head.top >= below && head.bottom <= view.bottom;
        }, active),
      )
      .toBe(true);
  }, 150_000);
});
