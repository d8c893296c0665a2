/** Shared steps of the edit-push tests: subscriptions made through the service, the imported sheet as a user edits it, the sidebar's calls. */
import type { GasEmulator } from '../../dev/gas/runner';
import type { SandboxHandle } from '../../dev/sandbox/harness';
import { catalog, type Rec } from '../core/bulk/fixtures';
import { bulkToEnd, columnsOf, ok } from './helpers';

export const SHEET = 'Assinaturas';

/** Subscriptions created through the service's own interface: `custom` personalizadas then `plans` de plano, all active. */
export async function seed(sb: SandboxHandle, custom: number, plans: number): Promise<void> {
  const cat = await catalog(sb);
  const post = (path: string, body: Rec) =>
    fetch(`${sb.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': sb.orgs[0].apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const common = (i: number) => ({
    idCliente: cat.clientes[i % cat.clientes.length],
    dataAdesao: '2026-10-05',
    competenciaInicial: '11/2026',
    formaFaturamentoAssinatura: 'AGRUPADA',
    diaVencimentoCobranca: 10,
  });
  const requests = [
    ...Array.from({ length: custom }, (_, i) =>
      post('/v2/assinaturascontratos/personalizado', {
        ...common(i),
        idIntegracao: `P-${i}`,
        periodicidade: 'MENSAL',
        idProduto: cat.produtos[i % cat.produtos.length],
        descricaoAssinaturaContrato: `Honorários ${i}`,
        // Cents that exercise rounding: x.x5 after the adjustment for many of them.
        valor: (10_000 + i * 137) / 100,
      }),
    ),
    ...Array.from({ length: plans }, (_, i) =>
      post('/v2/assinaturascontratos/plano', {
        ...common(i),
        idIntegracao: `L-${i}`,
        idPlano: cat.planos[i % cat.planos.length],
        quantidade: 1 + (i % 3),
        descontos: [],
      }),
    ),
  ];
  for (const r of await Promise.all(requests)) if (!r.ok) throw new Error(`seed: ${r.status} ${await r.text()}`);
}

/** The sandbox's own subscriptions, by id. */
export const records = async (sb: SandboxHandle) =>
  new Map((await sb.dump<Rec>(sb.orgs[0].name, 'assinaturas')).map((a) => [a.idAssinaturaContrato as number, a]));

export function letter(column0: number): string {
  let s = '';
  for (let n = column0 + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** Runs a script body against the sheet (the user at the keyboard). */
export function onSheet<T>(emu: GasEmulator, work: (sh: GoogleAppsScript.Spreadsheet.Sheet) => T): T {
  return emu.withServices((s) => work(s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(SHEET)!));
}

/** 1-based row of each record id, as the sheet is now. */
export function rowsById(emu: GasEmulator): Map<number, number> {
  const col = columnsOf(emu, SHEET);
  return new Map(
    emu.values(SHEET).flatMap((r, i) => (typeof r[col.idAssinaturaContrato] === 'number' ? [[r[col.idAssinaturaContrato] as number, i + 1]] : [])),
  );
}

/** Ver alterações, then Enviar with the token of that preview, as the sidebar does. */
export function seen(emu: GasEmulator): string {
  return ok(emu.run('previewSheetEdits', [SHEET])).token;
}

/** Enviar with a preview's token, stepped to the end as the sidebar does. */
export function push(emu: GasEmulator, token = seen(emu)): Rec {
  return bulkToEnd(emu, ok(emu.run('startEditPushRun', [SHEET, token])));
}
