/**
 * The Importar progress line on a slow service, in the browser: it moves while
 * the import runs (at least two different texts before it ends), so the person
 * sees the work go on rather than one line that stays until "Pronto".
 */
import { describe, expect, it } from 'vitest';
import { clickMenu, sidebar, sidebarFrame, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();

describe('Importar on a slow service', () => {
  it('the progress line moves before the import ends: two different texts at least, then "Pronto"', async () => {
    await t.pg.sandbox.reset({ size: { faturas: 3_000, clientes: 50, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
    // A second per request, as over a slow connection: the pull takes several steps.
    await t.pg.sandbox.configure({ faults: [{ pathPrefix: '/v2/faturamento', kind: 'latency', ms: 1000 }] });
    try {
      await clickMenu(t.page, 'Importar dados…');
      const sb = sidebar(t.page);
      await sb.getByLabel('O que importar').selectOption({ label: 'Faturas' });
      await sb.getByLabel('Nome da nova aba').fill('Faturas lentas');
      // Each step runs on this test's own thread, so Playwright gets few chances while the pull runs:
      // the sidebar itself records every text the progress line shows, and when the result says the import ended.
      const frame = await sidebarFrame(t.page);
      await frame.evaluate(() => {
        const w = window as unknown as { seen: string[]; endedAfter: number | null };
        w.seen = [];
        w.endedAfter = null;
        const line = document.getElementById('progress-text')!;
        const result = document.getElementById('result')!;
        new MutationObserver(() => {
          const text = line.textContent ?? '';
          if (w.endedAfter === null && /^Importando…/.test(text) && !w.seen.includes(text)) w.seen.push(text);
        }).observe(line, { childList: true, characterData: true, subtree: true });
        new MutationObserver(() => {
          if (w.endedAfter === null && /^Pronto:/.test(result.textContent ?? '')) w.endedAfter = w.seen.length;
        }).observe(result, { childList: true, characterData: true, subtree: true });
      });
      await sb.getByRole('button', { name: 'Importar', exact: true }).click();
      await expect.poll(() => sb.locator('#result').textContent(), { timeout: 100_000 }).toMatch(/^Pronto: 3\.000 linhas em "Faturas lentas"\.$/);
      const { seen, endedAfter } = await frame.evaluate(() => {
        const w = window as unknown as { seen: string[]; endedAfter: number | null };
        return { seen: w.seen, endedAfter: w.endedAfter };
      });
      expect(endedAfter).toBe(seen.length);
      expect(seen.length).toBeGreaterThanOrEqual(2);
      for (const text of seen) expect(text).toMatch(/^Importando… (?:1 página|\d+ páginas), /);
      // The rows read so far, as the line said them: at least two different counts, each more than the one before.
      const counts = seen.flatMap((text) => /([\d.]+) de 3\.000 linhas/.exec(text)?.[1].replace(/\./g, '') ?? []).map(Number);
      const moves = [...new Set(counts)];
      expect(moves.length).toBeGreaterThanOrEqual(2);
      expect(moves).toEqual([...moves].sort((a, b) => a - b));
      expect(moves.every((n) => n < 3_000)).toBe(true);
    } finally {
      await t.pg.sandbox.configure({ faults: [] });
    }
  }, 150_000);
});
