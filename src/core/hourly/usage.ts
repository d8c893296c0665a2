/**
 * The user's share of Google's daily quotas that this add-on spends: UrlFetch
 * calls and trigger runtime, counted per user (UserProperties) per quota day.
 * Google's quota day is not a calendar day: it starts at the user's first
 * request and resets 24 hours later (and counts all of the user's scripts, of
 * which this add-on sees only itself). So the count starts at the add-on's
 * first request and lasts 24 hours. The hourly run stops before a quota is
 * gone, so a person's own clicks still work, and says why in Relatórios.
 *
 * The quotas depend on the kind of account (a Workspace account has four
 * times the trigger time of a consumer one); the shell finds out which
 * (src/gas/account.ts) and the figures here follow it, the consumer ones when
 * it cannot tell.
 */
import { plural } from '../../api/words';
import type { KeyValueStore } from '../ports';

/** The kinds of Google account, whose daily quotas differ. */
export type AccountKind = 'consumer' | 'workspace';

/** Daily quotas by kind of account (developers.google.com/apps-script/guides/services/quotas). */
export const QUOTAS: Readonly<Record<AccountKind, { fetches: number; triggerMs: number }>> = {
  consumer: { fetches: 20_000, triggerMs: 90 * 60_000 },
  workspace: { fetches: 100_000, triggerMs: 6 * 3_600_000 },
};
/** A consumer account's quotas: the smaller figures. */
export const DAILY_QUOTA = QUOTAS.consumer;
/** Left for the user's own work (their clicks, their other scripts): scheduled runs stop when less than this remains. */
export const RESERVES: Readonly<Record<AccountKind, { fetches: number; triggerMs: number }>> = {
  consumer: { fetches: 1_000, triggerMs: 10 * 60_000 },
  // The same shares of the larger quotas: a twentieth of the calls, a ninth of the trigger time.
  workspace: { fetches: 5_000, triggerMs: 40 * 60_000 },
};
export const RESERVE = RESERVES.consumer;

/** A quota day: 24 hours from its first request. */
export const QUOTA_DAY_MS = 24 * 3_600_000;

export interface DailyUsage {
  /** When the quota day counted began (epoch ms): its first request. */
  since: number;
  fetches: number;
  triggerMs: number;
  /** Why scheduled work stopped today, when it did. */
  stopped?: string;
  /** The kind of account found on this quota day: found once a day, kept for the day's runs. */
  account?: AccountKind;
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

  /**
   * Adds an execution's share, and the kind of account when it found it; `alongside`, other values the
   * execution ends with, go in the same write when the store can.
   */
  add(fetches: number, triggerMs: number, stopped?: string, alongside: Record<string, string> = {}, account?: AccountKind): DailyUsage {
    const now = this.get();
    const next: DailyUsage = {
      since: now.since,
      fetches: now.fetches + fetches,
      triggerMs: now.triggerMs + triggerMs,
      stopped: stopped ?? now.stopped,
      account: account ?? now.account,
    };
    const values = { ...alongside, [KEY]: JSON.stringify(next) };
    if (this.store.setMany) this.store.setMany(values);
    else for (const [key, value] of Object.entries(values)) this.store.set(key, value);
    return next;
  }
}

/** Trigger time the hourly run may still use today. */
export function triggerBudgetMs(usage: DailyUsage, account: AccountKind = 'consumer'): number {
  return Math.max(0, QUOTAS[account].triggerMs - RESERVES[account].triggerMs - usage.triggerMs);
}

/** When the quota day ends, in words: Google resets it 24 hours after its first request, not at midnight. */
function resumes(usage: DailyUsage, now: number): string {
  const hours = Math.max(1, Math.ceil((usage.since + QUOTA_DAY_MS - now) / 3_600_000));
  return `quando a cota diária do Google renovar, 24 horas depois da primeira chamada do dia (em até ${hours} h)`;
}

/** Why the hourly run must not start today, or null. */
export function quotaStop(usage: DailyUsage, minimumRunMs: number, now: number, account: AccountKind = 'consumer'): string | null {
  const quota = QUOTAS[account];
  if (usage.fetches >= quota.fetches - RESERVES[account].fetches) {
    return `As atualizações agendadas pararam hoje: o complemento já fez ${usage.fetches.toLocaleString('pt-BR')} das ${plural(quota.fetches, 'chamada', 'chamadas')} ao serviço que o Google permite por dia, e a reserva fica para o seu uso. Elas voltam ${resumes(usage, now)}; atualizar pela barra lateral continua possível.`;
  }
  if (triggerBudgetMs(usage, account) < minimumRunMs) {
    return `As atualizações agendadas pararam hoje: usaram ${Math.round(usage.triggerMs / 60_000)} dos ${plural(quota.triggerMs / 60_000, 'minuto', 'minutos')} de execução automática que o Google permite por dia. Elas voltam ${resumes(usage, now)}; atualizar pela barra lateral continua possível.`;
  }
  return null;
}
