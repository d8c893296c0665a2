/** Daily quotas, counted per user and per virtual day. */
export class DailyQuota {
  private readonly used = new Map<string, number>();
  constructor(
    readonly limit: number,
    private readonly message: string,
  ) {}

  private key(user: string, now: number): string {
    return `${user}|${Math.floor(now / 86_400_000)}`;
  }

  usedBy(user: string, now: number): number {
    return this.used.get(this.key(user, now)) ?? 0;
  }

  remaining(user: string, now: number): number {
    return Math.max(0, this.limit - this.usedBy(user, now));
  }

  /** Counts use that cannot be refused (time already spent). */
  record(user: string, now: number, n: number): void {
    const k = this.key(user, now);
    this.used.set(k, (this.used.get(k) ?? 0) + n);
  }

  /** Throws the Apps Script message once the day's quota is spent. */
  spend(user: string, now: number, n = 1): void {
    const k = this.key(user, now);
    const next = (this.used.get(k) ?? 0) + n;
    if (next > this.limit) throw new Error(this.message);
    this.used.set(k, next);
  }
}
