/**
 * Lançamentos em lote closed mid-run, in Chromium: the hourly run finishes
 * the lot, and the sidebar opened again says how it ended, when, and whose.
 */
import { describe, expect, it } from 'vitest';
import { clickMenu, sidebar, sidebarTitle, usePlaygroundPage } from './helpers';

type Rec = Record<string, any>;

const t = usePlaygroundPage();
const sb = () => sidebar(t.page);
const org = () => t.pg.sandbox.orgs[0].name;

describe('Lançamentos em lote opened again after the run ended without it', () => {
  it('shows how the last run ended, when and whose, with its counts', async () => {
    const emu = t.pg.emulator;
    const cliente = (await t.pg.sandbox.dump<Rec>(org(), 'clientes')).find((c) => c.isAtivo)?.idCliente;
    const produto = (await t.pg.sandbox.dump<Rec>(org(), 'produtos'))[0].idProduto;
    const sheet = (emu.run('createBulkTemplate', ['criarAssinaturaPersonalizada']) as Rec).value.sheetName as string;
    emu.withServices((s) => {
      const rows = Array.from({ length: 12 }, (_, i) => ['', cliente, '05/11/2026', '11/2026', 'MENSAL', produto, `Reaberto ${i}`, 50, 'AGRUPADA', 10]);
      s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheet)!.getRange(3, 1, rows.length, rows[0].length).setValues(rows);
    });
    // One short step from the sidebar, which is then closed: the hourly run finishes the lot.
    const first = emu.run(
      'startBulkRun',
      [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: t.pg.connectionName, scope: 'all', batchSize: 5, stepSeconds: 5 }],
      { costs: { urlFetchCallMs: 3000 } },
    ) as Rec;
    expect(first.value.done).toBe(false);
    emu.now += 10 * 60_000;
    emu.run('runScheduledReports', [], { kind: 'trigger' });
    t.pg.touch();

    await clickMenu(t.page, 'Lançamentos em lote');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Lançamentos em lote');
    await expect
      .poll(() => sb().locator('#status').textContent())
      .toMatch(
        new RegExp(
          `^Último lote: Criar assinaturas personalizadas na aba "${sheet}", terminado em \\d\\d/\\d\\d/\\d{4} \\d\\d:\\d\\d \\(iniciado por [^@ ]+@[^ ]+\\)\\. Cada lote também fica registrado na aba Histórico\\.$`,
        ),
      );
    expect(await sb().locator('#progress-text').textContent()).toBe('12 de 12 linhas processadas');
    expect(await sb().locator('#result').textContent()).toBe('Concluído: 12 linhas enviadas com sucesso.');
    expect(await sb().locator('#summary li').first().textContent()).toBe('Enviadas com sucesso: 12');
  });
});
