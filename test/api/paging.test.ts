/**
 * The pager against small fake servers: how it learns the page numbering
 * from the first wave, when it stops, and what it says about what it saw.
 */
import { describe, expect, it } from 'vitest';
import type { DecodedList } from '../../src/api/envelopes';
import { BadRequestError, NotFoundError, ServerError } from '../../src/api/errors';
import { type PageFetcher, Pager } from '../../src/api/paging';

type Rec = { id: number };

/** `pages[i]` is what page number i answers; numbers outside answer an empty page. */
function server(pages: Record<number, Rec[] | 'bad' | Error>, paging: (n: number) => DecodedList<Rec>['paging'] = () => ({})) {
  const asked: number[][] = [];
  const fetcher: PageFetcher<Rec> = (numbers) => {
    asked.push(numbers);
    return numbers.map((n) => {
      const page = pages[n] ?? [];
      if (page === 'bad') return { ok: false as const, error: new BadRequestError({ method: 'GET', path: '/x' }, ['página inválida']) };
      if (page instanceof Error) return { ok: false as const, error: page as BadRequestError };
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

describe('the pager, wave by wave', () => {
  const at = { method: 'GET', path: '/x' };

  it('without totals, speculative waves grow 1, 2, 4 up to the concurrency, and stop at a short page', () => {
    const pages = Object.fromEntries(Array.from({ length: 9 }, (_, n) => [n, recs(n * 3 + 1, n === 8 ? 2 : 3)]));
    const s = server(pages);
    const p = new Pager(s.fetcher, { concurrency: 4, idField: 'id' });
    expect(p.nextWaveSize).toBe(2);
    expect(walk(p)).toEqual(recs(1, 26).map((r) => r.id));
    expect(s.asked).toEqual([
      [0, 1],
      [2, 3],
      [4, 5, 6, 7],
      [8, 9, 10, 11],
    ]);
    expect(p.nextWaveSize).toBe(0);
    expect(p.nextWave()).toEqual([]);
    expect(p.state).toMatchObject({ done: true, fetchedPages: 9, fetchedRecords: 26, pageSize: 3, base: 0 });
  });

  it('a wave grows from one page when a resumed walk has seen none', () => {
    const s = server({ 5: recs(1, 2), 6: recs(3, 1) });
    const p = new Pager(s.fetcher, { concurrency: 3, idField: 'id', base: 1, state: { base: 1, next: 5, done: false, fetchedPages: 0, fetchedRecords: 0 } });
    expect(p.nextWaveSize).toBe(1);
    expect(walk(p)).toEqual([1, 2, 3]);
    expect(s.asked).toEqual([[5], [6]]);
  });

  it('a known numbering and the length of the last walk: the first wave asks that many pages at once', () => {
    const s = server({ 1: recs(1, 3), 2: recs(4, 3), 3: recs(7, 1) });
    const p = new Pager(s.fetcher, { concurrency: 10, idField: 'id', base: 1, firstPages: 4 });
    expect(walk(p)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(s.asked).toEqual([[1, 2, 3, 4]]);
  });

  it('a known numbering skips the detection: the first wave asks from page 1', () => {
    const s = server({ 1: recs(1, 2), 2: recs(3, 2) }, () => ({ totalPages: 2, totalRows: 4 }));
    const p = new Pager(s.fetcher, { concurrency: 5, idField: 'id', base: 1 });
    expect(p.state).toMatchObject({ base: 1, next: 1 });
    expect(walk(p)).toEqual([1, 2, 3, 4]);
    expect(s.asked).toEqual([[1], [2]]);
    expect(p.warnings).toEqual([]);
  });

  it('with totals from a server counting from 1, stops at its last page without asking past it', () => {
    const s = server({ 1: recs(1, 2), 2: recs(3, 2), 3: recs(5, 2) }, () => ({ totalPages: 3, totalRows: 6, itemsPerPage: 2 }));
    const p = new Pager(s.fetcher, { concurrency: 5, idField: 'id' });
    expect(walk(p)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(s.asked).toEqual([
      [0, 1],
      [2, 3],
    ]);
    expect(p.warnings).toEqual([]);
  });

  it('a page of the announced size is not the last; a shorter one is, by the page size the service states', () => {
    const s = server({ 0: recs(1, 2), 1: recs(3, 2), 2: recs(5, 2), 3: recs(7, 1) }, () => ({ itemsPerPage: 2 }));
    const p = new Pager(s.fetcher, { concurrency: 2, idField: 'id' });
    expect(walk(p)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(s.asked).toEqual([
      [0, 1],
      [2, 3],
    ]);
    const bigger = server({ 0: recs(1, 3), 1: recs(4, 3), 2: recs(7, 3) }, () => ({ itemsPerPage: 5 }));
    const q = new Pager(bigger.fetcher, { concurrency: 2, idField: 'id' });
    expect(walk(q)).toEqual([1, 2, 3]);
    expect(bigger.asked).toEqual([[0, 1]]);
  });

  it('a page that failed stops the walk with its error; page 0 may fail only as a server counting from 1 would', () => {
    const boom = new ServerError(at, 500);
    expect(() => walk(new Pager(server({ 0: recs(1, 3), 1: boom }).fetcher, { concurrency: 2, idField: 'id' }))).toThrow(boom);
    expect(() => walk(new Pager(server({ 0: boom, 1: recs(1, 3) }).fetcher, { concurrency: 2, idField: 'id' }))).toThrow(boom);
    const later = new Pager(server({ 0: recs(1, 3), 1: recs(4, 3), 2: boom }).fetcher, { concurrency: 2, idField: 'id' });
    expect(() => walk(later)).toThrow(boom);
    const missing = server({ 0: new NotFoundError(at), 1: recs(1, 2), 2: recs(3, 1) });
    const p = new Pager(missing.fetcher, { concurrency: 2, idField: 'id' });
    expect(walk(p)).toEqual([1, 2, 3]);
    expect(p.state.base).toBe(1);
  });

  it('page 0 with other records than page 1 is a server counting from 0, even when page 1 is empty', () => {
    const s = server({ 0: recs(1, 2), 1: [] });
    const p = new Pager(s.fetcher, { concurrency: 2, idField: 'id' });
    expect(walk(p)).toEqual([1, 2]);
    expect(p.state).toMatchObject({ base: 0, done: true });
    const shifted = server({ 0: recs(1, 2), 1: recs(2, 2), 2: recs(4, 1) });
    const q = new Pager(shifted.fetcher, { concurrency: 2, idField: 'id' });
    expect(walk(q)).toEqual([1, 2, 3, 4]);
    expect(q.state.base).toBe(0);
    expect(q.warnings).toEqual(['Alguns registros vieram repetidos entre páginas e foram considerados uma só vez.']);
  });

  it('a walk that never ends stops at the page limit and says the listing may be incomplete', () => {
    const endless: PageFetcher<Rec> = (numbers) => numbers.map((n) => ({ ok: true as const, list: { records: recs(n * 10, 10), paging: {}, messages: [] } }));
    const p = new Pager(endless, { concurrency: 3, idField: 'id', maxPages: 5 });
    const ids = walk(p);
    expect(ids).toEqual(recs(0, 50).map((r) => r.id));
    expect(p.state.incomplete).toBe('Limite de páginas atingido: a leitura parou antes do fim da listagem.');
    expect(p.warnings).toEqual(['Limite de páginas atingido: a leitura parou.']);
  });

  it('repeated pages: the walk stops, says why, and the state says the listing may be incomplete', () => {
    const same = recs(1, 3);
    const p = new Pager(server({ 0: same, 1: recs(4, 3), 2: same, 3: same }).fetcher, { concurrency: 2, idField: 'id' });
    expect(walk(p)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(p.state.incomplete).toBe(
      'A página 2 repetiu registros já recebidos: o serviço parece ignorar o parâmetro de página, e não há como saber se a listagem veio inteira.',
    );
    expect(p.warnings).toEqual(['A página 2 repetiu registros já recebidos: o serviço parece ignorar o parâmetro de página. A leitura parou aqui.']);
  });

  it('says exactly how many records were announced and how many came, and nothing when they agree', () => {
    const fewer = new Pager(server({ 0: recs(1, 2), 1: recs(3, 1) }, () => ({ totalPages: 2, totalRows: 5 })).fetcher, { concurrency: 2, idField: 'id' });
    walk(fewer);
    expect(fewer.warnings).toEqual(['O serviço anunciou 5 registros e chegaram 3: os dados mudaram durante a leitura.']);
    const exact = new Pager(server({ 0: recs(1, 2), 1: recs(3, 1) }, () => ({ totalPages: 2, totalRows: 3 })).fetcher, { concurrency: 2, idField: 'id' });
    walk(exact);
    expect(exact.warnings).toEqual([]);
  });

  it('its state is a copy: changing it changes nothing in the walk', () => {
    const s = server({ 0: recs(1, 2), 1: recs(3, 2), 2: recs(5, 1) });
    const p = new Pager(s.fetcher, { concurrency: 2, idField: 'id' });
    p.nextWave();
    const state = p.state;
    state.next = 99;
    state.done = true;
    expect(p.state.next).toBe(2);
    expect(p.done).toBe(false);
    const saved = { base: 0 as const, next: 2, done: false, fetchedPages: 2, fetchedRecords: 4 };
    const resumed = new Pager(s.fetcher, { concurrency: 2, idField: 'id', state: saved });
    walk(resumed);
    expect(saved.next).toBe(2);
  });

  it('tells a repeated-record warning once, however many pages repeat', () => {
    const s = server({ 0: [{ id: 1 }, { id: 2 }], 1: [{ id: 2 }, { id: 3 }], 2: [{ id: 3 }, { id: 4 }], 3: [{ id: 5 }] });
    const p = new Pager(s.fetcher, { concurrency: 2, idField: 'id' });
    expect(walk(p)).toEqual([1, 2, 3, 4, 5]);
    expect(p.warnings).toEqual(['Alguns registros vieram repetidos entre páginas e foram considerados uma só vez.']);
  });

  it('pages 0 and 1 sharing only some records are two pages of a server counting from 0', () => {
    const s = server({ 0: [{ id: 1 }, { id: 2 }], 1: [{ id: 1 }, { id: 3 }], 2: [{ id: 4 }] });
    const p = new Pager(s.fetcher, { concurrency: 2, idField: 'id' });
    expect(walk(p)).toEqual([1, 2, 3, 4]);
    expect(p.state.base).toBe(0);
  });

  it('totals given only with the first page still bound the walk and the count', () => {
    const s = server({ 0: recs(1, 2), 1: recs(3, 2), 2: recs(5, 2), 3: recs(7, 2) }, (n) => (n === 0 ? { totalPages: 3, totalRows: 7 } : {}));
    const p = new Pager(s.fetcher, { concurrency: 2, idField: 'id' });
    expect(walk(p)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(s.asked).toEqual([[0, 1], [2]]);
    expect(p.warnings).toEqual(['O serviço anunciou 7 registros e chegaram 6: os dados mudaram durante a leitura.']);
  });

  it('an empty page ends a walk without totals, and proves the listing complete', () => {
    const s = server({ 0: recs(1, 2), 1: recs(3, 2) });
    const p = new Pager(s.fetcher, { concurrency: 2, idField: 'id' });
    expect(walk(p)).toEqual([1, 2, 3, 4]);
    expect(p.warnings).toEqual([]);
    expect(p.state.incomplete).toBeUndefined();
  });
});
