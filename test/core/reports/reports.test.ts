/**
 * Saved reports: kept in the document's properties (a list in creation order,
 * a clear message for one deleted meanwhile), relative filters resolved at
 * each run, and an incremental run asking only what changed since the last
 * good one, in the service's own wall clock.
 */
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { type Report, ReportStore } from '../../../src/core/reports/reports';
import { resolveFilters } from '../../../src/core/runs/plan-pull';
import { INCREMENTAL_MARGIN_MS, incrementalFilters } from '../../../src/core/runs/plan-pull';
import { MemoryStore, trusted } from '../bulk/fixtures';

const zone = intlZone('America/Sao_Paulo');
const lisbon = intlZone('Europe/Lisbon');

const fields = (name: string): Omit<Report, 'id' | 'createdAt'> => ({
  name,
  listing: 'faturas',
  connection: 'Empresa',
  filters: {},
  sheetName: name,
  incremental: false,
  schedule: null,
  notifyByEmail: false,
});

describe('the report store', () => {
  it('lists reports in creation order, ignoring other properties and unreadable ones', () => {
    const doc = new MemoryStore();
    let n = 0;
    const store = new ReportStore(trusted(doc), () => `id-${++n}-longer-than-eight`);
    const late = store.create(fields('Tarde'), 200);
    const early = store.create(fields('Cedo'), 100);
    doc.set('faturamento.job.x', JSON.stringify({ createdAt: 0 }));
    doc.set('faturamento.relatorio.quebrado', '{nada');
    expect(late.id).toBe('id-1-lon');
    expect(store.list().map((r) => r.name)).toEqual(['Cedo', 'Tarde']);
    expect(store.get(early.id)).toEqual({ ...fields('Cedo'), id: early.id, createdAt: 100 });
  });

  it('a report deleted meanwhile: get says to refresh the list, find says nothing', () => {
    const store = new ReportStore(trusted(), () => 'abcdefgh');
    const r = store.create(fields('Um'), 1);
    store.delete(r.id);
    expect(() => store.get(r.id)).toThrow('Este relatório não existe mais. Atualize a lista de relatórios.');
    expect(store.find(r.id)).toBeNull();
    expect(store.list()).toEqual([]);
  });

  it('a draft is not saved until its first run; an update that returns nothing saves the report as it was', () => {
    const store = new ReportStore(trusted(), () => 'abcdefghij');
    const draft = store.draft(fields('Rascunho'), 5);
    expect(draft).toMatchObject({ id: 'abcdefgh', createdAt: 5, name: 'Rascunho' });
    expect(store.find(draft.id)).toBeNull();
    store.save(draft);
    expect(store.update(draft.id, () => undefined)).toEqual(draft);
    expect(store.update(draft.id, (r) => ({ ...r, name: 'Novo' })).name).toBe('Novo');
    expect(store.get(draft.id).name).toBe('Novo');
  });
});

describe('relative filters at a run', () => {
  // 31/01/2026 23:30 in São Paulo (already 1 February in UTC).
  const now = new Date(Date.UTC(2026, 1, 1, 2, 30));
  const report = (filters: Report['filters']): Report => ({ ...fields('R'), id: 'r', createdAt: 0, filters });

  it("dates count from the spreadsheet's today, months from its month; absolute values pass as they are", () => {
    const out = resolveFilters(
      report({
        dataInicial: { rel: 'hoje', dias: -30 },
        dataFinal: { rel: 'hoje', dias: 0 },
        amanha: { rel: 'hoje', dias: 1 },
        competencia: { rel: 'mes', meses: -1 },
        seguinte: { rel: 'mes', meses: 1 },
        atual: { rel: 'mes', meses: 0 },
        texto: 'abc',
        numero: 7,
        sim: false,
        ids: [1, 2],
      }),
      now,
      zone,
    );
    expect(out).toEqual({
      dataInicial: '2026-01-01',
      dataFinal: '2026-01-31',
      amanha: '2026-02-01',
      competencia: '12/2025',
      seguinte: '02/2026',
      atual: '01/2026',
      texto: 'abc',
      numero: 7,
      sim: false,
      ids: [1, 2],
    });
  });
});

describe('an incremental run', () => {
  const at = Date.UTC(2026, 10, 22, 15); // 12:00 in São Paulo, 15:00 in Lisbon
  const base = { isListarItens: true };
  const report = (changes: Partial<Report>): Report => ({ ...fields('R'), id: 'r', createdAt: 0, incremental: true, lastSuccessStart: at, ...changes });

  it("asks from the last good start less the margin, as the service's wall clock reads it, and merges", () => {
    expect(INCREMENTAL_MARGIN_MS).toBe(10 * 60_000);
    expect(incrementalFilters(report({}), base, zone)).toEqual({
      filters: { isListarItens: true, dataHoraAtualizacaoInicial: '22/11/2026 11:50' },
      merge: true,
    });
    expect(incrementalFilters(report({}), base, lisbon).filters.dataHoraAtualizacaoInicial).toBe('22/11/2026 14:50');
  });

  it('is a full pull when the report is not incremental, never succeeded, or its listing has no update stamp', () => {
    const full = { filters: base, merge: false };
    expect(incrementalFilters(report({ incremental: false }), base, zone)).toEqual(full);
    expect(incrementalFilters(report({ lastSuccessStart: undefined }), base, zone)).toEqual(full);
    expect(incrementalFilters(report({ listing: 'clientes' }), base, zone)).toEqual(full);
    expect(incrementalFilters(report({ lastSuccessStart: 0 }), base, zone).merge).toBe(true);
  });
});
