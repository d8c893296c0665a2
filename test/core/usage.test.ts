import { describe, expect, it } from 'vitest';
import { DAILY_QUOTA, quotaStop, RESERVE, triggerBudgetMs, UsageStore } from '../../src/core/usage';
import { MemoryStore } from '../bulk/fixtures';

const KEY = 'faturamento.uso';

describe("the user's share of Google's daily quotas", () => {
  it("plans with the consumer account's quotas and keeps a reserve", () => {
    expect(DAILY_QUOTA).toEqual({ fetches: 20_000, triggerMs: 5_400_000 });
    expect(RESERVE).toEqual({ fetches: 1_000, triggerMs: 600_000 });
  });

  it('counts per day in one property, starting fresh on a new day', () => {
    const store = new MemoryStore();
    let day = '2026-11-22';
    const usage = new UsageStore(store, () => day);
    expect(usage.get()).toEqual({ day: '2026-11-22', fetches: 0, triggerMs: 0 });
    usage.add(3, 1_000);
    expect(usage.add(2, 500)).toEqual({ day: '2026-11-22', fetches: 5, triggerMs: 1_500 });
    expect(JSON.parse(store.get(KEY) ?? '')).toEqual({ day: '2026-11-22', fetches: 5, triggerMs: 1_500 });
    expect(usage.get()).toEqual({ day: '2026-11-22', fetches: 5, triggerMs: 1_500 });
    day = '2026-11-23';
    expect(usage.get()).toEqual({ day: '2026-11-23', fetches: 0, triggerMs: 0 });
    expect(usage.add(1, 10)).toEqual({ day: '2026-11-23', fetches: 1, triggerMs: 10 });
  });

  it('keeps why scheduled work stopped until a new reason comes', () => {
    const store = new MemoryStore();
    const usage = new UsageStore(store, () => '2026-11-22');
    expect(usage.add(1, 0, 'cota').stopped).toBe('cota');
    expect(usage.add(1, 0).stopped).toBe('cota');
    expect(usage.add(1, 0, 'outra').stopped).toBe('outra');
  });

  it('an unreadable record counts as a fresh day', () => {
    const store = new MemoryStore();
    store.set(KEY, '{não é json');
    expect(new UsageStore(store, () => '2026-11-22').get()).toEqual({ day: '2026-11-22', fetches: 0, triggerMs: 0 });
  });

  it('trigger time left is the quota minus the reserve minus what was used, never below zero', () => {
    expect(triggerBudgetMs({ day: 'd', fetches: 0, triggerMs: 0 })).toBe(4_800_000);
    expect(triggerBudgetMs({ day: 'd', fetches: 0, triggerMs: 4_700_000 })).toBe(100_000);
    expect(triggerBudgetMs({ day: 'd', fetches: 0, triggerMs: 5_000_000 })).toBe(0);
  });

  it('stops the hourly run when the fetches reach the reserve, saying why in Portuguese', () => {
    expect(quotaStop({ day: 'd', fetches: 18_999, triggerMs: 0 }, 60_000)).toBeNull();
    expect(quotaStop({ day: 'd', fetches: 19_000, triggerMs: 0 }, 60_000)).toBe(
      'As atualizações agendadas pararam hoje: o complemento já fez 19.000 das 20.000 chamadas ao serviço que o Google permite por dia, e a reserva fica para o seu uso. Elas voltam amanhã; atualizar pela barra lateral continua possível.',
    );
  });

  it('stops the hourly run when a run no longer fits the trigger time left', () => {
    expect(quotaStop({ day: 'd', fetches: 0, triggerMs: 4_740_000 }, 60_000)).toBeNull();
    expect(quotaStop({ day: 'd', fetches: 0, triggerMs: 4_740_001 }, 60_000)).toBe(
      'As atualizações agendadas pararam hoje: usaram 79 dos 90 minutos de execução automática que o Google permite por dia. Elas voltam amanhã; atualizar pela barra lateral continua possível.',
    );
  });
});
