/**
 * The Importar form in Node: each refusal names the field the sidebar marks,
 * before anything is written or asked of the service; a form that passes is
 * saved as its report, whose first run starts on the sheet the check looked at.
 */
import { describe, expect, it } from 'vitest';
import { ConnectionStore } from '../../../src/core/connections/connections';
import type { Report } from '../../../src/core/reports/reports';
import { type FormContext, type ReportForm, runForm } from '../../../src/core/runs/form';
import { SHEET_TAG } from '../../../src/core/sheets/sheet-layout';
import { MemoryStore } from '../bulk/fixtures';
import { customers } from '../fake-service';
import { T0, world } from './run-world';

const OWNER = { id: 'u1', email: 'ana@example.com' };

function setUp() {
  const w = world({ k1: customers(1, 3), k2: customers(2, 2) });
  let n = 0;
  const connections = new ConnectionStore(new MemoryStore(), () => `k${++n}`);
  connections.upsert({ name: 'Empresa k1', baseUrl: 'http://localhost:1', apiKey: 'chave-1' });
  connections.upsert({ name: 'Empresa k2', baseUrl: 'http://localhost:1', apiKey: 'chave-2' });
  const ctx = {
    owner: OWNER,
    mayEdit: (report: Report) => report.owner?.id === OWNER.id,
    connections,
    workSheet: 'Faturamento · dados',
    reserved: ['Faturamento · dados', 'Diagnóstico'],
    ownJob: (reportId: string) => w.deps.jobs.get(reportId),
  } satisfies FormContext;
  const send = (form: Partial<ReportForm>) =>
    runForm(w.deps, { name: '', listing: 'clientes', connection: '', filters: {}, sheetName: 'Clientes', ...form }, ctx);
  /** The field a form is refused beside (and, with `said`, its words), and that nothing was saved or asked. */
  const refusal = (form: Partial<ReportForm>, said?: string | RegExp) => {
    const before = w.reports.list().length;
    let field: string | undefined;
    expect(() => {
      try {
        send(form);
      } catch (err) {
        field = (err as { field?: string }).field;
        throw err;
      }
    }).toThrow(said ?? Error);
    expect(w.reports.list().length).toBe(before);
    expect(w.service.asked).toEqual([]);
    return field;
  };
  return { w, ctx, send, refusal };
}

describe('the Importar form', () => {
  it('is saved as its report, in the owner’s name, and its first run starts on a sheet it makes', () => {
    const { w, send } = setUp();
    const run = send({ name: '  ', connection: 'k2', filters: { cpfCnpj: '', email: null, isAtivo: true, isCliente: false } as ReportForm['filters'] });
    expect(run.started).toBe(true);
    const saved = w.reports.get(run.report.id);
    expect(saved).toMatchObject({ name: 'Clientes', listing: 'clientes', connection: 'Empresa k2', connectionId: 'k2', owner: OWNER });
    // Blank fields ask nothing; a false box is a filter like any other.
    expect(saved.filters).toEqual({ isAtivo: true, isCliente: false });
    expect(saved).toMatchObject({ schedule: null, notifyByEmail: false, sheetName: 'Clientes' });
    expect(send({ name: ' Ativos ', sheetName: ' Ativos ' }).report).toMatchObject({ name: 'Ativos', sheetName: 'Ativos', connectionId: 'k1' });
    expect(saved.sheetId).toBe(w.book.byName('Clientes')?.id);
    expect(saved.lastRun).toMatchObject({ origin: 'manual', startedAt: T0 });
    expect(w.book.byName('Clientes')?.sheetTag(SHEET_TAG)).toBe(`relatorio:${saved.id}`);
    expect(run.progress).toMatchObject({ reportId: saved.id, status: 'running', firstRun: true });
  });

  it('refuses, beside the field at fault, what the person can put right', () => {
    const { w, refusal } = setUp();
    expect(refusal({ listing: 'nada' as ReportForm['listing'] }, 'Escolha o que importar.')).toBe('listing');
    expect(refusal({ connection: 'k9' }, 'A conexão "k9" não existe mais')).toBe('connection');
    expect(refusal({ companies: { ids: [] } }, 'Marque as empresas do relatório consolidado (duas ou mais).')).toBe('connection');
    expect(refusal({ companies: {} }, 'Marque as empresas')).toBe('connection');
    expect(refusal({ companies: { ids: ['k1', 'alguém'] } }, 'Só é possível escolher conexões suas')).toBe('connection');
    expect(refusal({ sheetName: '  ' }, 'Informe a aba de destino.')).toBe('sheetName');
    expect(refusal({ sheetName: 'Faturamento · dados' }, 'A aba "Faturamento · dados" guarda os relatórios do complemento')).toBe('sheetName');
    expect(refusal({ sheetName: 'Jan/2026' }, 'Use um nome de aba')).toBe('sheetName');
    w.book.create('Histórico').setSheetTag(SHEET_TAG, 'historico');
    expect(refusal({ sheetName: 'Histórico' }, 'é o histórico de execuções')).toBe('sheetName');
    const mine = w.book.create('Minha aba');
    expect(refusal({ sheetName: 'Minha aba', newSheet: true }, 'Já existe uma aba "Minha aba"')).toBe('sheetName');
    mine.write(1, 1, [['nota']]);
    expect(refusal({ sheetName: 'Minha aba' }, 'Clique de novo para confirmar que quer substituir "Minha aba"')).toBe('confirmReplace');
    expect(refusal({ sheetName: 'Minha aba', confirmReplace: 'Outra' })).toBe('confirmReplace');
    expect(refusal({ listing: 'faturas', filters: { competencia: '13/2026' } })).toBe('filter:competencia');
    expect(refusal({ sheetFilters: [{ field: 'nome', op: 'igual', values: [] }] })).toBe('sheetFilter:0');
  });

  it('asks for a connection first when the running user has none', () => {
    const { w, ctx } = setUp();
    const none = { ...ctx, connections: new ConnectionStore(new MemoryStore(), () => 'x') };
    const form = { name: '', listing: 'clientes' as const, connection: '', filters: {}, sheetName: 'Clientes' };
    for (const companies of [null, { all: true }])
      expect(() => runForm(w.deps, { ...form, companies }, none)).toThrow('Nenhuma conexão configurada: abra Faturamento › Conexões e adicione uma.');
  });

  it('refuses a bad filter before a bad sheet filter, as the form reads top down', () => {
    const { refusal } = setUp();
    expect(refusal({ listing: 'faturas', filters: { competencia: '13/2026' }, sheetFilters: [{ field: 'numero', op: 'igual', values: [] }] })).toBe(
      'filter:competencia',
    );
  });

  it('takes a user’s sheet that has data only once they confirmed replacing it, and an empty one at once', () => {
    const { w, send } = setUp();
    const empty = w.book.create('Vazia');
    expect(send({ sheetName: 'Vazia' }).report.sheetId).toBe(empty.id);
    w.book.create('Minha aba').write(1, 1, [['nota']]);
    const run = send({ sheetName: 'Minha aba', confirmReplace: 'Minha aba' });
    expect(run.report.sheetId).toBe(w.book.byName('Minha aba')?.id);
  });

  it('keeps one company as a one-company report, and names a consolidated one by its companies', () => {
    const { w, ctx, send } = setUp();
    expect(send({ companies: { ids: ['k2'] }, sheetName: 'Uma' }).report).toMatchObject({ connection: 'Empresa k2', connectionId: 'k2', companies: undefined });
    const both = send({ companies: { ids: ['k1', 'k2', 'k1'] }, sheetName: 'Duas' }).report;
    expect(both).toMatchObject({ connection: 'Empresa k1, Empresa k2', connectionId: 'k1', companies: { all: false, ids: ['k1', 'k2'] } });
    // The sheet the check looked at is laid out as consolidated: the company first.
    expect(w.book.byName('Duas')?.read(1, 1, 1, 2)).toEqual([['⚠ INCOMPLETO · Empresa', 'ID da conexão']]);
    expect(w.book.byName('Uma')?.read(1, 1, 1, 1)[0][0]).not.toMatch(/Empresa/);
    expect(send({ companies: { all: true }, sheetName: 'Todas' }).report).toMatchObject({ connectionId: 'k1', companies: { all: true, ids: [] } });
    // "Todas" is led by the default connection.
    ctx.connections.upsert({ id: 'k2', name: 'Empresa k2', baseUrl: 'http://localhost:1', isDefault: true });
    expect(send({ companies: { all: true }, sheetName: 'Todas de novo' }).report).toMatchObject({ connectionId: 'k2', connection: 'Todas as minhas conexões' });
  });

  it('keeps card data and incremental only where the listing has them', () => {
    const { send } = setUp();
    expect(send({ cardData: true, incremental: true }).report).toMatchObject({ cardData: true, incremental: false });
    expect(send({ listing: 'faturas', sheetName: 'Faturas', cardData: true, incremental: true }).report).toMatchObject({ cardData: false, incremental: true });
    expect(send({ listing: 'faturas', sheetName: 'Outra', incremental: false }).report).toMatchObject({ cardData: false, incremental: false });
  });

  it('edits only a report of the running user, and one whose run goes on keeps it going, with the edits saved for the next run', () => {
    const { w, send, refusal } = setUp();
    const first = send({});
    const theirs = w.reports.save({ ...w.reports.get(first.report.id), owner: { id: 'u2', email: 'bia@example.com' } } as Report);
    expect(refusal({ id: theirs.id })).toBe('connection');
    w.reports.save({ ...theirs, owner: OWNER });
    const again = send({ id: first.report.id, name: 'Clientes de novo' });
    expect(again.started).toBe(false);
    expect(again.job.state.startedAt).toBe(first.job.state.startedAt);
    expect(w.reports.get(first.report.id).name).toBe('Clientes de novo');
    // Its own sheet, full as it is, is no user's sheet to confirm replacing, and stays its sheet by id.
    w.book.byName('Clientes')?.write(2, 1, [['linha']]);
    expect(send({ id: first.report.id, newSheet: true }).report.sheetId).toBe(first.report.sheetId);
  });

  it('knows an edited report’s sheet by its name while the report has no sheet id, and only that sheet', () => {
    const { w, send, refusal } = setUp();
    const old = w.report({ sheetName: 'Antiga', owner: OWNER });
    const sheet = w.book.create('Antiga');
    sheet.write(1, 1, [['dados']]);
    expect(send({ id: old.id, sheetName: 'Antiga' }).report).toMatchObject({ sheetName: 'Antiga', sheetId: sheet.id });
    w.book.create('Outra').write(1, 1, [['dados']]);
    expect(refusal({ id: old.id, sheetName: 'Outra' })).toBe('confirmReplace');
  });
});
