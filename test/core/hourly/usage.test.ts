import { describe, expect, it } from 'vitest';
import { DAILY_QUOTA, QUOTAS, quotaStop, RESERVE, RESERVES, triggerBudgetMs, UsageStore } from '../../../src/core/hourly/usage';
import { MemoryStore } from '../bulk/fixtures';

const KEY = 'faturamento.uso';

describe("the user's share of Google's daily quotas", () => {
  it("plans with the consumer account's quotas and keeps a reserve", () => {
    expect(DAILY_QUOTA).toEqual({ fetches: 20_000, triggerMs: 5_400_000 });
    expect(RESERVE).toEqual({ fetches: 1_000, triggerMs: 600_000 });
  });

  it('counts a quota day in one property: 24 hours from its first request, not a calendar day', () => {
    const store = new MemoryStore();
    const HOUR = 3_600_000;
    // 20h in São Paulo: the quota day began then, and midnight does not end it.
    const first = Date.parse('2026-11-22T20:00:00-03:00');
    let now = first;
    const usage = new UsageStore(store, () => now);
    expect(usage.get()).toEqual({ since: first, fetches: 0, triggerMs: 0 });
    usage.add(3, 1_000);
    expect(usage.add(2, 500)).toEqual({ since: first, fetches: 5, triggerMs: 1_500 });
    expect(JSON.parse(store.get(KEY) ?? '')).toEqual({ since: first, fetches: 5, triggerMs: 1_500 });
    now = first + 5 * HOUR;
    expect(usage.get()).toEqual({ since: first, fetches: 5, triggerMs: 1_500 });
    now = first + 24 * HOUR;
    expect(usage.get()).toEqual({ since: now, fetches: 0, triggerMs: 0 });
    expect(usage.add(1, 10)).toEqual({ since: now, fetches: 1, triggerMs: 10 });
  });

  it('keeps why scheduled work stopped until a new reason comes', () => {
    const store = new MemoryStore();
    const usage = new UsageStore(store, () => 1_000);
    expect(usage.add(1, 0, 'cota').stopped).toBe('cota');
    expect(usage.add(1, 0).stopped).toBe('cota');
    expect(usage.add(1, 0, 'outra').stopped).toBe('outra');
  });

  it('an unreadable record counts as a fresh day', () => {
    const store = new MemoryStore();
    store.set(KEY, '{não é json');
    expect(new UsageStore(store, () => 1_000).get()).toEqual({ since: 1_000, fetches: 0, triggerMs: 0 });
  });

  it('trigger time left is the quota minus the reserve minus what was used, never below zero', () => {
    expect(triggerBudgetMs({ since: 0, fetches: 0, triggerMs: 0 })).toBe(4_800_000);
    expect(triggerBudgetMs({ since: 0, fetches: 0, triggerMs: 4_700_000 })).toBe(100_000);
    expect(triggerBudgetMs({ since: 0, fetches: 0, triggerMs: 5_000_000 })).toBe(0);
  });

  it('stops the hourly run when the fetches reach the reserve, saying why in Portuguese', () => {
    expect(quotaStop({ since: 0, fetches: 18_999, triggerMs: 0 }, 60_000, 5 * 3_600_000)).toBeNull();
    expect(quotaStop({ since: 0, fetches: 19_000, triggerMs: 0 }, 60_000, 5 * 3_600_000)).toBe(
      'As atualizações agendadas pararam hoje: o complemento já fez 19.000 das 20.000 chamadas ao serviço que o Google permite por dia, e a reserva fica para o seu uso. Elas voltam quando a cota diária do Google renovar, 24 horas depois da primeira chamada do dia (em até 19 h); atualizar pela barra lateral continua possível.',
    );
  });

  it('stops the hourly run when a run no longer fits the trigger time left', () => {
    expect(quotaStop({ since: 0, fetches: 0, triggerMs: 4_740_000 }, 60_000, 5 * 3_600_000)).toBeNull();
    expect(quotaStop({ since: 0, fetches: 0, triggerMs: 4_740_001 }, 60_000, 5 * 3_600_000)).toBe(
      'As atualizações agendadas pararam hoje: usaram 79 dos 90 minutos de execução automática que o Google permite por dia. Elas voltam quando a cota diária do Google renovar, 24 horas depois da primeira chamada do dia (em até 19 h); atualizar pela barra lateral continua possível.',
    );
  });

  it('plans with a Workspace account’s quotas when it is one: 6 hours and 100,000 calls, the same shares kept in reserve', () => {
    expect(QUOTAS.workspace).toEqual({ fetches: 100_000, triggerMs: 6 * 3_600_000 });
    expect(RESERVES.workspace).toEqual({ fetches: 5_000, triggerMs: 40 * 60_000 });
    const usage = { since: 0, fetches: 0, triggerMs: 80 * 60_000 };
    expect(triggerBudgetMs(usage, 'workspace')).toBe((360 - 40 - 80) * 60_000);
    expect(quotaStop(usage, 60_000, 5 * 3_600_000, 'workspace')).toBeNull();
    expect(quotaStop(usage, 60_000, 5 * 3_600_000, 'consumer')).toMatch(/usaram 80 dos 90 minutos/);
    expect(quotaStop({ since: 0, fetches: 95_000, triggerMs: 0 }, 60_000, 5 * 3_600_000, 'workspace')).toMatch(/95\.000 das 100\.000 chamadas/);
    expect(quotaStop({ since: 0, fetches: 94_999, triggerMs: 0 }, 60_000, 5 * 3_600_000, 'workspace')).toBeNull();
    expect(quotaStop({ since: 0, fetches: 0, triggerMs: 319 * 60_000 }, 60_000, 5 * 3_600_000, 'workspace')).toBeNull();
    expect(quotaStop({ since: 0, fetches: 0, triggerMs: 319 * 60_000 + 1 }, 60_000, 5 * 3_600_000, 'workspace')).toMatch(/usaram 319 dos 360 minutos/);
  });

  it('keeps the kind of account found on a quota day for the rest of that day, and forgets it with the day', () => {
    const store = new MemoryStore();
    let now = 1_000;
    const usage = new UsageStore(store, () => now);
    expect(usage.add(1, 0, undefined, {}, 'workspace').account).toBe('workspace');
    expect(usage.add(1, 0).account).toBe('workspace');
    expect(usage.get().account).toBe('workspace');
    now += 24 * 3_600_000;
    expect(usage.get().account).toBeUndefined();
  });
});
