/**
 * What the sidebars say, read in Chromium: the failure box ends its sentences
 * once and sends a colleague to "Assumir", not to the owner's buttons;
 * "Remover" names the reports that read the connection; "Criar aba modelo"
 * says it is working while it works.
 */
import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { COLLEAGUE } from '../../dev/playground/playground';
import { clickMenu, sidebar, sidebarTitle, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();
const ME = 'contador@example.com.br';
const sb = () => sidebar(t.page);

type Rec = Record<string, any>;

/** Runs a report (a new one from `listing`, or `reportId` again) to its end as `user`. */
function runAs(user: string, start: () => Rec): Rec {
  let p = start() as Rec;
  if (p.ok !== undefined) p = p.value;
  while (!p.done) p = t.pg.emulator.run('continueReportRun', [p.reportId], { user }) as Rec;
  return p;
}
const pullAs = (user: string, listing: string, name: string) =>
  runAs(user, () => t.pg.emulator.run('startImportRun', [{ connection: '', listing, sheetName: name, name, filters: {} }], { user }) as Rec);

describe('wording in the sidebars', () => {
  it('the failure box says each failure once, and tells a colleague whose report it is instead of what to click', async () => {
    const mine = pullAs(ME, 'clientes', 'Clientes');
    const hers = pullAs(COLLEAGUE, 'nfse', 'Notas dela');
    await t.pg.sandbox.configure({ faults: [{ kind: 'status', status: 400 }] });
    try {
      runAs(ME, () => t.pg.emulator.run('runReport', [mine.reportId], { user: ME }) as Rec);
      runAs(COLLEAGUE, () => t.pg.emulator.run('runReport', [hers.reportId], { user: COLLEAGUE }) as Rec);
    } finally {
      await t.pg.sandbox.configure({ faults: [] });
    }
    t.pg.touch();
    await clickMenu(t.page, 'Relatórios');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Relatórios');
    const box = sb().locator('#failures');
    await expect.poll(() => box.locator('.failure').count()).toBe(2);
    const [own, colleague] = await Promise.all(['Clientes', 'Notas dela'].map((n) => box.locator('.failure', { hasText: `"${n}"` }).textContent()));
    for (const text of [own, colleague]) expect(text).not.toMatch(/\.\./);
    expect(own).toMatch(/^"Clientes" \(execução manual em [\d/]+ [\d:]+\): .+[^.]\. Corrija os filtros e importe de novo\.$/);
    expect(colleague).toMatch(
      new RegExp(
        `^"Notas dela" \\(execução manual em [\\d/]+ [\\d:]+\\): .+[^.]\\. O relatório é de ${COLLEAGUE}: só essa pessoa o corrige, ou você o assume com uma conexão sua \\("Assumir" no cartão dele\\)\\.$`,
      ),
    );
    expect(colleague).not.toMatch(/Corrija os filtros|Trocar conexão/);
  });

  it('"Remover" names the reports that read the connection', async () => {
    await clickMenu(t.page, 'Conexões');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Conexões');
    const card = sb().locator(`[data-connection="${t.pg.connectionName}"]`);
    await card.getByRole('button', { name: 'Remover' }).click();
    await expect
      .poll(() => card.locator('.notice').last().textContent())
      .toBe(
        'O relatório "Clientes" usa esta conexão e deixará de atualizar até você escolher outra em Relatórios ("Trocar conexão"). Clique de novo para remover.',
      );
    expect(await card.getByRole('button', { name: 'Confirmar remoção' }).isVisible()).toBe(true);
  });

  it('"Criar aba modelo" says it is working while the template is made', async () => {
    let held: Route | null = null;
    await t.page.route('**/rpc', async (r) => {
      if (!held && (r.request().postDataJSON() as { functionName: string }).functionName === 'createBulkTemplate') held = r;
      else await r.continue();
    });
    await clickMenu(t.page, 'Lançamentos em lote');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Lançamentos em lote');
    await sb().getByRole('button', { name: 'Criar aba modelo' }).click();
    await expect.poll(() => held !== null).toBe(true);
    expect(await sb().locator('#result').textContent()).toBe('Criando a aba modelo com os títulos, formatos e listas de opções… pode levar alguns segundos.');
    await (held as Route | null)?.continue();
    await t.page.unroute('**/rpc');
    await expect.poll(() => sb().locator('#result').textContent()).toMatch(/^Aba ".+" criada/);
  });
});
