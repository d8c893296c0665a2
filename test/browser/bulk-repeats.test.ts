/**
 * Rows pasted twice in a bulk template, in Chromium: Validar names the rows
 * whose content repeats another's, and Executar's confirmation asks about them
 * before anything is sent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { clickMenu, sidebar, sidebarTitle, usePlaygroundPage } from './helpers';

type Rec = Record<string, any>;

const t = usePlaygroundPage();
const sb = () => sidebar(t.page);
const org = () => t.pg.sandbox.orgs[0].name;
const SHEET = 'Lote · Assinaturas personalizadas';
const posts = () => t.pg.sandbox.requestLog({ method: 'POST' });

describe('Lançamentos em lote: rows pasted twice', () => {
  let row: string[];

  beforeAll(async () => {
    const cliente = (await t.pg.sandbox.dump<Rec>(org(), 'clientes')).find((c) => c.isAtivo)?.idCliente;
    const produto = (await t.pg.sandbox.dump<Rec>(org(), 'produtos'))[0].idProduto;
    row = ['', String(cliente), '05/11/2026', '11/2026', 'MENSAL', String(produto), 'Honorários', '350', 'AGRUPADA', '10'];
  });

  it('Validar names the repeated row; Executar asks before sending it, and Voltar sends nothing', async () => {
    await clickMenu(t.page, 'Lançamentos em lote');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Lançamentos em lote');
    await sb().getByLabel('Operação').selectOption({ label: 'Criar assinaturas personalizadas' });
    await sb().getByRole('button', { name: 'Criar aba modelo' }).click();
    await expect.poll(() => sb().locator('#result').textContent()).toMatch(/^Aba ".*" criada/);
    t.pg.emulator.withServices((s) => {
      const range = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(SHEET)!.getRange('A3:J4');
      range.setValues([row, row]);
    });
    t.pg.touch();
    await t.pg.sandbox.clearLog();

    await sb().getByRole('button', { name: 'Validar' }).click();
    await expect
      .poll(() => sb().locator('#result').textContent())
      .toBe(
        '2 linhas prontas para enviar. Nada foi enviado. Conteúdo repetido: a linha 4 repete a linha 3. Cada linha cria mais um lançamento igual; se a repetição não for intencional, apague as linhas repetidas antes de enviar.',
      );
    expect(await sb().locator('#result').getAttribute('class')).toMatch(/warn/);

    await sb().getByRole('button', { name: 'Executar' }).click();
    await expect
      .poll(() => sb().locator('#confirm-text').textContent())
      .toBe(
        'Criar assinaturas personalizadas: 2 linhas serão enviadas ao serviço de faturamento. Isto não pode ser desfeito pelo complemento. Conteúdo repetido: a linha 4 repete a linha 3. Cada linha cria mais um lançamento igual; se a repetição não for intencional, apague as linhas repetidas antes de enviar. Confirme só se quiser enviar as repetidas também.',
      );
    await sb().getByRole('button', { name: 'Voltar' }).click();
    await expect.poll(() => sb().locator('#result').textContent()).toBe('Nada foi enviado.');
    expect(await posts()).toEqual([]);
  });
});
