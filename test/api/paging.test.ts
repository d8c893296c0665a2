/**
 * The pager against small fake servers: how it learns the page numbering
 * from the first wave, when it stops, and what it says about what it saw.
 */
import { describe, expect, it } from 'vitest';
import type { DecodedList } from '../../src/api/envelopes';
import { BadRequestError } from '../../src/api/errors';
import { type PageFetcher, Pager } from '../../src/api/paging';

type Rec = { id: number };

/** `pages[i]` is what page number i answers; numbers outside answer an empty page. */
function server(pages: Record<number, Rec[] | 'bad'>, paging: (n: number) => DecodedList<Rec>['paging'] = () => ({})) {
  const asked: number[][] = [];
  const fetcher: PageFetcher<Rec> = (numbers) => {
    asked.push(numbers);
    return numbers.map((n) => {
      const page = pages[n] ?? [];
      if (page === 'bad') return { ok: false as const, error: new BadRequestError({ method: 'GET', path: '/x' }, ['página inválida']) };
      return { ok: true as const, list: { records: page, paging: paging(n), messages: [] } };
    });
  };
  return { fetcher, asked };
}

const recs = (from: number, n: number): Rec[] => Array.from({ length: n }, (_, i) => ({ id: from + i }));

function walk(p: Pager<Rec>): number[] {
  const ids: number[] = [];
  while (!p.done) for (const page of p.nextWave()) ids.push(...page.records.map((r) => r.id));
  return ids;
}

describe('the pager', () => {
  it('a server counting from 0: pages 0 and 1 in the first wave, then on until a short page', () => {
    const s = server({ 0: recs(1, 3), 1: recs(4, 3), 2: recs(7, 1) });
    const p = new Pager(s.fetcher, { concurrency: 2, idField: 'id' });
    expect(walk(p)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(p.state.base).toBe(0);
    expect(s.asked[0]).toEqual([0, 1]);
  });

  it.each([
    ['answers page 0 like page 1', { 0: recs(1, 3), 1: recs(1, 3), 2: recs(4, 2) }],
    ['answers page 0 empty', { 0: [], 1: recs(1, 3), 2: recs(4, 2) }],
    ['refuses page 0', { 0: 'bad' as const, 1: recs(1, 3), 2: recs(4, 2) }],
  ])('a server counting from 1 that %s: every record once, numbering 1', (_name, pages) => {
    const s = server(pages);
    const p = new Pager(s.fetcher, { concurrency: 2, idField: 'id' });
    expect(walk(p)).toEqual([1, 2, 3, 4, 5]);
    expect(p.state.base).toBe(1);
    expect(p.warnings).toEqual([]);
  });

  it('with totals, asks exactly the pages left, in waves of the concurrency', () => {
    const s = server({ 0: recs(1, 2), 1: recs(3, 2), 2: recs(5, 2), 3: recs(7, 2), 4: recs(9, 1) }, () => ({ totalPages: 5, totalRows: 9, itemsPerPage: 2 }));
    const p = new Pager(s.fetcher, { concurrency: 2, idField: 'id' });
    expect(walk(p)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(s.asked).toEqual([[0, 1], [2, 3], [4]]);
  });

  it('a server that ignores the page parameter: stops at the first repeated page and says so', () => {
    const same = recs(1, 3);
    const s = server({ 0: same, 1: same, 2: same, 3: same });
    const p = new Pager(s.fetcher, { concurrency: 2, idField: 'id' });
    expect(walk(p)).toEqual([1, 2, 3]);
    expect(p.warnings.join(' ')).toMatch(/ignorar o parâmetro de página|repetiu/);
  });

  it('resumes from a saved state without asking the pages already read', () => {
    const s = server({ 0: recs(1, 2), 1: recs(3, 2), 2: recs(5, 2), 3: recs(7, 1) });
    const first = new Pager(s.fetcher, { concurrency: 2, idField: 'id' });
    first.nextWave();
    const saved = first.state;
    const again = new Pager(s.fetcher, { concurrency: 2, idField: 'id', state: saved });
    expect(walk(again)).toEqual([5, 6, 7]);
    expect(s.asked.slice(1).flat()).not.toContain(0);
  });

  it('says when fewer records arrived than the service announced', () => {
    const s = server({ 0: recs(1, 2), 1: recs(3, 1) }, () => ({ totalPages: 2, totalRows: 5 }));
    const p = new Pager(s.fetcher, { concurrency: 2, idField: 'id' });
    walk(p);
    expect(p.warnings.join(' ')).toContain('anunciou 5 registros e chegaram 3');
  });
});
