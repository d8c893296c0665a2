/**
 * A shared document in the playground: two editors with connections to
 * different demo organizations. Each sees whose report is whose in
 * Relatórios; the colleague switches in with the user picker, takes a report
 * over with her own connection, and the next scheduled run pulls from her
 * organization, as the sandbox's own records show.
 */
import { describe, expect, it } from 'vitest';
import { COLLEAGUE } from '../../dev/playground/playground';
import { clickMenu, screenshot, sidebar, sidebarTitle, usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();
const ME = 'contador@example.com.br';

type Rec = Record<string, any>;

/** Customer ids in the Clientes sheet, as the emulator holds them. */
function pulledIds(): number[] {
  const [header, ...rows] = t.pg.emulator.values('Clientes') as unknown[][];
  const notes = t.pg.emulator.spreadsheet.byName('Clientes')!;
  const col = Array.from({ length: header.length }, (_, i) => notes.cell(1, i + 1)?.note).indexOf('idCliente');
  return rows.map((r) => Number(r[col])).sort((a, b) => a - b);
}

async function customerIds(org: number): Promise<number[]> {
  return (await t.pg.sandbox.dump<Rec>(t.pg.sandbox.orgs[org].name, 'clientes')).map((c) => c.idCliente as number).sort((a, b) => a - b);
}

function pullAs(user: string, listing: string, sheetName: string): void {
  const started = t.pg.emulator.run('startImportRun', [{ connection: '', listing, sheetName, name: sheetName, filters: {} }], { user }) as Rec;
  expect(started.ok).toBe(true);
  let p = started.value as Rec;
  while (!p.done) p = t.pg.emulator.run('continueReportRun', [p.reportId], { user }) as Rec;
  expect(p.status).toBe('done');
}

describe('a shared document in the playground', () => {
  it('each editor sees whose report is whose; the colleague takes one over and the next scheduled run uses her connection', async () => {
    // Each editor has their own report, through their own default connection.
    pullAs(ME, 'clientes', 'Clientes');
    pullAs(COLLEAGUE, 'nfse', 'NFS-e');
    const mine = (t.pg.emulator.run('listReports') as Rec[]).find((r) => r.name === 'Clientes')!;
    expect((t.pg.emulator.run('setReportSchedule', [mine.id, { kind: 'hourly' }, false]) as Rec).ok).toBe(true);
    expect(pulledIds()).toEqual(await customerIds(0));
    t.pg.touch();

    await clickMenu(t.page, 'Relatórios');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Relatórios');
    const sb = sidebar(t.page);
    await expect.poll(() => sb.locator('[data-report="Clientes"] .owner').textContent()).toBe(`Seu (${ME})`);
    await expect.poll(() => sb.locator('[data-report="NFS-e"] .owner').textContent()).toMatch(new RegExp(`^De ${COLLEAGUE}`));
    // Someone else's report offers only "Assumir".
    expect(await sb.locator('[data-report="NFS-e"]').getByRole('button').allTextContents()).toEqual(['Assumir']);
    await screenshot(t.page, 'relatorios-donos');

    // The colleague sits down at the same document.
    await t.page.getByLabel('Usuário atual').selectOption(COLLEAGUE);
    await expect.poll(() => t.page.locator('#pg-result').textContent()).toBe(`Agora você é ${COLLEAGUE}.`);
    await expect.poll(() => t.page.locator('#sidebar').isHidden()).toBe(true);
    await clickMenu(t.page, 'Relatórios');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Relatórios');
    const hers = sidebar(t.page);
    await expect.poll(() => hers.locator('[data-report="NFS-e"] .owner').textContent()).toBe(`Seu (${COLLEAGUE})`);
    const card = hers.locator('[data-report="Clientes"]');
    await expect.poll(() => card.locator('.owner').textContent()).toMatch(new RegExp(`^De ${ME}`));
    await card.getByRole('button', { name: 'Assumir' }).click();
    const own = t.pg.emulator.run('listConnections', [], { user: COLLEAGUE }) as Rec[];
    await expect.poll(() => card.getByLabel('Sua conexão').locator('option').allTextContents()).toEqual(own.map((c) => c.name));
    await card.getByRole('button', { name: 'Assumir com esta conexão' }).click();
    await expect.poll(() => hers.locator('[data-report="Clientes"] .owner').textContent()).toBe(`Seu (${COLLEAGUE})`);
    await expect.poll(() => hers.locator('#status').textContent()).toContain('agora é seu');
    // She now has a trigger of her own for it; the first editor's went with his last schedule.
    expect(t.pg.emulator.triggers.triggers.map((tr) => tr.owner)).toContain(COLLEAGUE);
    await screenshot(t.page, 'relatorios-assumido');

    await t.pg.sandbox.clearLog();
    await t.page.getByRole('button', { name: 'Avançar 1 hora' }).click();
    await expect.poll(() => t.page.locator('#pg-result').textContent(), { timeout: 30_000 }).toMatch(/execuç(ão|ões) de gatilho\.$/);
    // The scheduled run pulled from her organization, and only from it.
    const log = await t.pg.sandbox.requestLog();
    expect(log.length).toBeGreaterThan(0);
    expect(new Set(log.map((e) => e.org))).toEqual(new Set([t.pg.sandbox.orgs[1].name]));
    expect(pulledIds()).toEqual(await customerIds(1));
    const after = (t.pg.emulator.run('listReports', [], { user: COLLEAGUE }) as Rec[]).find((r) => r.name === 'Clientes')!;
    expect(after).toMatchObject({ owner: COLLEAGUE, mine: true, lastRun: { origin: 'agendado', result: 'ok' } });
  });
});
