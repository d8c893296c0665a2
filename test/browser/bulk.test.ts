/**
 * Lançamentos em lote in a real browser: the template sheet created from the
 * sidebar, rows typed into it (through the emulator, with the Planilhas'
 * parsing of strings), Validar (problems in the Mensagem column, nothing
 * sent), Executar (progress, summary, results and ids in the grid, one
 * subscription per idIntegracao in the sandbox), a second run that sends
 * nothing, "Ir para as linhas com erro", and NFS-e for the selected rows of
 * an imported Faturas sheet.
 */
import type { Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { columnLetters } from '../../dev/gas/a1';
import { CUSTOM_HEADER } from '../core/bulk/fixtures';
import { cell, clickMenu, readGrid, screenshot, selectRange, sidebar, sidebarTitle, tab, usePlaygroundPage } from './helpers';

type Rec = Record<string, any>;

const t = usePlaygroundPage();

const SHEET = 'Lote · Assinaturas personalizadas';
const HEADER = [...CUSTOM_HEADER, 'CPF/CNPJ do cliente', 'Status', 'ID da assinatura criada', 'Mensagem', 'Processado em'];

const org = () => t.pg.sandbox.orgs[0].name;
const dump = (resource: 'clientes' | 'produtos' | 'assinaturas' | 'faturas' | 'nfse') => t.pg.sandbox.dump<Rec>(org(), resource);
const posts = () => t.pg.sandbox.requestLog({ method: 'POST' });

/** Subscriptions in the sandbox per idIntegracao. */
async function countByKey(): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const a of await dump('assinaturas')) out.set(a.idIntegracao, (out.get(a.idIntegracao) ?? 0) + 1);
  return out;
}

/** Types rows into a sheet as a person would: strings, parsed by the Planilhas unless the cell is text. */
function typeRows(sheet: string, a1: string, rows: string[][]): void {
  t.pg.emulator.withServices((s) => {
    const start = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheet)!.getRange(a1);
    start.offset(0, 0, rows.length, rows[0].length).setValues(rows);
  });
  t.pg.touch();
}

/** Holds the sidebar's next call of `functionName` until release() (other calls go through). */
async function holdCall(functionName: string): Promise<{ held: Promise<void>; release: () => Promise<void> }> {
  let route: Route | null = null;
  let seen!: () => void;
  const held = new Promise<void>((res) => (seen = res));
  await t.page.route('**/rpc', async (r) => {
    if (!route && (r.request().postDataJSON() as { functionName: string }).functionName === functionName) {
      route = r;
      seen();
      return;
    }
    await r.continue();
  });
  return {
    held,
    release: async () => {
      await route?.continue();
      await t.page.unroute('**/rpc');
    },
  };
}

const sb = () => sidebar(t.page);
const resultText = () => sb().locator('#result').textContent();
const summaryLines = () => sb().locator('#summary li').allTextContents();
/** Executar validates and asks before sending anything: the counts, then "Confirmar envio". */
async function confirmSend(expected: RegExp): Promise<void> {
  await expect.poll(() => sb().locator('#confirm-text').textContent()).toMatch(expected);
  await sb().getByRole('button', { name: 'Confirmar envio' }).click();
}

describe('Lançamentos em lote: custom subscriptions', () => {
  let clientes: number[];
  let produto: number;

  beforeAll(async () => {
    clientes = (await dump('clientes')).filter((c) => c.isAtivo).map((c) => c.idCliente as number);
    produto = (await dump('produtos'))[0].idProduto as number;
    expect(clientes.length).toBeGreaterThan(1);
  });

  it('opens the sidebar from the menu and creates the template sheet, shown in the grid', async () => {
    await clickMenu(t.page, 'Lançamentos em lote');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Lançamentos em lote');
    await sb().getByLabel('Operação').selectOption({ label: 'Criar assinaturas personalizadas' });
    await sb().getByRole('button', { name: 'Criar aba modelo' }).click();
    await expect.poll(resultText).toMatch(new RegExp(`^Aba "${SHEET}" criada com uma linha de exemplo`));
    expect(await sb().getByLabel('Aba com as linhas').inputValue()).toBe(SHEET);
    expect(await sb().getByLabel('Conexão').inputValue()).toBe(t.pg.connectionName);

    await expect.poll(() => tab(t.page, SHEET).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => readGrid(t.page, 'A1:O1')).toEqual([HEADER]);
    expect(await readGrid(t.page, 'A2:O2')).toEqual([
      [
        'CLI-0001-2026',
        '123',
        '01/11/2026',
        '11/2026',
        'MENSAL',
        '789',
        'Honorários contábeis mensais',
        '350,00',
        'AGRUPADA',
        '10',
        '',
        'EXEMPLO',
        '',
        expect.stringMatching(/^Linha de exemplo/),
        '',
      ],
    ]);
    expect(await readGrid(t.page, 'A1:O2')).toEqual(t.pg.emulator.displayValues(SHEET, 'A1:O2'));
    // The header explains each column in its note.
    expect(await cell(t.page, 'D1').getAttribute('title')).toMatch(/^competenciaInicial — .*MM\/AAAA/);
  });

  it('shows rows typed into the template with the formats applied', async () => {
    const [c1, c2] = clientes.map(String);
    const p = String(produto);
    typeRows(SHEET, 'A3', [
      ['LOTE-BR-1', c1, '05/11/2026', '11/2026', 'MENSAL', p, 'Honorários contábeis', '1.250,50', 'AGRUPADA', '10'],
      ['', c2, '06/11/2026', '12/2026', 'MENSAL', p, 'Folha de pagamento', '300', 'INDIVIDUAL', '15'],
      ['LOTE-BR-3', c1, '07/11/2026', '13/2026', 'MENSAL', p, 'Competência errada', '99,90', 'AGRUPADA', '5'],
    ]);
    // Numbers and dates were parsed (the ID and Valor columns are not text), the competência stayed text.
    const typed = t.pg.emulator.values(SHEET, 'A3:J3')[0];
    expect(typed[1]).toBe(clientes[0]);
    expect(typed[2]).toBeInstanceOf(Date);
    expect(typed[3]).toBe('11/2026');
    expect(typed[7]).toBe(1250.5);
    await expect.poll(() => readGrid(t.page, 'A3:J5')).toEqual(t.pg.emulator.displayValues(SHEET, 'A3:J5'));
    expect(await readGrid(t.page, 'C3:H3')).toEqual([['05/11/2026', '11/2026', 'MENSAL', p, 'Honorários contábeis', '1.250,50']]);
  });

  it("Validar shows the summary and the invalid row's message in the grid, and sends nothing", async () => {
    await t.pg.sandbox.clearLog();
    await sb().getByRole('button', { name: 'Validar' }).click();
    await expect
      .poll(resultText)
      .toMatch(
        /^1 linha com problema \(veja a coluna Mensagem e as células em vermelho\)\. 2 linhas prontas para enviar\. Linha 5, coluna "Competência inicial" \(D\)/,
      );
    expect(await sb().locator('#result').getAttribute('class')).toContain('warn');

    // Validar alone claims no run: the problem is in Mensagem, with neither ERRO nor a time.
    await expect.poll(async () => (await readGrid(t.page, 'N5'))[0][0]).toMatch(/^A corrigir: Linha 5, coluna "Competência inicial" \(D\)/);
    const [[status3, , message3], [status4, , message4], [status5, , message5, time5]] = await readGrid(t.page, 'L3:O5');
    expect([status5, time5]).toEqual(['', '']);
    expect(message5).not.toMatch(/coluna "(ID do cliente|Data de adesão|Valor|Dia de vencimento)"/);
    expect([status3, message3, status4, message4]).toEqual(['', '', '', '']);
    // The cell at fault is red; its neighbours are not.
    const bg = (a1: string) => cell(t.page, a1).evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await bg('D5')).toBe('rgb(244, 199, 195)');
    expect(await bg('C5')).not.toBe('rgb(244, 199, 195)');
    expect(await bg('D3')).not.toBe('rgb(244, 199, 195)');

    expect(await t.pg.sandbox.requestLog()).toEqual([]);
    expect((await countByKey()).get('LOTE-BR-1')).toBeUndefined();
  });

  it('Executar shows progress, then the summary; the grid shows OK and the ids; one subscription per row', async () => {
    const hold = await holdCall('startBulkRun');
    const run = sb().getByRole('button', { name: 'Executar' });
    await t.pg.sandbox.clearLog();
    await run.click();
    // Nothing is sent before the user confirms, with the counts in front of them.
    await expect
      .poll(() => sb().locator('#confirm-text').textContent())
      .toMatch(
        /^Criar assinaturas personalizadas: 2 linhas serão enviadas ao serviço de faturamento\. Isto não pode ser desfeito pelo complemento\. 1 linha com problema será pulada/,
      );
    expect(await posts()).toEqual([]);
    await sb().getByRole('button', { name: 'Voltar' }).click();
    await expect.poll(resultText).toBe('Nada foi enviado.');
    expect(await posts()).toEqual([]);
    await run.click();
    await confirmSend(/2 linhas serão enviadas/);
    await hold.held;
    // While the server works: the sidebar says so and nobody can click twice.
    expect(await resultText()).toBe('Validando as linhas e começando o envio…');
    expect(await run.isDisabled()).toBe(true);
    expect(await sb().getByRole('button', { name: 'Validar' }).isDisabled()).toBe(true);
    await hold.release();

    await expect.poll(resultText).toBe('Concluído: 2 linhas enviadas com sucesso, 1 com erro.');
    expect(await summaryLines()).toEqual(['Enviadas com sucesso: 2', 'Já existiam (nada enviado): 0', 'Puladas (já estavam OK): 0', 'Com erro: 1']);
    expect(await sb().locator('#progress-text').textContent()).toBe('3 de 3 linhas processadas');
    expect(
      await sb()
        .locator('#progress')
        .evaluate((p: HTMLProgressElement) => [p.value, p.max]),
    ).toEqual([3, 3]);
    expect(await run.isDisabled()).toBe(false);

    const created = await dump('assinaturas');
    const generated = t.pg.emulator.values(SHEET, 'A4')[0][0] as string;
    expect(generated).toMatch(/^lote-[0-9a-f-]{36}-\d+$/);
    const byKey = (key: string) => created.filter((a) => a.idIntegracao === key);
    expect(byKey('LOTE-BR-1')).toHaveLength(1);
    expect(byKey(generated)).toHaveLength(1);
    expect(byKey('LOTE-BR-3')).toHaveLength(0);
    expect(byKey('LOTE-BR-1')[0]).toMatchObject({ idCliente: clientes[0], valorLiquido: 1250.5, dataAdesao: '2026-11-05', competenciaInicial: '11/2026' });

    await expect
      .poll(() => readGrid(t.page, 'L3:M5'))
      .toEqual([
        ['OK', String(byKey('LOTE-BR-1')[0].idAssinaturaContrato)],
        ['OK', String(byKey(generated)[0].idAssinaturaContrato)],
        ['ERRO', ''],
      ]);
    // The generated key was written into the row before it was sent.
    expect(await readGrid(t.page, 'A4')).toEqual([[generated]]);
    expect((await readGrid(t.page, 'N3:O5')).map(([m, at]) => [m.replace(/\d+/g, '#'), at.replace(/:\d\d$/, '')])).toEqual([
      ['Assinatura criada (ID #).', '23/11/2026 09:00'],
      ['Assinatura criada (ID #).', '23/11/2026 09:00'],
      [expect.stringMatching(/^Linha #, coluna "Competência inicial" \(D\)/), '23/11/2026 09:00'],
    ]);
    expect((await posts()).map((e) => (e.body as Rec).idIntegracao).sort()).toEqual(['LOTE-BR-1', generated].sort());
    await screenshot(t.page, 'lote-executado');
  });

  it('a second Executar sends nothing: the OK rows are skipped', async () => {
    const before = await countByKey();
    await t.pg.sandbox.clearLog();
    await sb().getByRole('button', { name: 'Executar' }).click();
    await expect.poll(resultText).toBe('Concluído: 0 linhas enviadas com sucesso, 2 já estavam OK, 1 com erro.');
    expect(await summaryLines()).toEqual(['Enviadas com sucesso: 0', 'Já existiam (nada enviado): 0', 'Puladas (já estavam OK): 2', 'Com erro: 1']);
    expect(await posts()).toEqual([]);
    const after = await countByKey();
    expect(after).toEqual(before);
    const generated = t.pg.emulator.values(SHEET, 'A4')[0][0] as string;
    expect([after.get('LOTE-BR-1'), after.get(generated)]).toEqual([1, 1]);
    expect(await readGrid(t.page, 'L3:L5')).toEqual([['OK'], ['OK'], ['ERRO']]);
    await screenshot(t.page, 'lote-reexecutado');
  });

  it('"Ir para as linhas com erro" selects the failed row', async () => {
    await cell(t.page, 'B2').click();
    await expect.poll(() => t.pg.emulator.spreadsheet.selection?.ranges).toEqual(['B2']);
    await sb().getByRole('button', { name: 'Ir para as linhas com erro' }).click();
    await expect.poll(() => sb().locator('#status').textContent()).toBe('1 linha selecionada na planilha.');
    expect(t.pg.emulator.spreadsheet.selection?.ranges).toEqual(['A5:O5']);
    await expect.poll(() => t.page.locator('#namebox').textContent()).toBe('A5:O5');
    const selected = await t.page.locator('#grid td.in-sel').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-r')}:${e.getAttribute('data-c')}`));
    expect(selected).toEqual(Array.from({ length: 15 }, (_, i) => `5:${i + 1}`));
  });

  it('after the row is fixed, Validar and Executar send only that row', async () => {
    typeRows(SHEET, 'D5', [['12/2026']]);
    await expect.poll(() => readGrid(t.page, 'D5')).toEqual([['12/2026']]);
    await sb().getByRole('button', { name: 'Validar' }).click();
    await expect.poll(resultText).toBe('Tudo certo: 1 linha pronta para enviar. Nada foi enviado. 2 linhas já processadas ficaram como estavam.');
    await expect.poll(() => readGrid(t.page, 'L5:N5')).toEqual([['', '', 'Linha válida: pronta para enviar.']]);
    expect(await cell(t.page, 'D5').evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgb(244, 199, 195)');

    await t.pg.sandbox.clearLog();
    await sb().getByRole('button', { name: 'Executar' }).click();
    await confirmSend(/1 linha será enviada/);
    await expect.poll(resultText).toBe('Concluído: 1 linha enviada com sucesso, 2 já estavam OK.');
    expect((await posts()).map((e) => (e.body as Rec).idIntegracao)).toEqual(['LOTE-BR-3']);
    const counts = await countByKey();
    expect(counts.get('LOTE-BR-3')).toBe(1);
    expect(counts.get('LOTE-BR-1')).toBe(1);
    await expect.poll(() => readGrid(t.page, 'L5')).toEqual([['OK']]);
    expect(await sb().getByRole('button', { name: 'Ir para as linhas com erro' }).isHidden()).toBe(true);
  });
});

describe('Lançamentos em lote: NFS-e for the selected rows of Faturas', () => {
  it('imports Faturas, emits notes only for the two selected invoices, shows their ids, and never twice', async () => {
    const invoices = await dump('faturas');
    const notesBefore = await dump('nfse');
    const noted = new Set(notesBefore.map((n) => n.idFatura));
    const emitiveis = new Set(invoices.filter((f) => !noted.has(f.idFatura) && f.statusFatura !== 'CANCELADA').map((f) => f.idFatura as number));

    await clickMenu(t.page, 'Importar dados…');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Importar dados');
    await sb().getByLabel('O que importar').selectOption({ label: 'Faturas' });
    await sb().getByRole('button', { name: 'Importar', exact: true }).click();
    await expect.poll(() => sb().locator('#result').textContent(), { timeout: 30_000 }).toBe(`Pronto: ${invoices.length} linhas em "Faturas".`);
    await tab(t.page, 'Faturas').click();
    await expect.poll(() => tab(t.page, 'Faturas').getAttribute('aria-selected')).toBe('true');

    // Which column holds idFatura: the header notes carry the field names.
    const width = t.pg.emulator.spreadsheet.byName('Faturas')!.lastColumn();
    const notes = t.pg.emulator.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Faturas')!.getRange(1, 1, 1, width).getNotes()[0]);
    const idIndex = notes.findIndex((n) => n === 'idFatura' || n.startsWith('idFatura '));
    expect(idIndex).toBeGreaterThanOrEqual(0);
    const idCol = columnLetters(idIndex + 1);
    const ids = (await readGrid(t.page, `${idCol}2:${idCol}${invoices.length + 1}`)).map(([v]) => Number(v));
    expect(ids.slice().sort((a, b) => a - b)).toEqual(invoices.map((f) => f.idFatura as number).sort((a, b) => a - b));
    // Two invoices without a note, not next to each other.
    const rows = ids.map((id, i) => ({ id, row: i + 2 })).filter((r) => emitiveis.has(r.id));
    const first = rows[0];
    const second = rows.find((r) => r.row > first.row + 1)!;
    expect(second).toBeDefined();

    await selectRange(t.page, `A${first.row}`, `C${first.row}`);
    await cell(t.page, `B${second.row}`).click({ modifiers: ['Control'] });
    await expect.poll(() => t.pg.emulator.spreadsheet.selection?.ranges).toEqual([`A${first.row}:C${first.row}`, `B${second.row}`]);

    await clickMenu(t.page, 'Lançamentos em lote');
    await expect.poll(() => sidebarTitle(t.page).textContent()).toBe('Lançamentos em lote');
    // The sidebar recognises the Faturas sheet as NFS-e emission.
    await expect.poll(() => sb().getByLabel('Operação').inputValue()).toBe('emitirNfse');
    expect(await sb().getByLabel('Aba com as linhas').inputValue()).toBe('Faturas');
    await sb().getByLabel('Só as selecionadas').check();
    await t.pg.sandbox.clearLog();
    await sb().getByRole('button', { name: 'Executar' }).click();
    await confirmSend(/^Emitir NFS-e de faturas: 2 linhas serão enviadas/);
    await expect.poll(resultText).toBe('Concluído: 2 linhas enviadas com sucesso.');
    expect(await summaryLines()).toEqual(['Enviadas com sucesso: 2', 'Já existiam (nada enviado): 0', 'Puladas (já estavam OK): 0', 'Com erro: 0']);

    const notesAfter = await dump('nfse');
    const fresh = notesAfter.filter((n) => !notesBefore.some((b) => b.idNotaFiscalServico === n.idNotaFiscalServico));
    expect(fresh.map((n) => n.idFatura as number).sort((a, b) => a - b)).toEqual([first.id, second.id].sort((a, b) => a - b));
    expect((await posts()).length).toBe(2);

    // Status, ID da NFS-e and Número go after the imported columns.
    const header = t.pg.emulator.values('Faturas', `A1:${columnLetters(t.pg.emulator.spreadsheet.byName('Faturas')!.lastColumn())}1`)[0] as string[];
    // Ours never takes the title of the invoice's own "Status".
    const statusCol = columnLetters(header.indexOf('Status do lote') + 1);
    expect(header.indexOf('Status do lote')).toBeGreaterThanOrEqual(width);
    expect(header.filter((h) => h === 'Status')).toHaveLength(1);
    expect(header.slice(header.indexOf('Status do lote'))).toEqual([
      'Status do lote',
      'ID da NFS-e',
      'Número da NFS-e',
      'Fatura conferida',
      'Mensagem',
      'Processado em',
    ]);
    const lastCol = columnLetters(header.length);
    const noteOf = (id: number) => fresh.find((n) => n.idFatura === id)!;
    for (const r of [first, second]) {
      await expect.poll(() => readGrid(t.page, `${statusCol}${r.row}`)).toEqual([['OK']]);
      const note = noteOf(r.id);
      // The number keeps its zeros (it is text); a note the city hall has not numbered yet has none.
      expect(await readGrid(t.page, `${statusCol}${r.row}:${lastCol}${r.row}`)).toEqual([
        [
          'OK',
          String(note.idNotaFiscalServico),
          note.numeroNotaFiscalServico ?? '',
          String(r.id),
          expect.stringContaining(`NFS-e ${note.idNotaFiscalServico} emitida`),
          expect.stringMatching(/^23\/11\/2026 \d\d:\d\d:\d\d$/),
        ],
      ]);
    }
    // No other row was touched.
    const statuses = (await readGrid(t.page, `${statusCol}2:${statusCol}${invoices.length + 1}`)).map(([s], i) => [i + 2, s]);
    expect(statuses.filter(([, s]) => s !== '')).toEqual([
      [first.row, 'OK'],
      [second.row, 'OK'],
    ]);
    await screenshot(t.page, 'lote-nfse');

    // Again, same selection: nothing is sent.
    await t.pg.sandbox.clearLog();
    await sb().getByRole('button', { name: 'Executar' }).click();
    await expect.poll(resultText).toBe('Concluído: 0 linhas enviadas com sucesso, 2 já estavam OK.');
    expect(await posts()).toEqual([]);
    expect((await dump('nfse')).length).toBe(notesAfter.length);
  });
});
