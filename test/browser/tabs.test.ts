/**
 * Two findings of the accountant's walk, in the browser: "Two reports in one
 * tab" (Importar › Aba offered another report's child tab and the Diagnóstico)
 * and "A cancelled import poisons the next refresh" (after Cancelar during the
 * first step, the report's next Atualizar cancelled itself after one page,
 * twice in a row).
 */
import { describe, expect, it } from 'vitest';
import { clickMenu, sidebar, sidebarFrame, sidebarTitle, tab, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();

describe('a tab belongs to one report', () => {
  it("Importar › Aba offers neither another report's child tabs nor the add-on's own sheets", async () => {
    const started = t.pg.emulator.run('startImportRun', [
      { connection: t.pg.connectionName, listing: 'faturas', name: 'Faturas', sheetName: 'Faturas', filters: { isListarItens: true } },
    ]) as { ok: boolean; value: { reportId: string; done: boolean } };
    expect(started.ok).toBe(true);
    for (let p = started.value; !p.done; ) p = t.pg.emulator.run('continueReportRun', [p.reportId]) as typeof p;
    t.pg.emulator.run('runDiagnostics');
    t.pg.touch();
    expect(t.pg.emulator.sheetNames()).toEqual(expect.arrayContaining(['Faturas · Itens', 'Diagnóstico', 'Histórico']));
    await clickMenu(t.page, 'Importar dados…');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Importar dados');
    const sb = sidebar(t.page);
    await sb.getByLabel('O que importar').selectOption({ label: 'NFS-e' });
    const offered = await sb.locator('#f-target option').allTextContents();
    expect(offered[0]).toBe('Nova aba…');
    for (const name of ['Faturas', 'Faturas · Itens', 'Diagnóstico', 'Histórico', 'Faturamento · dados']) expect(offered).not.toContain(`Substituir "${name}"`);
    // Typing the child tab's name as a new tab is refused beside the field, and nothing is written.
    const items = JSON.stringify(t.pg.emulator.values('Faturas · Itens'));
    await sb.getByLabel('Nome da nova aba').fill('Faturas · Itens');
    await sb.getByRole('button', { name: 'Importar', exact: true }).click();
    await expect.poll(() => sb.locator('#result').textContent()).toMatch(/Já existe uma aba "Faturas · Itens"|aba ligada/);
    expect(JSON.stringify(t.pg.emulator.values('Faturas · Itens'))).toBe(items);
  });
});

describe('a cancel ends its own run only', () => {
  it("after Cancelar during the first step the user is on the report's tab, and the next two refreshes run to the end; the progress stays in sight", async () => {
    await t.pg.sandbox.reset({ size: { faturas: 3_000, clientes: 50, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
    // A slow service, as over the internet: each step waits seconds for its pages.
    await t.pg.sandbox.configure({ faults: [{ pathPrefix: '/v2/faturamento', kind: 'latency', ms: 1000 }] });
    try {
      await clickMenu(t.page, 'Importar dados…');
      const sb = sidebar(t.page);
      await sb.getByLabel('O que importar').selectOption({ label: 'Faturas' });
      await sb.getByRole('checkbox', { name: 'Incluir itens' }).check();
      await sb.getByLabel('Nome do relatório').fill('Faturas do ano');
      await sb.getByLabel('Nome da nova aba').fill('Faturas do ano');
      // The sidebar records whether the progress line was in sight, and cancels as soon as the run has begun: during its first step.
      const frame = await sidebarFrame(t.page);
      await frame.evaluate(() => {
        const w = window as unknown as { inSight: boolean[] };
        w.inSight = [];
        const line = document.getElementById('progress-text')!;
        const observer = new MutationObserver(() => {
          const box = line.getBoundingClientRect();
          w.inSight.push(box.top >= 0 && box.bottom <= window.innerHeight);
          if (!/^Importando…/.test(line.textContent ?? '')) return;
          observer.disconnect();
          [...document.querySelectorAll('button')].find((b) => b.textContent === 'Cancelar')?.click();
        });
        observer.observe(line, { childList: true, characterData: true, subtree: true });
      });
      await sb.getByRole('button', { name: 'Importar', exact: true }).click();
      await expect.poll(() => sb.locator('#result').textContent(), { timeout: 60_000 }).toMatch(/^Cancelado com [\d.]+ linhas gravadas/);
      // The long form of Faturas did not push the progress below the fold.
      expect(await frame.evaluate(() => (window as unknown as { inSight: boolean[] }).inSight)).toEqual([true, true]);
      // The user lands on the report's own tab, not on the child tab written last.
      await expect.poll(() => tab(t.page, 'Faturas do ano').getAttribute('aria-selected')).toBe('true');

      await t.pg.sandbox.configure({ faults: [] });
      await clickMenu(t.page, 'Relatórios');
      await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Relatórios');
      const card = sidebar(t.page).locator('.card[data-report="Faturas do ano"]');
      for (const round of [1, 2]) {
        await card.getByRole('button', { name: 'Atualizar' }).click();
        await expect.poll(() => card.locator('.notice').last().textContent(), { timeout: 90_000 }).toMatch(/Pronto|Cancelado|Falhou/);
        expect(await card.locator('.notice').last().textContent(), `refresh ${round}`).toMatch(/^Faturas do ano: Pronto: 3\.000 linhas/);
      }
    } finally {
      await t.pg.sandbox.configure({ faults: [] });
    }
  }, 240_000);
});
