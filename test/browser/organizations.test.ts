/**
 * Issue 24's findings on organizations, walked in the playground: "One company
 * counted twice" (a second connection to the demo organization, as an office
 * saves a new key beside the old one, doubled its rows in "Todas as minhas
 * conexões" and its aging total), and "Faturas sem NFS-e across two
 * organizations" (invoices of one company compared with NFS-e of another said
 * every invoice lacked a note).
 */
import { describe, expect, it } from 'vitest';
import { clickMenu, sidebar, sidebarTitle, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();
type Rec = Record<string, any>;
const cents = (n: number) => Math.round(n * 100);
const open = (c: Rec) => !c.isQuitado && !['CANCELADA', 'CANCELADO', 'BAIXA_POR_PERDA', 'BAIXADO'].includes(c.situacao);

async function importReport(listing: string, sheet: string, connection?: string): Promise<string> {
  await clickMenu(t.page, 'Importar dados…');
  await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Importar dados');
  const imp = sidebar(t.page);
  await imp.getByLabel('O que importar').selectOption({ label: listing });
  if (connection) await imp.getByLabel('Conexão').selectOption({ label: connection });
  await imp.getByLabel('Nome da nova aba').fill(sheet);
  await imp.getByLabel('Nome do relatório').fill(sheet);
  await imp.getByRole('button', { name: 'Importar', exact: true }).click();
  await expect.poll(() => imp.locator('#result').textContent(), { timeout: 30_000 }).toMatch(/^Pronto: /);
  return (await imp.locator('#result').textContent()) ?? '';
}

describe('organizations in the browser', () => {
  it('One company counted twice: "Todas as minhas conexões" reads the demo organization once though two connections reach it, and the aging total is its own', async () => {
    const { sandbox, emulator } = t.pg;
    const demo = sandbox.orgs[0];
    const saved = emulator.run('saveConnection', [{ name: 'Demo (chave nova)', baseUrl: sandbox.baseUrl, apiKey: (demo.otherKeys as string[])[0] }]) as Rec;
    expect(saved.ok).toBe(true);
    // The listing hides cancelled charges unless asked.
    const charges = (await sandbox.dump<Rec>(demo.name, 'cobrancas')).filter((c) => c.situacao !== 'CANCELADA');

    const result = await importReport('Cobranças e boletos', 'Cobranças', 'Todas as minhas conexões (consolidado)');
    expect(result).toBe(`Pronto: ${charges.length.toLocaleString('pt-BR')} linhas em "Cobranças".`);
    await expect.poll(() => sidebar(t.page).locator('#status').textContent()).toMatch(/contada uma vez só, pela conexão "Demo — /);

    await clickMenu(t.page, 'Painéis');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Painéis');
    const sb = sidebar(t.page);
    await sb.getByLabel('Painel', { exact: true }).selectOption({ label: 'Contas a receber por faixa de vencimento' });
    await sb.getByLabel('Relatório de origem').selectOption({ label: 'Cobranças' });
    await sb.getByRole('button', { name: 'Criar painel' }).click();
    await expect
      .poll(() => sb.locator('#status').textContent(), { timeout: 30_000 })
      .toMatch(/Painel "Contas a receber por faixa de vencimento" criado na aba "([^"]+)"/);
    const sheetName = /na aba "([^"]+)"/.exec((await sb.locator('#status').textContent()) ?? '')![1];
    const total = emulator.values(sheetName).find((r) => r[0] === 'Total') as unknown[];
    const expected = charges.filter(open).reduce((sum, c) => sum + cents(c.valor), 0);
    expect(expected).toBeGreaterThan(0);
    expect(cents(total.at(-1) as number)).toBe(expected);
  });

  it('Faturas sem NFS-e across two organizations: the panel refuses, in Portuguese, to compare invoices of one company with NFS-e of another', async () => {
    const { sandbox, emulator } = t.pg;
    const saved = emulator.run('saveConnection', [{ name: 'Ipê', baseUrl: sandbox.baseUrl, apiKey: sandbox.orgs[1].apiKey }]) as Rec;
    expect(saved.ok).toBe(true);
    await importReport('Faturas', 'Faturas', t.pg.connectionName ?? undefined);
    await importReport('NFS-e', 'Notas do Ipê', 'Ipê');

    await clickMenu(t.page, 'Painéis');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Painéis');
    const sb = sidebar(t.page);
    await sb.getByLabel('Painel', { exact: true }).selectOption({ label: 'Faturas sem NFS-e' });
    await sb.getByLabel('Relatório de origem').selectOption({ label: 'Faturas' });
    await sb.getByLabel('Relatório de NFS-e para comparar').selectOption({ label: 'Notas do Ipê' });
    await sb.getByRole('button', { name: 'Criar painel' }).click();
    const refusal = sb.locator('[data-error-for="secondReportId"]');
    await expect
      .poll(() => refusal.textContent(), { timeout: 30_000 })
      .toMatch(/^Os dois relatórios são de organizações diferentes: .*"Aurora Contabilidade Ltda".*"Ipê Assessoria Contábil S\/S"/);
    expect(await sb.getByRole('button', { name: 'Emitir NFS-e destas faturas' }).count()).toBe(0);
    expect(emulator.sheetNames().some((name) => name.startsWith('Painel · Faturas sem NFS-e'))).toBe(false);
  });
});
