/** Small seeded PRNG (mulberry32): same seed, same data and same fault decisions. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = (seed >>> 0) ^ 0x9e3779b9;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(0, 9));
    return s;
  }
  /** Money in cents, then as a 2-decimal number, so sums never carry float noise. */
  cents(minReais: number, maxReais: number): number {
    return this.int(Math.round(minReais * 100), Math.round(maxReais * 100));
  }
  /** Derives an independent stream (per organization, per resource). */
  fork(salt: number): Rng {
    return new Rng(Math.floor(this.next() * 4294967296) ^ Math.imul(salt, 0x85ebca6b));
  }
}

export function centsToMoney(cents: number): number {
  return Math.round(cents) / 100;
}

/** Half-up rounding to cents, done on integers of cents to avoid 1.005 → 1.00. */
export function roundMoney(value: number): number {
  return Math.round(Number((value * 100).toFixed(6))) / 100;
}
