/**
 * The user's share of Google's daily quotas that this add-on spends: UrlFetch
 * calls and trigger runtime, counted per user (UserProperties) per day. The
 * hourly run stops before a quota is gone, so a person's own clicks still work,
 * and says why in Relatórios.
 *
 * The add-on cannot ask Google which kind of account it runs under, so it
 * plans with the consumer account's figures, the smaller ones.
 */
import type { KeyValueStore } from './ports';

/** Consumer-account quotas (developers.google.com/apps-script/guides/services/quotas). */
export const DAILY_QUOTA = { fetches: 20_000, triggerMs: 90 * 60_000 };
/** Left for the user's own work: scheduled runs stop when less than this remains. */
export const RESERVE = { fetches: 1_000, triggerMs: 10 * 60_000 };

export interface DailyUsage {
  /** The day counted, yyyy-mm-dd in the spreadsheet's zone. */
  day: string;
  fetches: number;
  triggerMs: number;
  /** Why scheduled work stopped today, when it did. */
  stopped?: string;
}

const KEY = 'faturamento.uso';

export class UsageStore {
  constructor(
    private readonly store: KeyValueStore,
    private readonly today: () => string,
  ) {}

  get(): DailyUsage {
    const day = this.today();
    try {
      const saved = JSON.parse(this.store.get(KEY) ?? 'null') as DailyUsage | null;
      if (saved && saved.day === day) return saved;
    } catch {
      // An unreadable record counts as a fresh day.
    }
    return { day, fetches: 0, triggerMs: 0 };
  }

  add(fetches: number, triggerMs: number, stopped?: string): DailyUsage {
    const now = this.get();
    const next: DailyUsage = { day: now.day, fetches: now.fetches + fetches, triggerMs: now.triggerMs + triggerMs, stopped: stopped ?? now.stopped };
    this.store.set(KEY, JSON.stringify(next));
    return next;
  }
}

/** Trigger time the hourly run may still use today. */
export function triggerBudgetMs(usage: DailyUsage): number {
  return Math.max(0, DAILY_QUOTA.triggerMs - RESERVE.triggerMs - usage.triggerMs);
}

/** Why the hourly run must not start today, or null. */
export function quotaStop(usage: DailyUsage, minimumRunMs: number): string | null {
  if (usage.fetches >= DAILY_QUOTA.fetches - RESERVE.fetches) {
    return `As atualizações agendadas pararam hoje: o complemento já fez ${usage.fetches.toLocaleString('pt-BR')} das ${DAILY_QUOTA.fetches.toLocaleString('pt-BR')} chamadas ao serviço que o Google permite por dia, e a reserva fica para o seu uso. Elas voltam amanhã; atualizar pela barra lateral continua possível.`;
  }
  if (triggerBudgetMs(usage) < minimumRunMs) {
    return `As atualizações agendadas pararam hoje: usaram ${Math.round(usage.triggerMs / 60_000)} dos ${DAILY_QUOTA.triggerMs / 60_000} minutos de execução automática que o Google permite por dia. Elas voltam amanhã; atualizar pela barra lateral continua possível.`;
  }
  return null;
}
