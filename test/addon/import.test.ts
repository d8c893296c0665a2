/**
 * Pulling listings into sheets end to end: the real bundle in the emulator,
 * the sandbox over HTTP, and the sheet read back as a user would see it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { columnsOf, connect, emulator, finishRun, importAll, SP } from './helpers';

type Rec = Record<string, any>;
let sb: SandboxHandle;
let org: string;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 11, size: 'small' });
  org = sb.orgs[0].name;
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
});

const isoToBr = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

describe('a listing pulled into a sheet', () => {
  it('keeps text as text, dates as dates in the spreadsheet zone, money as money', async () => {
    const emu = emulator();
    connect(emu, sb);
    const p = importAll(emu, { listing: 'cobrancas', sheetName: 'Cobranças', filters: { isExibeCanceladas: true } });
    expect(p.status).toBe('done');
    const dump = await sb.dump<Rec>(org, 'cobrancas');
    expect(p.rows).toBe(dump.length);
    const col = columnsOf(emu, 'Cobranças');
    const values = emu.values('Cobranças');
    const display = emu.displayValues('Cobranças');
    const formats = emu.numberFormats('Cobranças');
    expect(values).toHaveLength(dump.length + 1);
    const byId = new Map(dump.map((c) => [c.idCobranca, c]));
    for (let r = 1; r < values.length; r++) {
      const rec = byId.get(values[r][col.idCobranca] as number)!;
      expect(rec, `row ${r + 1}`).toBeDefined();
      // CPF/CNPJ and the digitable line keep every digit and leading zero.
      expect(values[r][col.cpfCnpj]).toBe(rec.cpfCnpj);
      expect(values[r][col.linhaDigitavel]).toBe(rec.linhaDigitavel);
      expect(values[r][col.competencia]).toBe(rec.competencia);
      expect(formats[r][col.cpfCnpj]).toBe('@');
      // A due date is a real date showing the same calendar day in America/Sao_Paulo.
      expect(values[r][col.dataVencimento]).toBeInstanceOf(Date);
      expect(display[r][col.dataVencimento]).toBe(isoToBr(rec.dataVencimento));
      expect(values[r][col.valor]).toBe(rec.valor);
      expect(formats[r][col.valor]).toBe('#,##0.00');
      expect(display[r][col.isQuitado]).toBe(rec.isQuitado ? 'Sim' : 'Não');
    }
    expect(dump.some((c) => String(c.cpfCnpj).startsWith('0'))).toBe(true);
  });

  it('shows a due date of 2026-10-01 as 01/10/2026 in America/Sao_Paulo', async () => {
    const emu = emulator();
    connect(emu, sb);
    const dump = await sb.dump<Rec>(org, 'transacoes');
    const rec = dump[0];
    importAll(emu, { listing: 'transacoes', sheetName: 'Transações', filters: { idTransacao: String(rec.idTransacao) } });
    const col = columnsOf(emu, 'Transações');
    expect(emu.displayValues('Transações')[1][col.dataVencimento]).toBe(isoToBr(rec.dataVencimento));
    const value = emu.values('Transações')[1][col.dataVencimento] as Date;
    // Midnight in São Paulo (UTC-3): 03:00 UTC of the same calendar day, not the evening before.
    expect(value.toISOString()).toBe(`${rec.dataVencimento}T03:00:00.000Z`);
  });

  it('follows the spreadsheet time zone, not the script one', async () => {
    const emu = emulator({ spreadsheet: { timeZone: 'Asia/Tokyo' } });
    connect(emu, sb);
    const dump = await sb.dump<Rec>(org, 'transacoes');
    const rec = dump[1];
    importAll(emu, { listing: 'transacoes', sheetName: 'Transações', filters: { idTransacao: String(rec.idTransacao) } });
    const col = columnsOf(emu, 'Transações');
    expect(emu.displayValues('Transações')[1][col.dataVencimento]).toBe(isoToBr(rec.dataVencimento));
    const value = emu.values('Transações')[1][col.dataVencimento] as Date;
    // Midnight in Tokyo (UTC+9) is 15:00 UTC of the previous day.
    expect(value.getTime()).toBe(new Date(`${rec.dataVencimento}T00:00:00+09:00`).getTime());
    expect(emu.displayValues('Transações')[1][col.dataHoraAtualizacao]).toBe(`${isoToBr(rec.dataHoraAtualizacao)} ${rec.dataHoraAtualizacao.slice(11, 16)}`);
  });

  it('never evaluates values that look like formulas, and keeps line breaks', async () => {
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'clientes', sheetName: 'Clientes', filters: {} });
    const dump = await sb.dump<Rec>(org, 'clientes');
    const tricky = dump.filter((c) => /^[=+\-@]/.test(c.nomeFantasia) || /^[=+\-@]/.test(c.razaoSocial));
    expect(tricky.length).toBeGreaterThan(0);
    const col = columnsOf(emu, 'Clientes');
    const values = emu.values('Clientes');
    const formulas = emu.formulas('Clientes');
    expect(formulas.flat().filter(Boolean)).toEqual([]);
    for (const c of tricky) {
      const row = values.find((r) => r[col.idCliente] === c.idCliente)!;
      expect(row[col.nomeFantasia]).toBe(c.nomeFantasia);
      expect(row[col.razaoSocial]).toBe(c.razaoSocial);
      expect(row[col.cep]).toBe(c.cep);
    }
    importAll(emu, { listing: 'transacoes', sheetName: 'Transações', filters: {} });
    const tx = await sb.dump<Rec>(org, 'transacoes');
    const multi = tx.find((t) => t.observacao.includes('\n'))!;
    const tcol = columnsOf(emu, 'Transações');
    const trow = emu.values('Transações').find((r) => r[tcol.idTransacao] === multi.idTransacao)!;
    expect(trow[tcol.observacao]).toBe(multi.observacao);
  });

  it('writes one frozen header row with Portuguese labels and the field names as notes', () => {
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'faturas', sheetName: 'Faturas', filters: {} });
    const header = emu.values('Faturas')[0];
    expect(header.slice(0, 3)).toEqual(['ID da fatura', 'ID de integração', 'Número do pedido']);
    expect(Object.keys(columnsOf(emu, 'Faturas'))).toContain('valorTotal');
    const frozen = emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Faturas')!.getFrozenRows());
    expect(frozen).toBe(1);
  });

  it('booleans read Sim/Não everywhere, ISS retido included, and coded columns explain their codes in the header note', async () => {
    const emu = emulator();
    connect(emu, sb);
    expect(importAll(emu, { listing: 'nfse', sheetName: 'NFS-e', filters: {} }).status).toBe('done');
    const notes = await sb.dump<Rec>(org, 'nfse');
    const col = columnsOf(emu, 'NFS-e');
    const display = emu.displayValues('NFS-e');
    const byId = new Map(notes.map((n) => [n.idNotaFiscalServico, n]));
    expect(new Set(notes.map((n) => n.issRetido))).toEqual(new Set([0, 2]));
    for (const row of display.slice(1)) {
      const rec = byId.get(Number(row[col.idNotaFiscalServico]))!;
      expect(row[col.issRetido]).toBe(rec.issRetido === 2 ? 'Sim' : 'Não');
    }
    const header = emu.withServices((s) => {
      const sh = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('NFS-e')!;
      return sh.getRange(1, 1, 1, sh.getLastColumn()).getNotes()[0] as string[];
    });
    expect(header[col.issRetido]).toMatch(/^issRetido\nSim = o ISS é retido/);
    expect(header[col.statusNotaFiscalServico]).toMatch(/^statusNotaFiscalServico\nEMITIDA = .*AUTORIZADA = /);
    // Transactions: the one-letter codes explained, and every boolean column Sim/Não.
    importAll(emu, { listing: 'transacoes', sheetName: 'Transações', filters: {} });
    const tcol = columnsOf(emu, 'Transações');
    const tnotes = emu.withServices((s) => {
      const sh = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Transações')!;
      return sh.getRange(1, 1, 1, sh.getLastColumn()).getNotes()[0] as string[];
    });
    expect(tnotes[tcol.tipoTransacao]).toMatch(/R = receita; D = despesa; T = transferência/);
    expect(tnotes[tcol.tipoOperacao]).toMatch(/C = crédito .*D = débito/);
    expect(
      new Set(
        emu
          .displayValues('Transações')
          .slice(1)
          .map((r) => r[tcol.isQuitado]),
      ),
    ).toEqual(new Set(['Sim', 'Não']));
  });

  it('"Recebido em" says in its note it is when the add-on brought the row, and "Status do título" explains each status the charges hold', async () => {
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'cobrancas', sheetName: 'Cobranças', filters: { isExibeCanceladas: true } });
    const col = columnsOf(emu, 'Cobranças');
    const header = emu.withServices((s) => {
      const sh = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Cobranças')!;
      return sh.getRange(1, 1, 1, sh.getLastColumn()).getNotes()[0] as string[];
    });
    expect(header[col.$recebidoEm]).toBe(
      '$recebidoEm\nQuando o complemento trouxe esta linha do serviço (a atualização do relatório que a escreveu por último). Não é a data de pagamento nem de recebimento do dinheiro.',
    );
    // Every status the organization's charges hold is explained in the note.
    const statuses = new Set((await sb.dump<Rec>(org, 'cobrancas')).map((c) => c.statusTitulo as string));
    expect(statuses.size).toBeGreaterThan(1);
    for (const status of statuses) expect(header[col.statusTitulo]).toMatch(new RegExp(`(^|[\\n; ])${status} = `));
  });

  it('sends the form filters to the wire in the spec formats', async () => {
    const emu = emulator();
    connect(emu, sb);
    await sb.clearLog();
    importAll(emu, {
      listing: 'cobrancas',
      sheetName: 'Cobranças',
      filters: {
        vencimentoInicial: '2026-03-01',
        vencimentoFinal: { rel: 'hoje', dias: 30 },
        idsCliente: '5, 6',
        isQuitado: false,
        dataHoraAtualizacaoInicial: '2026-01-02T08:30',
      },
    });
    const log = await sb.requestLog({ pathPrefix: '/v2/financeiro/cobrancas' });
    const q = log.find((e) => e.status === 200)!.query;
    expect(q).toMatchObject({
      vencimentoInicial: '01/03/2026',
      // "today + 30 days" on 22/11/2026 (the emulator's virtual day).
      vencimentoFinal: '22/12/2026',
      idsCliente: '5,6',
      isQuitado: 'false',
      dataHoraAtualizacaoInicial: '02/01/2026 08:30',
    });
  });

  it('does not overwrite an existing sheet the user meant to create anew', () => {
    const emu = emulator();
    connect(emu, sb);
    emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().insertSheet('Minha aba').getRange('A1').setValue('importante'));
    const r = emu.run('startImportRun', [{ connection: 'Demo', listing: 'clientes', sheetName: 'Minha aba', newSheet: true, filters: {} }]) as Rec;
    expect(r).toMatchObject({ ok: false, field: 'sheetName' });
    expect(r.message).toMatch(/Já existe uma aba "Minha aba"/);
    expect(emu.values('Minha aba')[0][0]).toBe('importante');
    // Its own sheet, from a first run in the same sidebar, is not "another" sheet.
    const first = importAll(emu, { listing: 'clientes', sheetName: 'Clientes', newSheet: true, filters: {} });
    const again = emu.run('startImportRun', [
      { id: first.reportId, connection: 'Demo', listing: 'clientes', sheetName: 'Clientes', newSheet: true, filters: {} },
    ]) as Rec;
    expect(again.ok).toBe(true);
  });

  it('refuses a bad filter in the form, naming it, before any request', async () => {
    const emu = emulator();
    connect(emu, sb);
    await sb.clearLog();
    const r = emu.run('startImportRun', [{ connection: 'Demo', listing: 'faturas', sheetName: 'F', filters: { competencia: '13/2026' } }]) as Rec;
    expect(r).toMatchObject({ ok: false, field: 'filter:competencia' });
    expect(r.message).toMatch(/mês/);
    expect(await sb.requestLog()).toEqual([]);
  });
});

describe('nested arrays', () => {
  it('go to linked child sheets with the parent id first, replaced with the parent', async () => {
    const emu = emulator();
    connect(emu, sb);
    const first = importAll(emu, { listing: 'transacoes', sheetName: 'Transações', filters: {} });
    const dump = await sb.dump<Rec>(org, 'transacoes');
    const expected = dump.reduce((n, t) => n + t.planosConta.length, 0);
    const child = emu.values('Transações · Planos de conta');
    expect(child).toHaveLength(expected + 1);
    const ids = new Set(dump.map((t) => t.idTransacao));
    expect(child.slice(1).every((row) => ids.has(row[0] as number))).toBe(true);
    // A narrower refresh of the same report replaces the child rows too (another report may not write its sheet).
    const one = dump.find((t) => t.planosConta.length > 0)!;
    importAll(emu, { id: first.reportId, listing: 'transacoes', sheetName: 'Transações', filters: { idTransacao: String(one.idTransacao) } });
    expect(emu.values('Transações · Planos de conta')).toHaveLength(one.planosConta.length + 1);
  });

  it('subscriptions with their discounts: negative amounts as money, discounts in a linked sheet', async () => {
    const emu = emulator();
    connect(emu, sb);
    const p = importAll(emu, { listing: 'assinaturas', sheetName: 'Assinaturas', filters: { isListarDescontos: true } });
    const dump = await sb.dump<Rec>(org, 'assinaturas');
    expect(p.rows).toBe(dump.length);
    const col = columnsOf(emu, 'Assinaturas');
    const discounted = dump.find((a) => a.valorDesconto < 0)!;
    const row = emu.values('Assinaturas').find((r) => r[col.idAssinaturaContrato] === discounted.idAssinaturaContrato)!;
    expect(row[col.valorDesconto]).toBe(discounted.valorDesconto);
    expect(row[col.competenciaInicial]).toBe(discounted.competenciaInicial);
    expect(emu.numberFormats('Assinaturas')[1][col.valorDesconto]).toBe('#,##0.00');
    // The child sheet is named after the target sheet the user chose.
    const child = emu.values('Assinaturas · Descontos');
    const discounts = dump.flatMap((a) => (a.descontos ?? []).map((d: Rec) => ({ ...d, parent: a.idAssinaturaContrato })));
    expect(discounts.length).toBeGreaterThan(0);
    expect(child).toHaveLength(discounts.length + 1);
    const d = discounts[0];
    const childRow = child.find((r) => r[0] === d.parent && r.includes(d.idDescontoAssinaturaContrato))!;
    expect(childRow).toContain(d.valorDesconto);
  });

  it('invoice items: a typed, summable table from the data, the same columns after a refresh', async () => {
    const emu = emulator();
    connect(emu, sb);
    const first = importAll(emu, { listing: 'faturas', sheetName: 'Faturas', filters: { isListarItens: true } });
    const dump = await sb.dump<Rec>(org, 'faturas');
    const items = dump.flatMap((f) => (f.itens ?? []).map((i: Rec) => ({ ...i, parent: f.idFatura })));
    const child = emu.values('Faturas · Itens');
    expect(child).toHaveLength(items.length + 1);
    const notes = emu.spreadsheet.byName('Faturas · Itens')!;
    const keys = child[0].map((_, c) => notes.cell(1, c + 1)?.note);
    expect(keys).toEqual(['idFatura', ...Object.keys(items[0]).filter((k) => k !== 'parent')]);
    const total = keys.indexOf('valorTotal');
    // Amounts are numbers with two decimals: they sum to the invoices' totals.
    const sum = child.slice(1).reduce((n, r) => n + (r[total] as number), 0);
    expect(sum).toBeCloseTo(
      dump.reduce((n, f) => n + (f.itens ? f.valorTotal : 0), 0),
      2,
    );
    expect(emu.numberFormats('Faturas · Itens')[1][total]).toBe('#,##0.00');
    expect(child.slice(1).every((r) => r.every((v) => typeof v !== 'string' || !v.startsWith('{')))).toBe(true);
    const one = dump.find((f) => f.itens?.length)!;
    // A refresh of the same report (another report may not write its sheet).
    importAll(emu, { id: first.reportId, listing: 'faturas', sheetName: 'Faturas', filters: { isListarItens: true, idFatura: String(one.idFatura) } });
    const again = emu.values('Faturas · Itens');
    expect(again[0]).toEqual(child[0]);
    expect(again).toHaveLength(one.itens.length + 1);
  });

  it('card events only when asked, in their own sheet', async () => {
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'cobrancas', sheetName: 'Cobranças', filters: { isListarEventosCartao: true } });
    expect(emu.sheetNames()).toContain('Cobranças · Eventos de cartão');
    expect(emu.values('Cobranças · Eventos de cartão').length).toBeGreaterThan(1);
  });

  it('customers come without card data unless the report asks for it; turning it off again clears those columns', async () => {
    const emu = emulator();
    connect(emu, sb);
    const cardKeys = (sheet: string) => Object.keys(columnsOf(emu, sheet)).filter((k) => k.startsWith('cartaoCredito.'));
    const first = importAll(emu, { listing: 'clientes', sheetName: 'Clientes', filters: {} });
    expect(first.status).toBe('done');
    expect(cardKeys('Clientes')).toEqual([]);
    const customers = await sb.dump<Rec>(org, 'clientes');
    // Holders who are not themselves a customer of the sheet: their CPF can only come from the card columns.
    const own = new Set(customers.map((c) => c.cpfCnpj));
    const holders = customers.map((c) => c.cartaoCredito?.cpfPortadorCartao).filter((cpf) => cpf && !own.has(cpf)) as string[];
    expect(holders.length).toBeGreaterThan(0);
    const shown = () => new Set(emu.displayValues('Clientes').flat().map(String));
    expect(holders.filter((cpf) => shown().has(cpf))).toEqual([]);

    // Asked for: saved with the report, the card columns come.
    const report = (emu.run('listReports') as Rec[])[0];
    const withCard = emu.run('startImportRun', [{ ...report, id: first.reportId, connection: 'Demo', cardData: true }]) as Rec;
    expect(withCard.ok).toBe(true);
    expect(finishRun(emu, first.reportId).status).toBe('done');
    expect(cardKeys('Clientes').sort()).toEqual(
      [
        'cartaoCredito.cpfPortadorCartao',
        'cartaoCredito.cvvCartao',
        'cartaoCredito.nomeImpressoCartao',
        'cartaoCredito.numeroCartao',
        'cartaoCredito.vencimentoCartao',
      ].sort(),
    );
    expect(holders.some((cpf) => shown().has(cpf))).toBe(true);
    emu.run('editReport', [first.reportId]);
    expect((emu.run('getImportForm') as Rec).editing.cardData).toBe(true);

    // Turned off: the next run takes the card columns and their values away.
    emu.run('startImportRun', [{ ...report, id: first.reportId, connection: 'Demo', cardData: false }]);
    expect(finishRun(emu, first.reportId).status).toBe('done');
    expect(cardKeys('Clientes')).toEqual([]);
    expect(holders.filter((cpf) => shown().has(cpf))).toEqual([]);
  });
});

describe('refreshing', () => {
  it('leaves no stale rows, and keeps columns the user added to the right and column widths', () => {
    const emu = emulator();
    connect(emu, sb);
    const first = importAll(emu, { listing: 'faturas', sheetName: 'Faturas', filters: {} });
    const width = columnsOf(emu, 'Faturas');
    const ncols = Object.keys(width).length;
    emu.withServices((s) => {
      const sh = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Faturas')!;
      sh.getRange(1, ncols + 2).setValue('Minha coluna');
      sh.getRange(2, ncols + 2).setValue('anotação');
      sh.setColumnWidth(2, 222);
    });
    const reports = emu.run('listReports') as Rec[];
    const id = reports[0].id;
    // Editing a saved report is Importar's "Salvar e importar": it saves and starts the run.
    const saved = emu.run('startImportRun', [{ ...reports[0], filters: { competencia: emu.values('Faturas')[1][width.competencia] } }]) as Rec;
    expect(saved.ok).toBe(true);
    const second = finishRun(emu, id);
    expect(second.rows).toBeLessThan(first.rows);
    const values = emu.values('Faturas');
    const dataRows = values.slice(1).filter((r) => r.slice(0, ncols).some((v) => v !== ''));
    expect(dataRows).toHaveLength(second.rows);
    expect(values[0][ncols + 1]).toBe('Minha coluna');
    expect(values[1][ncols + 1]).toBe('anotação');
    const w = emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Faturas')!.getColumnWidth(2));
    expect(w).toBe(222);
  });

  it('a report switched to a listing with fewer columns leaves none of the old ones behind', () => {
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'cobrancas', sheetName: 'Dados', filters: {} });
    const wide = Object.keys(columnsOf(emu, 'Dados')).length;
    emu.withServices((s) => {
      const sh = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Dados')!;
      sh.insertColumnsAfter(sh.getMaxColumns(), 1);
      sh.getRange(1, wide + 1).setValue('Minha coluna');
    });
    const report = (emu.run('listReports') as Rec[])[0];
    expect((emu.run('startImportRun', [{ ...report, listing: 'nfse', filters: {} }]) as Rec).ok).toBe(true);
    finishRun(emu, report.id);
    const narrow = Object.keys(columnsOf(emu, 'Dados')).filter(Boolean).length;
    expect(narrow).toBeLessThan(wide);
    const header = emu.values('Dados')[0];
    expect(header.slice(narrow, wide).every((v) => v === '')).toBe(true);
    expect(header[wide]).toBe('Minha coluna');
    expect(
      emu
        .values('Dados')
        .slice(1)
        .every((row) => row.slice(narrow, wide).every((v) => v === '')),
    ).toBe(true);
  });

  it('records every run in the Histórico sheet', () => {
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'nfse', sheetName: 'NFS-e', filters: {}, name: 'Notas' });
    const history = emu.values('Histórico');
    expect(history[0]).toEqual(['Quando', 'Relatório', 'Origem', 'Linhas', 'Duração (s)', 'Resultado', 'Mensagem', 'Quem']);
    expect(history[1].slice(1, 3)).toEqual(['Notas', 'Manual']);
    expect(history[1][5]).toBe('OK');
  });

  it('an incremental refresh asks only for what changed since the last run and merges by id', async () => {
    const emu = emulator({ startAt: SP('2026-06-01T09:00:00') });
    connect(emu, sb);
    const first = importAll(emu, { listing: 'transacoes', sheetName: 'Transações', filters: {}, incremental: true });
    const dump = await sb.dump<Rec>(org, 'transacoes');
    expect(first.rows).toBe(dump.length);
    const col = columnsOf(emu, 'Transações');
    // Spoil a cell of a record the delta will bring back: the merge must restore it.
    const changed = dump.filter((t) => t.dataHoraAtualizacao >= '2026-06-01T08:50');
    expect(changed.length).toBeGreaterThan(0);
    const rowIndex = emu.values('Transações').findIndex((r) => r[col.idTransacao] === changed[0].idTransacao);
    emu.withServices((s) =>
      s.SpreadsheetApp.getActiveSpreadsheet()
        .getSheetByName('Transações')!
        .getRange(rowIndex + 1, col.descricao + 1)
        .setValue('valor antigo'),
    );
    emu.now = SP('2026-11-22T10:00:00').getTime();
    await sb.clearLog();
    const id = (emu.run('listReports') as Rec[])[0].id;
    emu.run('runReport', [id]);
    const second = finishRun(emu, id);
    expect(second.incremental).toBe(true);
    expect(second.rows).toBe(changed.length);
    const log = await sb.requestLog({ pathPrefix: '/v2/financeiro/transacoes' });
    expect(log.every((e) => e.query.dataHoraAtualizacaoInicial === '01/06/2026 08:50')).toBe(true);
    const values = emu.values('Transações').slice(1);
    expect(values).toHaveLength(dump.length);
    expect(new Set(values.map((r) => r[col.idTransacao])).size).toBe(dump.length);
    expect(values.find((r) => r[col.idTransacao] === changed[0].idTransacao)![col.descricao]).toBe(changed[0].descricao);
  });
});

describe('limits', () => {
  it('refuses clearly, before writing, what would pass 10 million cells', async () => {
    await sb.reset({ size: { faturas: 3000, clientes: 50, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
    const emu = emulator();
    connect(emu, sb);
    // 9,960,000 cells once the Faturas sheet exists: 3,000 rows no longer fit.
    emu.withServices((s) => {
      const sh = s.SpreadsheetApp.getActiveSpreadsheet().insertSheet('Grande');
      sh.insertColumnsAfter(sh.getMaxColumns(), 474);
      sh.insertRowsAfter(sh.getMaxRows(), 18_816);
    });
    const p = importAll(emu, { listing: 'faturas', sheetName: 'Faturas', filters: {} });
    expect(p.status).toBe('failed');
    expect(p.message).toMatch(/10 milhões de células/);
    expect(emu.values('Faturas').length).toBe(1);
    expect(String(emu.values('Faturas')[0][0])).toMatch(/^⚠ INCOMPLETO/);
  });
});

describe('Atualização completa', () => {
  it('pulls an incremental report whole once, and the next refresh is incremental again', async () => {
    const emu = emulator();
    connect(emu, sb);
    const first = importAll(emu, { listing: 'faturas', sheetName: 'Faturas', filters: {}, incremental: true });
    const refresh = (full?: boolean) => {
      const started = emu.run('runReport', full === undefined ? [first.reportId] : [first.reportId, full]) as { reportId: string };
      return finishRun(emu, started.reportId);
    };
    const asked = async () =>
      (await sb.requestLog({ pathPrefix: '/v2/faturamento/faturas' })).map((e: Record<string, any>) => e.query.dataHoraAtualizacaoInicial);

    await sb.clearLog();
    expect(refresh()).toMatchObject({ status: 'done', incremental: true });
    expect((await asked()).every((since) => typeof since === 'string')).toBe(true);

    await sb.clearLog();
    const whole = refresh(true);
    expect(whole).toMatchObject({ status: 'done', incremental: false, rows: first.rows });
    expect(await asked()).toEqual(expect.arrayContaining([undefined]));
    expect((await asked()).some((since) => since !== undefined)).toBe(false);

    await sb.clearLog();
    expect(refresh()).toMatchObject({ status: 'done', incremental: true });
    expect((await asked()).every((since) => typeof since === 'string')).toBe(true);
  });
});
