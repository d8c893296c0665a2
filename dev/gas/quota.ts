/**
 * Daily quotas, counted per user across all of the user's scripts. A quota
 * day is not a calendar day: it starts at the user's first request and the
 * count resets 24 hours later (developers.google.com/apps-script/guides/services/quotas).
 */
const DAY_MS = 24 * 3_600_000;

export class DailyQuota {
  /** Per user: when their quota day began, and what it has used. */
  private readonly days = new Map<string, { since: number; used: number }>();
  constructor(
    readonly limit: number,
    private readonly message: string,
  ) {}

  /** The user's current quota day; a request after it ended starts a new one. */
  private day(user: string, now: number): { since: number; used: number } {
    let d = this.days.get(user);
    if (!d || now >= d.since + DAY_MS) this.days.set(user, (d = { since: now, used: 0 }));
    return d;
  }

  usedBy(user: string, now: number): number {
    const d = this.days.get(user);
    return d && now < d.since + DAY_MS ? d.used : 0;
  }

  remaining(user: string, now: number): number {
    return Math.max(0, this.limit - this.usedBy(user, now));
  }

  /** Counts use that cannot be refused (time already spent). */
  record(user: string, now: number, n: number): void {
    this.day(user, now).used += n;
  }

  /** Throws the Apps Script message once the day's quota is spent. */
  spend(user: string, now: number, n = 1): void {
    const d = this.day(user, now);
    if (d.used + n > this.limit) throw new Error(this.message);
    d.used += n;
  }
}
