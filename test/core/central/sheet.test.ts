/** The Central sheet from what the store keeps: its head, one typed row per company, the work the shell adds, the total. */
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { markReviewed, ReviewStore } from '../../../src/core/central/marks';
import { CENTRAL_TAG, COLUMNS, centralSheet, centralView, column, writeCentral } from '../../../src/core/central/sheet';
import type { CentralCompany, CentralJob, CompanyMonth } from '../../../src/core/central/store';
import { MemoryStore, trusted } from '../bulk/fixtures';
import { DashBook, type DashSheet } from '../dashboards/book';
import { figures } from './figures';

const zone = intlZone('America/Sao_Paulo');
const at = (day: number, hour: number, minute = 0) => zone.instant({ year: 2026, month: 11, day, hour, minute }).getTime();
const ana = { id: 'u1', email: 'ana@example.com' };
const org = (key: string, document: string) => ({ key, name: key, document, own: true });
const companies: CentralCompany[] = [
  { connectionId: 'c1', name: 'Padaria', organization: org('1', '01234567000189') },
  { connectionId: 'c2', name: 'Oficina', organization: org('2', '98765432000110') },
  { connectionId: 'c3', name: 'Loja' },
  { connectionId: 'c4', name: 'Clínica', organization: org('4', '11222333000144') },
];
const job: CentralJob = {
  id: 'r1',
  owner: ana,
  competencia: '10/2026',
  onlyChanged: false,
  startedAt: at(22, 9),
  finishedAt: at(22, 9, 5),
  companies,
  skipped: [{ name: 'Padaria (2ª chave)', used: 'Padaria' }],
  unchanged: [],
};
const item = (c: CentralCompany, o: Partial<CompanyMonth>): CompanyMonth => ({
  id: `10/2026|${c.connectionId}`,
  createdAt: 1,
  competencia: '10/2026',
  company: c,
  run: 'r1',
  ...o,
});

function world() {
  const doc = trusted(new MemoryStore());
  const items = new Map<string, CompanyMonth>([
    ['org:1', item(companies[0], { figures: figures({ notesMissing: { count: 1, cents: 12_345 }, divergences: 2 }), refreshedAt: at(22, 9, 1) })],
    ['org:2', item(companies[1], { figures: figures(), refreshedAt: at(21, 8), failure: { at: at(22, 9), message: 'A chave foi recusada (401).' } })],
    [
      'org:4',
      item(companies[3], {
        figures: figures({ invoices: { count: 1, cents: 5 } }),
        refreshedAt: at(22, 9, 2),
        undone: 'Conferência desfeita: 1 fatura nova desde 21/11 10:00.',
      }),
    ],
  ]);
  items.get('org:1')!.id = '10/2026|org:1';
  markReviewed(new ReviewStore(doc), items.get('org:1')!, ana, at(22, 10, 30));
  const work = (id: string) =>
    id === 'c4'
      ? {
          links: [
            { name: 'Clínica 2026', url: 'https://docs/1' },
            { name: 'Clínica caixa', url: 'https://docs/2' },
          ],
          lastRun: { at: at(22, 7), ok: false, message: 'Falhou' },
          next: at(22, 12),
          failures: 2,
          paused: false,
        }
      : id === 'c1'
        ? { links: [], lastRun: { at: at(22, 7), ok: true, message: '' }, failures: 0, paused: true, incomplete: true }
        : undefined;
  return { doc, items, view: centralView({ store: doc, zone, user: ana, work }, job, items) };
}

describe('the Central sheet', () => {
  it('writes one row per company, figures as money and integers, the CNPJ as text with every digit, the failures and reviews in words', () => {
    const book = new DashBook();
    const sheet = centralSheet(book) as DashSheet;
    const layout = writeCentral(sheet, world().view);
    const header = sheet.read(9, 1, 1, COLUMNS.length)[0];
    expect(header).toEqual(COLUMNS.map((c) => c.header));
    const rows = sheet.read(10, 1, 5, COLUMNS.length);
    const row = (i: number) => Object.fromEntries(COLUMNS.map((c, k) => [c.key, rows[i][k]]));
    expect(row(0)).toMatchObject({
      empresa: 'Padaria',
      organizacao: '01.234.567/0001-89',
      faturas: 4,
      faturasValor: 400,
      notas: 4,
      notasValor: 400,
      aEmitir: 1,
      aEmitirValor: 123.45,
      issRetido: 0,
      issRecolher: 8,
      abertas: 0,
      vencidas: 0,
      divergencias: 2,
      status: 'Pendências: 1 nota a emitir, 1 divergência',
      conferidaPor: 'ana@example.com',
      conferidaEm: new Date(at(22, 10, 30)),
      lidaEm: new Date(at(22, 9, 1)),
      // The user's list of spreadsheets ran out of room: the row does not pass for complete.
      planilhas: '(pode haver outras: a sua lista de planilhas ficou sem espaço, e as falhas delas não entram na contagem)',
      ultima: 'OK em 22/11/2026 07:00',
      proxima: 'Pausada',
      falhas: 0,
    });
    expect(row(1)).toMatchObject({
      empresa: 'Oficina',
      faturas: '',
      faturasValor: '',
      divergencias: '',
      lidaEm: '',
      status: 'Falha na conexão: A chave foi recusada (401).',
    });
    expect(row(2)).toMatchObject({ empresa: 'Loja', organizacao: '', status: 'Ainda não atualizada', faturas: '', planilhas: '', falhas: '' });
    expect(row(3)).toMatchObject({
      conferidaPor: 'Conferência desfeita: 1 fatura nova desde 21/11 10:00.',
      conferidaEm: '',
      planilhas: 'Clínica 2026\nClínica caixa',
      ultima: 'Falhou em 22/11/2026 07:00: Falhou',
      proxima: '22/11/2026 12:00',
      falhas: 2,
    });
    // Each spreadsheet's name links to it; a company without one has no link.
    expect(sheet.links.get(`13:${column('planilhas')}`)).toEqual([
      { start: 0, end: 12, url: 'https://docs/1' },
      { start: 13, end: 26, url: 'https://docs/2' },
    ]);
    expect(sheet.links.has(`12:${column('planilhas')}`)).toBe(false);
    // The company's name and its status are wide enough to read.
    expect(sheet.widths?.[column('empresa') - 1]).toBeGreaterThanOrEqual(250);
    expect(sheet.widths?.[column('status') - 1]).toBeGreaterThanOrEqual(300);
    expect(row(4)).toMatchObject({
      empresa: 'Total de 2 empresas contadas (1 empresa com falha fica fora)',
      faturas: 5,
      faturasValor: 400.05,
      aEmitir: 1,
      divergencias: 2,
      status: '',
    });
    for (const c of COLUMNS) expect(sheet.formats.get(`10:${column(c.key)}`), c.key).toBe(c.format);
    expect(sheet.formats.get(`10:${column('faturasValor')}`)).toBe('#,##0.00');
    expect(sheet.formats.get(`10:${column('faturas')}`)).toBe('0');
    expect(sheet.formats.get(`10:${column('organizacao')}`)).toBe('@');
    expect(layout).toEqual({
      rows: new Map([
        ['c1', 10],
        ['c2', 11],
        ['c3', 12],
        ['c4', 13],
      ]),
      totalRow: 14,
    });
    expect(sheet.bold).toContain(`14:1+${COLUMNS.length}`);
  });

  it('says in its head the competência, when and by whom, what is counted, the charges’ window, what the interface cannot tell and the connections counted once', () => {
    const sheet = centralSheet(new DashBook()) as DashSheet;
    writeCentral(sheet, world().view);
    const head = [1, 2, 3, 4, 5, 6].map((r) => sheet.text(r));
    expect(head[0]).toBe('Central do escritório · competência 10/2026');
    expect(head[1]).toBe('Atualizada em 22/11/2026 09:05 por ana@example.com: 4 empresas, 1 com falha.');
    expect(head[2]).toMatch(/^O que se conta: faturas da competência sem as canceladas/);
    expect(head[3]).toMatch(/^Cobranças: as de vencimento de 01\/10\/2026 a 31\/12\/2026/);
    expect(head[4]).toMatch(/^O que a interface não mostra: .*mudança de status ou de número/);
    expect(head[5]).toBe('Conexões da mesma organização contadas uma vez: "Padaria (2ª chave)" (a mesma de "Padaria").');
    const { view } = world();
    writeCentral(sheet, { ...view, job: { ...view.job, finishedAt: undefined, onlyChanged: true, skipped: [] } });
    expect(sheet.text(2)).toBe(
      'Atualização em andamento desde 22/11/2026 09:00: 4 empresas; cada linha mostra a última leitura da empresa (coluna "Números lidos em"): as que esta atualização ainda não leu, e o total, podem estar desatualizados.',
    );
    writeCentral(sheet, { ...view, job: { ...view.job, onlyChanged: true } });
    expect(sheet.text(2)).toMatch(
      /^Atualizada em 22\/11\/2026 09:05 por ana@example.com: 4 empresas, 1 com falha \(lidas de novo só as empresas com alteração/,
    );
  });

  it('reads a review over other figures than the row’s as undone, even before a refresh removes it', () => {
    const { doc, items } = world();
    const padaria = items.get('org:1')!;
    markReviewed(new ReviewStore(doc), { ...padaria, figures: figures() }, ana, at(21, 10));
    const view = centralView({ store: doc, zone, user: ana }, job, items);
    expect(view.rows[0].review).toBeNull();
    expect(view.rows[0].month?.undone).toBe(
      'Conferência desfeita: 1 nota a emitir a mais, divergências passaram de 0 para 2 desde 21/11 10:00 (conferida por ana@example.com).',
    );
    const failed = centralView({ store: doc, zone, user: ana }, job, new Map([['org:1', { ...padaria, failure: { at: 1, message: 'x' } }]]));
    expect(failed.rows[0].review?.by).toEqual(ana);
    expect(centralView({ store: doc, zone, user: ana }, job, new Map()).rows[0]).toMatchObject({ month: undefined, review: { by: ana } });
  });

  it('leaves blank what it does not know, and words the head and the total for one company and for several failed', () => {
    const doc = trusted(new MemoryStore());
    const one = (c: CentralCompany, o: Partial<CompanyMonth>) => item(c, o);
    const items = new Map<string, CompanyMonth>([
      ['org:1', one(companies[0], { figures: figures({ chargesOpen: { count: 2, cents: 300 }, chargesOverdue: { count: 1, cents: 50 } }) })],
      ['org:2', one(companies[1], { failure: { at: 1, message: 'x' } })],
      ['org:4', one(companies[3], { failure: { at: 1, message: 'y' } })],
    ]);
    const lone: CentralJob = {
      ...job,
      owner: { id: 'u9', email: '' },
      skipped: [
        { name: 'A', used: 'B' },
        { name: 'C', used: 'D' },
      ],
    };
    const sheet = centralSheet(new DashBook()) as DashSheet;
    writeCentral(sheet, centralView({ store: doc, zone, user: ana, work: () => ({ links: [], failures: 0, paused: false }) }, lone, items));
    expect(sheet.text(2)).toBe('Atualizada em 22/11/2026 09:05 por outro editor: 4 empresas, 2 com falha.');
    expect(sheet.text(6)).toBe('Conexões da mesma organização contadas uma vez: "A" (a mesma de "B"), "C" (a mesma de "D").');
    const rows = sheet.read(10, 1, 5, COLUMNS.length).map((r) => Object.fromEntries(COLUMNS.map((c, k) => [c.key, r[k]])));
    expect(rows[0]).toMatchObject({
      lidaEm: '',
      conferidaPor: '',
      conferidaEm: '',
      ultima: '',
      proxima: '',
      falhas: 0,
      abertas: 2,
      abertasValor: 3,
      vencidas: 1,
      vencidasValor: 0.5,
    });
    for (const c of COLUMNS.slice(2, 15)) expect(rows[1][c.key], c.key).toBe('');
    expect(rows[4]).toEqual({
      empresa: 'Total de 1 empresa contada (2 empresas com falha ficam fora)',
      organizacao: '',
      faturas: 4,
      faturasValor: 400,
      notas: 4,
      notasValor: 400,
      aEmitir: 0,
      aEmitirValor: 0,
      issRetido: 0,
      issRecolher: 8,
      abertas: 2,
      abertasValor: 3,
      vencidas: 1,
      vencidasValor: 0.5,
      divergencias: 0,
      ...Object.fromEntries(COLUMNS.slice(15).map((c) => [c.key, ''])),
    });
    const bare = centralSheet(new DashBook()) as DashSheet;
    writeCentral(bare, {
      ...centralView({ store: doc, zone, user: ana }, { ...job, finishedAt: undefined, skipped: [], companies: companies.slice(2, 3) }, new Map()),
    });
    expect(bare.text(2)).toBe(
      'Atualização em andamento desde 22/11/2026 09:00: 1 empresa; cada linha mostra a última leitura da empresa (coluna "Números lidos em"): as que esta atualização ainda não leu, e o total, podem estar desatualizados.',
    );
    expect(bare.text(6)).toBe('');
    expect(bare.text(8)).toBe('Empresas · competência 10/2026');
    expect(bare.frozen).toBe(9);
    expect(bare.text(11)).toBe('Total de 0 empresas contadas');
    expect(bare.read(10, 1, 2, COLUMNS.length).map((r) => r.slice(COLUMNS.length - 4))).toEqual([
      ['', '', '', ''],
      ['', '', '', ''],
    ]);
  });

  it('is found by its tag whatever its tab is called, and made once', () => {
    const book = new DashBook();
    book.create('Central');
    const sheet = centralSheet(book) as DashSheet;
    expect(sheet.name()).toBe('Central (2)');
    expect(sheet.tags.get('faturamento.aba')).toBe(CENTRAL_TAG);
    expect(centralSheet(book)).toBe(sheet);
    expect(book.sheets).toHaveLength(2);
  });
});
