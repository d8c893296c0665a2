/**
 * Products picked by name, through the bundle in the emulator against the
 * sandbox: the Produtos tab a template brings is filled by the import of
 * Assinaturas e contratos and follows each refresh of that report; a row whose
 * "ID do produto" holds a choice of its list creates the subscription with that
 * product. Expected products come from the sandbox's dump, not the add-on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import type { Rec } from '../core/bulk/fixtures';
import { bulkToEnd, connect, emulator, finishRun, importAll, ok } from './helpers';
import type { GasEmulator } from '../../dev/gas/runner';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 11, size: { assinaturas: 2 } });
});
afterAll(async () => {
  await sb?.stop();
});

function grid(emu: GasEmulator, sheet: string): unknown[][] {
  return emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheet)!.getDataRange().getValues());
}

/** The products the sandbox's subscriptions name, as the tab should list them. */
async function products(): Promise<Array<[number, string]>> {
  const seen = new Map<number, string>();
  for (const a of await sb.dump<Rec>(sb.orgs[0].name, 'assinaturas')) if (a.idProduto) seen.set(a.idProduto as number, a.descricaoProduto as string);
  return [...seen].sort((a, b) => a[1].localeCompare(b[1], 'pt-BR') || a[0] - b[0]);
}

describe('the Produtos tab kept current by the subscriptions report', () => {
  it('fills at the import, follows a refresh, and a product picked by name is what the row sends', async () => {
    const emu = emulator();
    connect(emu, sb);
    const made = ok(emu.run('createBulkTemplate', ['criarAssinaturaPersonalizada']));
    expect(made.catalogSheets).toEqual(['Produtos']);
    expect(grid(emu, 'Produtos')[1][1]).toMatch(/^Nenhum produto ainda/);

    const first = importAll(emu, { listing: 'assinaturas', sheetName: 'Assinaturas', filters: {} });
    expect(first.status).toBe('done');
    const listed = () =>
      grid(emu, 'Produtos')
        .slice(1)
        .map((r) => [r[0], r[1]]);
    expect(listed()).toEqual(await products());

    // A new product appears in the service; the next refresh of the report brings it to the tab.
    const cat = await sb.dump<Rec>(sb.orgs[0].name, 'produtos');
    const used = new Set((await products()).map(([id]) => id));
    const fresh = cat.find((p) => !used.has(p.idProduto as number)) as Rec;
    expect(fresh).toBeDefined();
    const clientes = (await sb.dump<Rec>(sb.orgs[0].name, 'clientes')).filter((c) => c.isAtivo);
    const created = await fetch(`${sb.baseUrl}/v2/assinaturascontratos/personalizado`, {
      method: 'POST',
      headers: { 'x-api-key': sb.orgs[0].apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        idIntegracao: 'NOVO-PRODUTO',
        idCliente: clientes[0].idCliente,
        dataAdesao: '2026-11-05',
        competenciaInicial: '11/2026',
        periodicidade: 'MENSAL',
        idProduto: fresh.idProduto,
        descricaoAssinaturaContrato: 'Novo',
        valor: 10,
        formaFaturamentoAssinatura: 'AGRUPADA',
        diaVencimentoCobranca: 10,
      }),
    });
    expect(created.ok).toBe(true);
    emu.run('runReport', [first.reportId]);
    expect(finishRun(emu, first.reportId).status).toBe('done');
    expect(listed().map(([id]) => id)).toContain(fresh.idProduto);
    expect(listed()).toEqual(await products());

    // The template's column offers "id — descrição"; a row holding one sends that product.
    const [id, name] = (await products())[0];
    const sheet = made.sheetName as string;
    emu.withServices((s) => {
      const template = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheet)!;
      const rule = template.getRange('F3').getDataValidation();
      expect(rule?.getCriteriaValues()[0]).toContain(`${id} — ${name}`);
      template
        .getRange('A3:J3')
        .setValues([
          ['PICK-1', clientes[0].idCliente, '05/11/2026', '11/2026', 'MENSAL', `${id} — ${name}`, 'Escolhido pelo nome', '120', 'AGRUPADA', '10'],
        ] as never);
    });
    const p = bulkToEnd(emu, ok(emu.run('startBulkRun', [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Demo', scope: 'all' }])));
    expect(p).toMatchObject({ status: 'done', counts: { ok: 1, failed: 0 } });
    const sent = (await sb.dump<Rec>(sb.orgs[0].name, 'assinaturas')).find((a) => a.idIntegracao === 'PICK-1');
    expect(sent?.idProduto).toBe(id);
  });
});
