/**
 * The accountant's walk for subscriptions named by CNPJ, in the browser only:
 * the template from the sidebar, five rows pasted into the grid with "ID do
 * cliente" left blank and the customer's CNPJ in its own column, Validar,
 * Executar, "Confirmar envio"; the sandbox's subscriptions carry the customer
 * each CNPJ names.
 */
import { describe, expect, it } from 'vitest';
import { cell, clickMenu, paste, readGrid, sidebar, sidebarTitle, tab, usePlaygroundPage } from './helpers';

type Rec = Record<string, any>;

const t = usePlaygroundPage();
const SHEET = 'Lote · Assinaturas personalizadas';
const sb = () => sidebar(t.page);
const resultText = () => sb().locator('#result').textContent();
const dump = (resource: 'clientes' | 'produtos' | 'assinaturas') => t.pg.sandbox.dump<Rec>(t.pg.sandbox.orgs[0].name, resource);
const digits = (c: Rec) => String(c.cpfCnpj).replace(/\D/g, '');
const punctuated = (d: string) => d.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');

describe('Lançamentos em lote: customers by CNPJ', () => {
  it('five subscription rows pasted with the CNPJ instead of the ID are validated, confirmed and sent to the right customers', async () => {
    const companies = (await dump('clientes')).filter((c) => c.isAtivo && digits(c).length === 14).slice(0, 5);
    expect(companies).toHaveLength(5);
    const produto = String((await dump('produtos'))[0].idProduto);

    await clickMenu(t.page, 'Lançamentos em lote');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Lançamentos em lote');
    await sb().getByLabel('Operação').selectOption({ label: 'Criar assinaturas personalizadas' });
    await sb().getByRole('button', { name: 'Criar aba modelo' }).click();
    await expect.poll(resultText).toMatch(new RegExp(`^Aba "${SHEET}" criada`));
    await expect.poll(() => tab(t.page, SHEET).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => readGrid(t.page, 'K1')).toEqual([['CPF/CNPJ do cliente']]);
    expect(await cell(t.page, 'K1').getAttribute('title')).toMatch(/^cpfCnpjCliente — CPF ou CNPJ do cliente, no lugar do ID do cliente/);

    await cell(t.page, 'A3').click();
    await expect.poll(() => t.pg.emulator.spreadsheet.selection?.ranges).toEqual(['A3']);
    const rows = companies.map((c, i) =>
      [`CNPJ-${i + 1}`, '', '05/11/2026', '11/2026', 'MENSAL', produto, 'Honorários', '200', 'AGRUPADA', '10', punctuated(digits(c))].join('\t'),
    );
    await paste(t.page, `${rows.join('\n')}\n`);
    await expect.poll(() => readGrid(t.page, 'K3:K7')).toEqual(companies.map((c) => [punctuated(digits(c))]));

    await t.pg.sandbox.clearLog();
    const lookups = async () =>
      (await t.pg.sandbox.requestLog({ method: 'GET' }))
        .filter((e) => e.path === '/v2/clientes' && e.query.cpfCnpj !== undefined)
        .map((e) => e.query.cpfCnpj)
        .sort();
    await sb().getByRole('button', { name: 'Validar' }).click();
    await expect.poll(resultText).toMatch(/5 linhas prontas para enviar/);
    expect(await t.pg.sandbox.requestLog({ method: 'POST' })).toEqual([]);
    // Validar already found each customer: digits only on the wire, one lookup per CNPJ.
    expect(await lookups()).toEqual(companies.map(digits).sort());
    await t.pg.sandbox.clearLog();

    await sb().getByRole('button', { name: 'Executar' }).click();
    await expect.poll(() => sb().locator('#confirm-text').textContent()).toMatch(/^Criar assinaturas personalizadas: 5 linhas serão enviadas/);
    expect(await t.pg.sandbox.requestLog({ method: 'POST' })).toEqual([]);
    await sb().getByRole('button', { name: 'Confirmar envio' }).click();
    await expect.poll(resultText, { timeout: 20_000 }).toBe('Concluído: 5 linhas enviadas com sucesso.');
    await expect.poll(() => readGrid(t.page, 'L3:L7')).toEqual(companies.map(() => ['OK']));

    const subs = new Map((await dump('assinaturas')).map((a) => [a.idIntegracao as string, a.idCliente]));
    expect(companies.map((_, i) => subs.get(`CNPJ-${i + 1}`))).toEqual(companies.map((c) => c.idCliente));
    // Executar checks again before the confirmation and the send looks up again (each its own run): once per CNPJ each.
    expect(await lookups()).toEqual(companies.flatMap((c) => [digits(c), digits(c)]).sort());
  });
});
