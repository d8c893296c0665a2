/** Runs asked from the Central for other spreadsheets: kept per spreadsheet until served, refused when there is no room. */
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/api/user-error';
import { ASKED_BYTES, askedIn, askRuns, served } from '../../../src/core/hourly/asked-runs';
import { MemoryStore } from '../bulk/fixtures';

describe('runs asked for other spreadsheets', () => {
  it('keeps each spreadsheet’s companies once, and forgets only those served', () => {
    const store = new MemoryStore();
    askRuns(store, ['d1', 'd2'], 'c1');
    askRuns(store, ['d1'], 'c1');
    askRuns(store, ['d1'], 'c2');
    expect([...askedIn(store, 'd1')]).toEqual(['c1', 'c2']);
    expect([...askedIn(store, 'd2')]).toEqual(['c1']);
    expect(askedIn(store, 'd3').size).toBe(0);
    // c2 was asked while c1 was being served: it stays.
    served(store, 'd1', new Set(['c1']));
    expect([...askedIn(store, 'd1')]).toEqual(['c2']);
    served(store, 'd1', new Set(['c2']));
    served(store, 'd2', new Set(['c1']));
    expect(store.keys()).toEqual([]);
  });

  it('refuses what one property cannot hold, saying what to do, and keeps what was asked before', () => {
    const store = new MemoryStore();
    askRuns(store, ['d0'], 'c0');
    const many = Array.from({ length: Math.ceil(ASKED_BYTES / 40) }, (_, i) => `documento-${String(i).padStart(30, '0')}`);
    expect(() => askRuns(store, many, 'c1')).toThrow(UserError);
    expect(() => askRuns(store, many, 'c1')).toThrow(/pedidos de atualização demais/);
    expect([...askedIn(store, 'd0')]).toEqual(['c0']);
  });

  it('serves nothing for a spreadsheet nobody asked for, writing nothing', () => {
    const store = new MemoryStore();
    served(store, 'd1', new Set(['c1']));
    expect(store.keys()).toEqual([]);
    askRuns(store, ['d2'], 'c1');
    const before = store.get('faturamento.pedidos');
    served(store, 'd1', new Set(['c1']));
    served(store, 'd2', new Set());
    expect(store.get('faturamento.pedidos')).toBe(before);
  });

  it('reads a damaged value as nothing asked', () => {
    const store = new MemoryStore();
    store.set('faturamento.pedidos', 'null');
    expect(askedIn(store, 'd1').size).toBe(0);
    store.set('faturamento.pedidos', '[1,2]');
    expect(askedIn(store, 'd1').size).toBe(0);
    store.set('faturamento.pedidos', JSON.stringify({ d1: ['c1', 7], d2: 'x' }));
    expect([...askedIn(store, 'd1')]).toEqual(['c1']);
    expect(askedIn(store, 'd2').size).toBe(0);
  });
});
