/**
 * Stored dashboards: kept beside the reports in the document's work store under
 * their own prefix, listed oldest first, a vanished one named in Portuguese.
 */
import { describe, expect, it } from 'vitest';
import { DashboardStore, dashboardTag } from '../../../src/core/dashboards/store';
import { MemoryStore, trusted } from '../bulk/fixtures';

const owner = { id: 'u1', email: 'dona@example.com' };
const fields = (sheetName: string) => ({ kind: 'vencimentos' as const, reportId: 'r1', owner, sheetName });

function stored() {
  const doc = new MemoryStore();
  const ids = ['bbbbbbbb-resto-do-uuid', 'aaaaaaaa-resto-do-uuid', 'cccccccc-resto-do-uuid'];
  return { doc, dashboards: new DashboardStore(trusted(doc), () => ids.shift() ?? 'esgotado') };
}

describe('stored dashboards', () => {
  it('lists only dashboards, oldest first, skipping what is not one', () => {
    const { doc, dashboards } = stored();
    dashboards.create(fields('Segundo'), 20);
    dashboards.create(fields('Primeiro'), 10);
    dashboards.create(fields('Terceiro'), 30);
    // Reports and other records share the store; a damaged or foreign entry under the prefix is not a dashboard.
    doc.set('faturamento.relatorio.r1', JSON.stringify({ id: 'r1', createdAt: 0 }));
    doc.set('faturamento.painel.quebrado', '{não é json');
    doc.set('faturamento.painel.sem-id', JSON.stringify({ createdAt: 1 }));
    doc.set('faturamento.painel.nulo', 'null');
    expect(dashboards.list().map((d) => d.sheetName)).toEqual(['Primeiro', 'Segundo', 'Terceiro']);
  });

  it('gives a new dashboard a short id and its creation time, kept under that id', () => {
    const { doc, dashboards } = stored();
    const made = dashboards.create(fields('Painel'), 1_234);
    expect(made).toEqual({ ...fields('Painel'), id: 'bbbbbbbb', createdAt: 1_234 });
    expect(JSON.parse(doc.get('faturamento.painel.bbbbbbbb') ?? 'null')).toEqual(made);
    expect(dashboards.find('bbbbbbbb')).toEqual(made);
    expect(dashboardTag(made.id)).toBe('painel:bbbbbbbb');
  });

  it('a deleted dashboard is gone, and asking for it says so in Portuguese', () => {
    const { doc, dashboards } = stored();
    const made = dashboards.create(fields('Painel'), 1);
    const kept = dashboards.create(fields('Outro'), 2);
    dashboards.save({ ...made, lastRefresh: { at: 5, ok: true, counted: 3 } });
    expect(dashboards.get(made.id).lastRefresh).toEqual({ at: 5, ok: true, counted: 3 });
    dashboards.delete(made.id);
    expect(dashboards.find(made.id)).toBeNull();
    expect(() => dashboards.get(made.id)).toThrow('Este painel não existe mais. Atualize a lista de painéis.');
    expect(dashboards.list().map((d) => d.id)).toEqual([kept.id]);
    expect(doc.keys()).toEqual([`faturamento.painel.${kept.id}`]);
  });
});
