/**
 * Forms without dead ends, in the browser: a refused key is recovered from
 * without closing the sidebar, a passing 5xx offers "Continuar" and an edit to
 * the form drops it, an inverted period is refused beside its field, a long
 * import shows moving progress beside the button and stops on "Cancelar", and
 * faturas come with their items as a summable table.
 */
import { describe, expect, it } from 'vitest';
import { clickMenu, screenshot, sidebar, sidebarFrame, sidebarTitle, tab, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();

describe('Importar without dead ends', () => {
  it('recovers from a wrong key without closing the sidebar, and the failed first import leaves nothing behind', async () => {
    t.pg.emulator.run('saveConnection', [{ name: 'Chave errada', baseUrl: t.pg.sandbox.baseUrl, apiKey: 'nao-e-esta', isDefault: false }]);
    t.pg.touch();
    await clickMenu(t.page, 'Importar dados…');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Importar dados');
    const sb = sidebar(t.page);
    await sb.getByLabel('Conexão').selectOption({ label: 'Chave errada' });
    await sb.getByLabel('O que importar').selectOption({ label: 'Faturas' });
    await sb.getByRole('button', { name: 'Importar', exact: true }).click();
    // The failure shows first, then the same line once the failed first import is discarded.
    await expect.poll(() => sb.locator('#result').textContent(), { timeout: 30_000 }).toMatch(/Nada ficou na planilha/);
    const text = await sb.locator('#result').textContent();
    expect(text).toMatch(/chave de API/);
    expect(text).toMatch(/Confira a chave da conexão/);
    // Continuing cannot work after a 401: no "Continuar", the form is free.
    expect(await sb.getByRole('button', { name: 'Continuar' }).count()).toBe(0);
    expect(t.pg.emulator.sheetNames()).not.toContain('Faturas');
    expect(t.pg.emulator.run('listReports')).toEqual([]);
    await screenshot(t.page, 'importar-chave-errada');

    await sb.getByLabel('Conexão').selectOption({ label: t.pg.connectionName ?? '' });
    await sb.getByRole('checkbox', { name: 'Incluir itens' }).check();
    await sb.getByRole('button', { name: 'Importar', exact: true }).click();
    await expect.poll(() => sb.locator('#result').textContent(), { timeout: 30_000 }).toMatch(/^Pronto: \d+ linhas em "Faturas"\.$/);
    // The imported sheet is the one on screen, and its items are a table of numbers.
    await expect.poll(() => tab(t.page, 'Faturas').getAttribute('aria-selected')).toBe('true');
    const items = t.pg.emulator.values('Faturas · Itens');
    const header = items[0].map(String);
    const total = header.indexOf('Valor total');
    expect(total).toBeGreaterThan(0);
    expect(items.slice(1).every((r) => typeof r[total] === 'number')).toBe(true);
  });

  it('offers "Continuar" after a 5xx, and an edit to the form starts over with the form as it is', async () => {
    const sb = sidebar(t.page);
    await t.pg.sandbox.configure({ faults: [{ pathPrefix: '/v2/nfse', kind: 'status', status: 503 }] });
    try {
      await sb.getByLabel('O que importar').selectOption({ label: 'NFS-e' });
      await sb.getByRole('button', { name: 'Importar', exact: true }).click();
      await expect.poll(() => sb.locator('#result').textContent(), { timeout: 30_000 }).toMatch(/use "Continuar"/);
      await sb.getByRole('button', { name: 'Continuar' }).waitFor();
    } finally {
      await t.pg.sandbox.configure({ faults: [] });
    }
    await sb.getByLabel('Nome do relatório').fill('Notas do mês');
    await sb.getByRole('button', { name: 'Importar', exact: true }).waitFor();
    expect(await sb.getByRole('button', { name: 'Continuar' }).count()).toBe(0);
  });

  it('refuses an inverted period beside its field before sending', async () => {
    const sb = sidebar(t.page);
    await sb.getByLabel('O que importar').selectOption({ label: 'Cobranças e boletos' });
    await sb.getByLabel('Vencimento a partir de: tipo').selectOption({ label: 'Data fixa' });
    await sb.locator('input[name="vencimentoInicial"]').fill('2026-10-31');
    await sb.getByLabel('Vencimento até: tipo').selectOption({ label: 'Data fixa' });
    await sb.locator('input[name="vencimentoFinal"]').fill('2026-10-01');
    await sb.getByRole('button', { name: 'Importar', exact: true }).click();
    await expect.poll(() => sb.locator('[data-error-for="vencimentoFinal"]').textContent()).toMatch(/anterior ao início/);
    expect(t.pg.emulator.sheetNames()).not.toContain('Cobranças e boletos');
  });

  it('a long import shows moving progress beside the button and stops on "Cancelar"', async () => {
    await t.pg.sandbox.reset({ size: { faturas: 10_000, clientes: 50, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
    // A slow service, as over the internet: the pull takes several steps.
    await t.pg.sandbox.configure({ faults: [{ pathPrefix: '/v2/faturamento', kind: 'latency', ms: 1000 }] });
    await clickMenu(t.page, 'Importar dados…');
    const sb = sidebar(t.page);
    await sb.getByLabel('O que importar').selectOption({ label: 'Faturas' });
    await sb.getByLabel('Nome da nova aba').fill('Faturas grandes');
    // The emulator runs each step on this test's own thread, so Playwright gets few chances while the pull runs:
    // the sidebar itself records what the progress line showed and clicks "Cancelar" once it has moved twice.
    const frame = await sidebarFrame(t.page);
    await frame.evaluate(() => {
      const w = window as unknown as { seen: string[] };
      w.seen = [];
      const line = document.getElementById('progress-text')!;
      new MutationObserver(() => {
        const text = line.textContent ?? '';
        if (!/^Importando….* de [\d.]+ linhas/.test(text) || w.seen.includes(text)) return;
        w.seen.push(text);
        if (w.seen.length === 2) [...document.querySelectorAll('button')].find((b) => b.textContent === 'Cancelar')?.click();
      }).observe(line, { childList: true, characterData: true, subtree: true });
    });
    await sb.getByRole('button', { name: 'Importar', exact: true }).click();
    await expect.poll(() => sb.locator('#result').textContent(), { timeout: 100_000 }).toMatch(/^Cancelado com [\d.]+ linhas gravadas/);
    const seen = (await frame.evaluate(() => (window as unknown as { seen: string[] }).seen)) as string[];
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen[0]).toMatch(/^Importando… (?:1 página|\d+ páginas), [\d.]+ de 10\.000 linhas; faltam cerca de \d+/);
    await screenshot(t.page, 'importar-cancelado');
    const written = t.pg.emulator.values('Faturas grandes').length - 1;
    expect(written).toBeLessThan(10_000);
    expect(String(t.pg.emulator.values('Faturas grandes')[0][0])).toMatch(/^⚠ INCOMPLETO/);
    // A cancelled import can go on from where it stopped.
    await expect.poll(() => sb.getByRole('button', { name: 'Continuar', exact: true }).isEnabled()).toBe(true);
    await t.pg.sandbox.configure({ faults: [] });
  }, 150_000);
});
