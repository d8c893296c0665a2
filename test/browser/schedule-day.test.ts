/**
 * A daily report in the playground: "Avançar 1 dia" runs the hourly trigger at
 * every hour it passes, so the report due that day runs; the open Relatórios
 * sidebar shows the run without being reopened, and a scheduled failure is
 * summarised at the top with what to do.
 */
import { describe, expect, it } from 'vitest';
import { clickMenu, screenshot, sidebar, sidebarTitle, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();

describe('a daily report', () => {
  it('runs after "Avançar 1 dia" and the open sidebar shows it', async () => {
    await clickMenu(t.page, 'Importar dados…');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Importar dados');
    const form = sidebar(t.page);
    await form.getByLabel('O que importar').selectOption({ label: 'NFS-e' });
    await form.getByRole('button', { name: 'Importar', exact: true }).click();
    await expect.poll(() => form.locator('#result').textContent(), { timeout: 30_000 }).toMatch(/^Pronto/);

    await clickMenu(t.page, 'Relatórios');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Relatórios');
    const card = sidebar(t.page).locator('[data-report="NFS-e"]');
    await card.getByRole('button', { name: 'Agendar' }).click();
    await card.getByLabel('Frequência').selectOption({ label: 'Diariamente' });
    await card.getByLabel('Hora do dia (0 a 23)').fill('7');
    await card.getByLabel('Avisar por e-mail quando uma atualização agendada falhar').check();
    await card.getByRole('button', { name: 'Salvar agendamento' }).click();
    await expect.poll(() => card.textContent()).toMatch(/Agendado/);
    await expect.poll(() => card.textContent()).toMatch(/Última execução manual/);

    await t.page.getByRole('button', { name: 'Avançar 1 dia' }).click();
    await expect.poll(() => t.page.locator('#pg-result').textContent()).toMatch(/^2\d execuções de gatilho\.$/);
    const reports = t.pg.emulator.run('listReports') as Array<{ name: string; lastRun: { origin: string; result: string } }>;
    expect(reports.find((r) => r.name === 'NFS-e')?.lastRun).toMatchObject({ origin: 'agendado', result: 'ok' });
    // The sidebar asks again when it gets focus: no need to reopen it.
    await sidebar(t.page).locator('h1').click();
    await expect.poll(() => card.textContent(), { timeout: 40_000 }).toMatch(/Última execução agendada/);
    await screenshot(t.page, 'relatorios-diario');
  });

  it('a scheduled failure shows at the top with what to do', async () => {
    await t.pg.sandbox.configure({ faults: [{ pathPrefix: '/v2/nfse', kind: 'status', status: 400 }] });
    try {
      await t.page.getByRole('button', { name: 'Avançar 1 dia' }).click();
      await expect.poll(() => t.page.locator('#pg-result').textContent()).toMatch(/execuç/);
    } finally {
      await t.pg.sandbox.configure({ faults: [] });
    }
    await sidebar(t.page).locator('h1').click();
    const top = sidebar(t.page).locator('#failures');
    await expect.poll(() => top.textContent(), { timeout: 40_000 }).toMatch(/1 relatório com falha/);
    expect(await top.textContent()).toMatch(/"NFS-e" \(execução agendada em [\d/]+ [\d:]+\): .*Corrija os filtros/);
    // The e-mail the failure sent is in the playground's outbox.
    await expect.poll(() => t.page.locator('#pg-mail-summary').textContent()).toBe('E-mails enviados (1)');
    await t.page.locator('#pg-mail-summary').click();
    expect(await t.page.locator('#pg-mail-list .mail').textContent()).toMatch(/Falha no relatório "NFS-e"/);
    await t.page.locator('#pg-mail-summary').click();
    // The demo organizations' keys, for adding a second connection, only when asked.
    expect(await t.page.content()).not.toContain(t.pg.sandbox.orgs[1].apiKey);
    await t.page.getByText('Chaves de demonstração').click();
    await expect.poll(() => t.page.locator('#pg-keys-list').textContent()).toContain(t.pg.sandbox.orgs[1].apiKey);
    await t.page.getByText('Chaves de demonstração').click();
  });

  it('a report whose connection was deleted offers "Trocar conexão" in place', async () => {
    const org = t.pg.sandbox.orgs[1];
    t.pg.emulator.run('saveConnection', [{ name: 'Segunda empresa', baseUrl: t.pg.sandbox.baseUrl, apiKey: org.apiKey, isDefault: false }]);
    const first = (t.pg.emulator.run('listConnections') as Array<{ id: string; name: string }>).find((c) => c.name === t.pg.connectionName)!;
    t.pg.emulator.run('removeConnection', [first.id]);
    t.pg.touch();
    await clickMenu(t.page, 'Relatórios');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Relatórios');
    const card = sidebar(t.page).locator('[data-report="NFS-e"]');
    await expect.poll(() => card.textContent()).toMatch(/A conexão ".*" não existe mais para você\. Escolha outra:/);
    await card.getByLabel('Nova conexão de "NFS-e"').selectOption({ label: 'Segunda empresa' });
    await card.getByRole('button', { name: 'Trocar conexão' }).click();
    await expect.poll(() => card.textContent()).toMatch(/conexão Segunda empresa/);
    expect(await card.getByRole('button', { name: 'Trocar conexão' }).count()).toBe(0);
    const reports = t.pg.emulator.run('listReports') as Array<{ name: string; connection: string }>;
    expect(reports.find((r) => r.name === 'NFS-e')?.connection).toBe('Segunda empresa');
  });
});
