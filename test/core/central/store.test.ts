/** What the Central keeps per company and competência: the months refreshed last, the others let go. */
import { describe, expect, it } from 'vitest';
import { markReviewed, REVIEW_PREFIX, ReviewStore } from '../../../src/core/central/marks';
import { CentralStore, type CompanyMonth, MONTHS_KEPT, monthId } from '../../../src/core/central/store';
import { MemoryStore, trusted } from '../bulk/fixtures';
import { figures } from './figures';

const company = (n: number) => ({ connectionId: `c${n}`, name: `Empresa ${n}` });
const item = (competencia: string, n: number, refreshedAt: number): CompanyMonth => ({
  id: monthId(competencia, `conn:c${n}`),
  createdAt: 1,
  competencia,
  company: company(n),
  run: 'r',
  refreshedAt,
  figures: figures({ competencia }),
});

describe('the months the Central keeps', () => {
  it('keeps the competência refreshed now and the two refreshed most recently before it, and their reviews all', () => {
    const doc = new MemoryStore();
    const store = new CentralStore(trusted(doc));
    // 07 and 08 refreshed long ago, 09 and 11 lately, 10 now (an old refresh of it, too).
    const months: Array<[string, number]> = [
      ['07/2026', 100],
      ['08/2026', 200],
      ['09/2026', 900],
      ['10/2026', 50],
      ['11/2026', 800],
    ];
    for (const [c, at] of months) for (const n of [1, 2]) store.save(item(c, n, at));
    const review = markReviewed(new ReviewStore(trusted(doc)), item('07/2026', 1, 100), { id: 'u1', email: 'a@b' }, 5);
    store.prune('10/2026');
    expect(MONTHS_KEPT).toBe(3);
    for (const [c] of months) {
      const kept = ['10/2026', '09/2026', '11/2026'].includes(c);
      expect(store.month(c).size, c).toBe(kept ? 2 : 0);
    }
    expect(doc.get(`${REVIEW_PREFIX}${review.id}`)).not.toBeNull();
    // Nothing else to let go: a second prune keeps the same.
    store.prune('10/2026');
    expect(store.month('11/2026').size).toBe(2);
    // The competência refreshed now takes no place of the others, even when it is the latest.
    store.prune('09/2026');
    for (const c of ['09/2026', '10/2026', '11/2026']) expect(store.month(c).size, c).toBe(2);
    expect(store.find('11/2026', company(2))).toEqual(item('11/2026', 2, 800));
    expect(store.find('07/2026', company(2))).toBeNull();
  });
});
