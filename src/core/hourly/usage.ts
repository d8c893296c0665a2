/**
 * The user's share of Google's daily quotas that this add-on spends: UrlFetch
 * calls and trigger runtime, counted per user (UserProperties) per quota day.
 * Google's quota day is not a calendar day: it starts at the user's first
 * request and resets 24 hours later (and counts all of the user's scripts, of
 * which this add-on sees only itself). So the count starts at the add-on's
 * first request and lasts 24 hours. The hourly run stops before a quota is
 * gone, so a person's own clicks still work, and says why in Relatórios.
 *
 * The add-on cannot ask Google which kind of account it runs under, so it
 * plans with the consumer account's figures, the smaller ones.
 */
import type { KeyValueStore } from '../ports';

/** Consumer-account quotas (developers.google.com/apps-script/guides/services/quotas). */
export const DAILY_QUOTA = { fetches: 20_000, triggerMs: 90 * 60_000 };
/** Left for the user's own work: scheduled runs stop when less than this remains. */
export const RESERVE = { fetches: 1_000, triggerMs: 10 * 60_000 };

/** A quota day: 24 hours from its first request. */
export const QUOTA_DAY_MS = 24 * 3_600_000;

export interface DailyUsage {
  /** When the quota day counted began (epoch ms): its first request. */
  since: number;
  fetches: number;
  triggerMs: number;
  /** Why scheduled work stopped today, when it did. */
  stopped?: string;
}

const KEY = 'faturamento.uso';

export class UsageStore {
  constructor(
    private readonly store: KeyValueStore,
    private readonly now: () => number,
  ) {}

  get(): DailyUsage {
    const now = this.now();
    try {
      const saved = JSON.parse(this.store.get(KEY) ?? 'null') as DailyUsage | null;
      if (saved && typeof saved.since === 'number' && now >= saved.since && now < saved.since + QUOTA_DAY_MS) return saved;
    } catch {
      // An unreadable record counts as a fresh day.
    }
    return { since: now, fetches: 0, triggerMs: 0 };
  }

  /** Adds an execution's share; `alongside`, other values the execution ends with, go in the same write when the store can. */
  add(fetches: number, triggerMs: number, stopped?: string, alongside: Record<string, string> = {}): DailyUsage {
    const now = this.get();
    const next: DailyUsage = { since: now.since, fetches: now.fetches + fetches, triggerMs: now.triggerMs + triggerMs, stopped: stopped ?? now.stopped };
    const values = { ...alongside, [KEY]: JSON.stringify(next) };
    if (this.store.setMany) this.store.setMany(values);
    else for (const [key, value] of Object.entries(values)) this.store.set(key, value);
    return next;
  }
}

/** Trigger time the hourly run may still use today. */
export function triggerBudgetMs(usage: DailyUsage): number {
  return Math.max(0, DAILY_QUOTA.triggerMs - RESERVE.triggerMs - usage.triggerMs);
}

/** When the quota day ends, in words: Google resets it 24 hours after its first request, not at midnight. */
function resumes(usage: DailyUsage, now: number): string {
  const hours = Math.max(1, Math.ceil((usage.since + QUOTA_DAY_MS - now) / 3_600_000));
  return `quando a cota diária do Google renovar, 24 horas depois da primeira chamada do dia (em até ${hours} h)`;
}

/** Why the hourly run must not start today, or null. */
export function quotaStop(usage: DailyUsage, minimumRunMs: number, now: number): string | null {
  if (usage.fetches >= DAILY_QUOTA.fetches - RESERVE.fetches) {
    return `As atualizações agendadas pararam hoje: o complemento já fez ${usage.fetches.toLocaleString('pt-BR')} das ${DAILY_QUOTA.fetches.toLocaleString('pt-BR')} chamadas ao serviço que o Google permite por dia, e a reserva fica para o seu uso. Elas voltam ${resumes(usage, now)}; atualizar pela barra lateral continua possível.`;
  }
  if (triggerBudgetMs(usage) < minimumRunMs) {
    return `As atualizações agendadas pararam hoje: usaram ${Math.round(usage.triggerMs / 60_000)} dos ${DAILY_QUOTA.triggerMs / 60_000} minutos de execução automática que o Google permite por dia. Elas voltam ${resumes(usage, now)}; atualizar pela barra lateral continua possível.`;
  }
  return null;
}
