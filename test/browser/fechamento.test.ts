/**
 * Fechamento da competência in the browser: a user imports invoices and notes,
 * builds the close of 10/2026 from the Painéis menu (the panel makes its own
 * charges report, saved like any other), follows a
 * conference line (Ver linhas) to exactly its rows on the invoices sheet, and
 * issues the NFS-e of the invoices it lists through Lançamentos em lote, after
 * the confirmation.
 */
import { describe, expect, it } from 'vitest';
import { columnLetters } from '../../dev/gas/a1';
import { clickMenu, screenshot, sidebar, sidebarTitle, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();
type Rec = Record<string, any>;

/** Sheet rows the current selection covers. */
const selectedRows = () =>
  t.pg.emulator.spreadsheet.selection!.ranges.flatMap((a1) => {
    const [from, to] = a1.replace(/[A-Z]/g, '').split(':').map(Number);
    return Array.from({ length: (to ?? from) - from + 1 }, (_, i) => from + i);
  });

describe('Fechamento da competência', () => {
  it('is built from the Painéis menu; Ver linhas selects a line’s rows; its Faturas sem NFS-e are issued after the confirmation', async () => {
    for (const [listing, sheet] of [
      ['Faturas', 'Faturas'],
      ['NFS-e', 'Notas'],
    ]) {
      await clickMenu(t.page, 'Importar dados…');
      await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Importar dados');
      const imp = sidebar(t.page);
      await imp.getByLabel('O que importar').selectOption({ label: listing });
      await imp.getByLabel('Nome da nova aba').fill(sheet);
      await imp.getByLabel('Nome do relatório').fill(sheet);
      await imp.getByRole('button', { name: 'Importar', exact: true }).click();
      await expect.poll(() => imp.locator('#result').textContent(), { timeout: 30_000 }).toMatch(/^Pronto: \d+ linhas/);
    }
    const org = t.pg.sandbox.orgs[0].name;
    const [invoices, notesBefore] = await Promise.all([t.pg.sandbox.dump<Rec>(org, 'faturas'), t.pg.sandbox.dump<Rec>(org, 'nfse')]);
    // Only a note the interface names as issued is an invoice's note: an invoice whose only note was cancelled has none.
    const issued = new Set(notesBefore.filter((n) => ['AUTORIZADA', 'EMITIDA'].includes(n.statusNotaFiscalServico)).map((n) => n.idFatura));
    const missing = invoices.filter((f) => f.competencia === '10/2026' && f.statusFatura !== 'CANCELADA' && !issued.has(f.idFatura));
    // The sandbox refuses a note for an invoice that has one, cancelled or not: those come back as already there.
    const refused = missing.filter((f) => notesBefore.some((n) => n.idFatura === f.idFatura));
    const sent = missing.filter((f) => !refused.includes(f));
    expect(missing.length).toBeGreaterThan(0);

    await clickMenu(t.page, 'Painéis');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Painéis');
    const sb = sidebar(t.page);
    await sb.getByLabel('Painel', { exact: true }).selectOption({ label: 'Fechamento da competência' });
    await sb.getByLabel('Relatório de origem').selectOption({ label: 'Faturas' });
    await sb.getByLabel('Relatório de NFS-e para comparar').selectOption({ label: 'Notas' });
    await sb.getByLabel('Relatório de cobranças').selectOption({ label: 'Criar um relatório para o painel (todas as cobranças)' });
    // Last month, in the spreadsheet's zone, unless the user types another.
    expect(await sb.getByLabel('Competência (MM/AAAA)').inputValue()).toBe('10/2026');
    await sb.getByRole('button', { name: 'Criar painel' }).click();
    await expect.poll(() => sb.locator('#status').textContent(), { timeout: 30_000 }).toMatch(/Painel "Fechamento da competência" criado/);
    expect(await t.page.locator('#tabs [role="tab"][aria-selected="true"]').textContent()).toContain('Painel · Fechamento da competência');
    const card = sb.locator('[data-dashboard="Fechamento da competência"]');
    await expect.poll(() => card.textContent()).toMatch(/Competência: 10\/2026/);
    await expect.poll(() => card.textContent()).toMatch(/Fonte: Faturas × Notas × Fechamento 10-2026 · Cobranças/);
    // The charges report it made is a saved report like the others, with its own sheet.
    expect(t.pg.emulator.spreadsheet.byName('Fechamento 10-2026 · Cobranças')!.lastRow()).toBeGreaterThan(1);
    await screenshot(t.page, 'painel-fechamento');

    // Ver linhas on "Faturas sem NFS-e": the invoices sheet is shown with exactly those rows selected.
    const line = card.locator('[data-check="sem-nfse"]');
    await line.getByRole('button', { name: 'Ver linhas' }).click();
    await expect
      .poll(() => line.locator('.notice').textContent(), { timeout: 30_000 })
      .toMatch(/Faturas sem NFS-e: \d+ linhas? selecionadas? na aba "Faturas"/);
    await expect.poll(() => t.page.locator('#tabs [role="tab"][aria-selected="true"]').textContent()).toContain('Faturas');
    const rows = selectedRows();
    const header = t.pg.emulator.values('Faturas', 'A1:Z1')[0] as string[];
    const idCol = columnLetters(header.indexOf('ID da fatura') + 1);
    const ids = rows.map((r) => Number(t.pg.emulator.values('Faturas', `${idCol}${r}:${idCol}${r}`)[0][0]));
    expect(ids.sort((a, b) => a - b)).toEqual(missing.map((f) => f.idFatura as number).sort((a, b) => a - b));

    // From the same line: Lançamentos em lote on "Emitir NFS-e", only the selected rows, sent after the confirmation.
    await line.getByRole('button', { name: 'Emitir NFS-e destas faturas' }).click();
    await expect.poll(() => sidebarTitle(t.page).textContent(), { timeout: 30_000 }).toBe('Lançamentos em lote');
    const lote = sidebar(t.page);
    await expect.poll(() => lote.getByLabel('Operação').inputValue()).toBe('emitirNfse');
    await expect.poll(() => lote.getByLabel('Só as selecionadas').isChecked()).toBe(true);
    await lote.getByRole('button', { name: 'Executar' }).click();
    await expect.poll(() => lote.locator('#confirm-text').textContent()).toMatch(new RegExp(`^Emitir NFS-e de faturas: ${missing.length} linhas? ser`));
    await lote.getByRole('button', { name: 'Confirmar envio' }).click();
    const existed = refused.length ? `, ${refused.length} já ${refused.length === 1 ? 'existia' : 'existiam'}` : '';
    await expect
      .poll(() => lote.locator('#result').textContent(), { timeout: 60_000 })
      .toBe(`Concluído: ${sent.length} ${sent.length === 1 ? 'linha enviada' : 'linhas enviadas'} com sucesso${existed}.`);
    const notesAfter = await t.pg.sandbox.dump<Rec>(org, 'nfse');
    const fresh = notesAfter.filter((n) => !notesBefore.some((b) => b.idNotaFiscalServico === n.idNotaFiscalServico));
    expect(fresh.map((n) => n.idFatura as number).sort((a, b) => a - b)).toEqual(sent.map((f) => f.idFatura as number).sort((a, b) => a - b));
  });
});
