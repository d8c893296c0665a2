/**
 * What the sidebars say, read in Chromium as a person reads it: a count of one
 * in the singular (import result, Relatórios card), cards that break lines
 * between words, the Lote template's notes and Mensagem width, and a new
 * preview that shows no stale progress of the last run, with its verbs agreeing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { cell, clickMenu, readGrid, sidebar, sidebarTitle, usePlaygroundPage } from './helpers';

type Rec = Record<string, any>;

const t = usePlaygroundPage();
const sb = () => sidebar(t.page);
const org = () => t.pg.sandbox.orgs[0].name;
const SHEET = 'Lote · Assinaturas personalizadas';

/** Words of an element's text that the browser laid out over two lines though they fit on one. */
function brokenWords(el: Element): string[] {
  const out: string[] = [];
  const width = el.getBoundingClientRect().width;
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    for (const m of text.matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index ?? 0);
      range.setEnd(node, (m.index ?? 0) + m[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      const lines = new Set(rects.map((r) => Math.round(r.top)));
      if (lines.size > 1 && range.getBoundingClientRect().width < width) out.push(m[0]);
    }
  }
  return out;
}

describe('counts of one, and cards that break between words', () => {
  it('an import of one customer says "Pronto: 1 linha", and its card says "1 linha" without cutting a word', async () => {
    const [one] = await t.pg.sandbox.dump<Rec>(org(), 'clientes');
    await clickMenu(t.page, 'Importar dados…');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Importar dados');
    await sb().getByLabel('O que importar').selectOption({ label: 'Clientes' });
    await sb().getByLabel('Nome da nova aba').fill('Um cliente com nome de aba bem comprido para a linha');
    await sb().getByLabel('ID do cliente').fill(String(one.idCliente));
    await sb().getByRole('button', { name: 'Importar', exact: true }).click();
    await expect
      .poll(() => sb().locator('#result').textContent(), { timeout: 30_000 })
      .toBe('Pronto: 1 linha em "Um cliente com nome de aba bem comprido para a linha".');

    await clickMenu(t.page, 'Relatórios');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Relatórios');
    const card = sb().locator('.card').filter({ hasText: 'Um cliente com nome de aba' }).first();
    await expect.poll(() => card.textContent()).toMatch(/· 1 linha ·/);
    expect(await card.textContent()).not.toMatch(/\b1 linhas\b/);
    for (const meta of await card.locator('.meta').all()) expect(await meta.evaluate(brokenWords)).toEqual([]);
    expect(
      await card
        .locator('.meta')
        .first()
        .evaluate((el) => getComputedStyle(el).wordBreak),
    ).not.toBe('break-all');
  });
});

describe('Lançamentos em lote: the template and a second preview', () => {
  let clientes: number[];
  let produto: number;

  beforeAll(async () => {
    clientes = (await t.pg.sandbox.dump<Rec>(org(), 'clientes')).filter((c) => c.isAtivo).map((c) => c.idCliente as number);
    produto = (await t.pg.sandbox.dump<Rec>(org(), 'produtos'))[0].idProduto as number;
  });

  const typeRows = (a1: string, rows: string[][]) => {
    t.pg.emulator.withServices((s) => {
      const start = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(SHEET)!.getRange(a1);
      start.offset(0, 0, rows.length, rows[0].length).setValues(rows);
    });
    t.pg.touch();
  };
  const row = (key: string, day: string) => [
    key,
    String(clientes[0]),
    `${day}/11/2026`,
    '11/2026',
    'MENSAL',
    String(produto),
    'Honorários',
    '100',
    'AGRUPADA',
    '10',
  ];

  it('"ID do cliente" says either it or CPF/CNPJ (column K) will do, and Mensagem is wide enough to read', async () => {
    await clickMenu(t.page, 'Lançamentos em lote');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Lançamentos em lote');
    await sb().getByLabel('Operação').selectOption({ label: 'Criar assinaturas personalizadas' });
    await sb().getByRole('button', { name: 'Criar aba modelo' }).click();
    await expect.poll(() => sb().locator('#result').textContent()).toMatch(/criada com uma linha de exemplo.*aba "Produtos"/);
    await expect
      .poll(() => cell(t.page, 'B1').getAttribute('title'))
      .toMatch(/Preencha esta coluna ou "CPF\/CNPJ do cliente" \(coluna K\): uma das duas basta/);
    expect(await cell(t.page, 'B1').getAttribute('title')).not.toMatch(/Obrigatório/);
    expect(await readGrid(t.page, 'N1')).toEqual([['Mensagem']]);
    expect(await cell(t.page, 'N1').evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThanOrEqual(400);
  });

  it('a new preview hides the last run\'s progress, and its words agree ("ficam como estão")', async () => {
    typeRows('A3', [row('W-1', '05'), row('W-2', '06')]);
    await sb().getByRole('button', { name: 'Executar' }).click();
    await expect.poll(() => sb().locator('#confirm-text').textContent()).toMatch(/^Criar assinaturas personalizadas: 2 linhas serão enviadas/);
    await sb().getByRole('button', { name: 'Confirmar envio' }).click();
    await expect.poll(() => sb().locator('#result').textContent(), { timeout: 30_000 }).toBe('Concluído: 2 linhas enviadas com sucesso.');
    expect(await sb().locator('#progress-text').textContent()).toBe('2 de 2 linhas processadas');

    typeRows('A5', [row('W-3', '07')]);
    await sb().getByRole('button', { name: 'Executar' }).click();
    await expect
      .poll(() => sb().locator('#confirm-text').textContent())
      .toBe(
        'Criar assinaturas personalizadas: 1 linha será enviada ao serviço de faturamento. Isto não pode ser desfeito pelo complemento. 2 linhas já processadas ficam como estão.',
      );
    // Under the new preview, nothing of the last run: no "2 de 2 linhas processadas", no counts.
    expect(await sb().locator('#progress-box').isHidden()).toBe(true);
    expect(await sb().locator('#summary').isHidden()).toBe(true);
    await sb().getByRole('button', { name: 'Confirmar envio' }).click();
    await expect.poll(() => sb().locator('#result').textContent(), { timeout: 30_000 }).toMatch(/^Concluído: 1 linha enviada com sucesso, 2 já estavam OK\.$/);
    expect(await sb().locator('#progress-text').textContent()).toBe('3 de 3 linhas processadas');
  });
});
