/**
 * Importar and Relatórios in a real browser: an import through the sidebar
 * lands in the grid as the emulator shows it (display values, header notes,
 * frozen header, column widths), selections reach the add-on, a schedule fires
 * from the playground's time control, "Editar" swaps the sidebar, and a failed
 * import shows its amber tab.
 */
import { describe, expect, it } from 'vitest';
import { cell, clickMenu, readGrid, screenshot, selectRange, sidebar, sidebarTitle, tab, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();

const sheetModel = (name: string) => t.pg.emulator.spreadsheet.byName(name);

describe('Importar and Relatórios in the browser', () => {
  it('imports Clientes through the Importar sidebar and shows the rows in the grid', async () => {
    const customers = await t.pg.sandbox.dump(t.pg.sandbox.orgs[0].name, 'clientes');
    await clickMenu(t.page, 'Importar dados…');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Importar dados');
    const sb = sidebar(t.page);
    await sb.getByLabel('O que importar').selectOption({ label: 'Clientes' });
    expect(await sb.getByLabel('Conexão').inputValue()).toBe(t.pg.connectionName);
    await sb.getByRole('button', { name: 'Importar', exact: true }).click();
    await expect.poll(() => sb.locator('#result').textContent(), { timeout: 30_000 }).toBe(`Pronto: ${customers.length} linhas em "Clientes".`);

    await tab(t.page, 'Clientes').click();
    await expect.poll(() => tab(t.page, 'Clientes').getAttribute('aria-selected')).toBe('true');
    const sheet = sheetModel('Clientes')!;
    const width = sheet.lastColumn();
    const lastA1 = `${String.fromCharCode(64 + Math.min(width, 26))}${customers.length + 1}`;
    expect(sheet.lastRow()).toBe(customers.length + 1);
    // What the t.page shows is what the emulator displays, number formats applied.
    await expect.poll(() => readGrid(t.page, `A1:${lastA1}`)).toEqual(t.pg.emulator.displayValues('Clientes', `A1:${lastA1}`));
    // Header notes hold the field names and show as tooltips; the header row is frozen and bold.
    const a1Note = sheet.cell(1, 1)?.note;
    expect(a1Note).toBeTruthy();
    expect(await cell(t.page, 'A1').getAttribute('title')).toBe(a1Note);
    expect((await cell(t.page, 'A1').getAttribute('class'))?.split(' ')).toEqual(expect.arrayContaining(['b', 'note', 'frozen-r', 'frozen-edge-r']));
    expect(sheet.frozenRows).toBe(1);
    expect(await cell(t.page, 'B1').evaluate((el) => getComputedStyle(el).position)).toBe('sticky');
    expect(await cell(t.page, 'B2').evaluate((el) => getComputedStyle(el).position)).not.toBe('sticky');
    const widths = await t.page.locator('#grid colgroup col').evaluateAll((cols) => cols.slice(1).map((c) => (c as HTMLElement).style.width));
    expect(widths.slice(0, width)).toEqual(Array.from({ length: width }, (_, i) => `${sheet.columnWidths.get(i + 1) ?? 100}px`));
    await cell(t.page, 'A1').hover();
    await expect.poll(() => t.page.locator('.note-pop').textContent()).toBe(a1Note);
    await screenshot(t.page, 'importar-clientes');
  });

  it('a second pull of another listing in the same sidebar is a new report in a new sheet', async () => {
    const sb = sidebar(t.page);
    await sb.getByLabel('O que importar').selectOption({ label: 'NFS-e' });
    expect(await sb.getByLabel('Nome da nova aba').inputValue()).toBe('NFS-e');
    await sb.getByRole('button', { name: 'Importar', exact: true }).click();
    await expect.poll(() => sb.locator('#result').textContent(), { timeout: 30_000 }).toMatch(/^Pronto: \d+ linhas em "NFS-e"\.$/);
    const reports = t.pg.emulator.run('listReports') as Array<{ name: string; sheetName: string }>;
    expect(reports.map((r) => [r.name, r.sheetName])).toEqual([
      ['Clientes', 'Clientes'],
      ['NFS-e', 'NFS-e'],
    ]);
  });

  it('sends selections to the add-on: drag, shift-click and ctrl-click', async () => {
    await tab(t.page, 'Clientes').click();
    await selectRange(t.page, 'B2', 'D4');
    await expect.poll(() => t.pg.emulator.spreadsheet.selection?.ranges).toEqual(['B2:D4']);
    expect(t.pg.emulator.spreadsheet.activeSheet().name).toBe('Clientes');
    await expect.poll(() => t.page.locator('#namebox').textContent()).toBe('B2:D4');

    await cell(t.page, 'C3').click();
    await expect.poll(() => t.pg.emulator.spreadsheet.selection?.ranges).toEqual(['C3']);
    await cell(t.page, 'E6').click({ modifiers: ['Shift'] });
    await expect.poll(() => t.pg.emulator.spreadsheet.selection?.ranges).toEqual(['C3:E6']);
    await cell(t.page, 'A10').click({ modifiers: ['Control'] });
    await expect.poll(() => t.pg.emulator.spreadsheet.selection?.ranges).toEqual(['C3:E6', 'A10']);
    await expect.poll(() => t.page.locator('#cell-content').textContent()).toBe(t.pg.emulator.displayValues('Clientes', 'A10')[0][0]);
  });

  it('schedules the report in Relatórios and runs it when the playground advances the clock', async () => {
    await clickMenu(t.page, 'Relatórios');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Relatórios');
    const card = sidebar(t.page).locator('[data-report="Clientes"]');
    await card.getByRole('button', { name: 'Agendar' }).click();
    await card.getByLabel('Frequência').selectOption('hourly');
    await card.getByRole('button', { name: 'Salvar agendamento' }).click();
    await expect.poll(() => t.page.locator('#pg-triggers').textContent()).toContain('runScheduledReports');
    expect(t.pg.emulator.triggers.triggers.map((tr) => tr.handler)).toEqual(['runScheduledReports']);

    const before = t.pg.emulator.history.length;
    await t.page.getByRole('button', { name: 'Avançar 1 hora' }).click();
    await expect.poll(() => t.page.locator('#pg-result').textContent()).toBe('1 execução de gatilho.');
    const fired = t.pg.emulator.history.slice(before).filter((r) => r.kind === 'trigger');
    expect(fired.map((r) => [r.functionName, r.status])).toEqual([['runScheduledReports', 'ok']]);
    await screenshot(t.page, 'relatorios-agendado');
  });

  it('"Editar" in Relatórios replaces the sidebar with Importar on that report', async () => {
    const card = sidebar(t.page).locator('[data-report="Clientes"]');
    await card.getByRole('button', { name: 'Editar' }).click();
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Importar dados');
    await expect.poll(() => sidebar(t.page).locator('#title').textContent()).toBe('Editar "Clientes"');
    expect(await t.page.locator('#sidebar iframe').count()).toBe(1);
  });

  it('marks a sheet whose import failed with an amber tab', async () => {
    await t.pg.sandbox.configure({ faults: [{ pathPrefix: '/v2/faturamento', kind: 'status', status: 500 }] });
    try {
      await clickMenu(t.page, 'Importar dados…');
      const sb = sidebar(t.page);
      await sb.getByLabel('O que importar').selectOption({ label: 'Faturas' });
      await sb.getByRole('button', { name: 'Importar', exact: true }).click();
      await expect.poll(() => sb.locator('#result').textContent(), { timeout: 30_000 }).toMatch(/^Falhou/);
    } finally {
      await t.pg.sandbox.configure({ faults: [] });
    }
    const color = sheetModel('Faturas')?.tabColor;
    expect(color).toMatch(/^#[0-9a-f]{6}$/i);
    await expect.poll(() => tab(t.page, 'Faturas').getAttribute('data-tab-color')).toBe(color);
    expect(
      await tab(t.page, 'Faturas')
        .locator('.tab-color')
        .evaluate((el) => getComputedStyle(el).backgroundColor),
    ).not.toBe('rgba(0, 0, 0, 0)');
    expect(await tab(t.page, 'Clientes').getAttribute('data-tab-color')).toBeNull();
  });
});
