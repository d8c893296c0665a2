/**
 * Walks every page of a listing, whatever the server does: pages numbered from
 * 0 or from 1, totals given or not, a page parameter silently ignored. With
 * totals, the remaining pages go out concurrently in bounded waves; without,
 * waves are speculative and stop at the first short or empty page.
 *
 * The walk is resumable: `state` is a small plain object a job can persist and
 * hand back to continue in a later execution.
 */
import type { ApiRecord, DecodedList, Paging } from './envelopes';
import type { BillingError } from './errors';
import { plural } from './words';

export interface PagerState {
  /** Undefined until the first wave tells which numbering the server uses. */
  base?: 0 | 1;
  next: number;
  totalPages?: number;
  totalRows?: number;
  /** Largest page seen, to recognise the last (short) page when no totals come. */
  pageSize?: number;
  done: boolean;
  fetchedPages: number;
  fetchedRecords: number;
  /** Why the walk ended without proof that it saw every record (pages repeating, page limit). */
  incomplete?: string;
}

export interface PageResult<R extends ApiRecord = ApiRecord> {
  number: number;
  records: R[];
  paging: Paging;
}

/** Fetches the given page numbers concurrently, each decoded or failed. */
export type PageFetcher<R extends ApiRecord = ApiRecord> = (pages: number[]) => Array<{ ok: true; list: DecodedList<R> } | { ok: false; error: BillingError }>;

export interface PagerOptions {
  concurrency: number;
  idField: string;
  /** Safety net against a server that never ends. */
  maxPages?: number;
  state?: PagerState;
  /** Known page numbering (saves the detection request). */
  base?: 0 | 1;
  /** With a known numbering, how many pages the first speculative wave asks (how many the last walk of the listing read). */
  firstPages?: number;
}

export class Pager<R extends ApiRecord = ApiRecord> {
  private readonly s: PagerState;
  private readonly seen = new Set<unknown>();
  readonly warnings: string[] = [];

  constructor(
    private readonly fetchPages: PageFetcher<R>,
    private readonly options: PagerOptions,
  ) {
    this.s = options.state ? { ...options.state } : { base: options.base, next: options.base ?? 0, done: false, fetchedPages: 0, fetchedRecords: 0 };
  }

  get state(): PagerState {
    return { ...this.s };
  }

  get done(): boolean {
    return this.s.done;
  }

  private warn(text: string): void {
    if (!this.warnings.includes(text)) this.warnings.push(text);
  }

  private ids(records: R[]): unknown[] {
    return records.map((r) => r[this.options.idField]);
  }

  private get last(): number | undefined {
    return this.s.totalPages !== undefined && this.s.base !== undefined ? this.s.totalPages - 1 + this.s.base : undefined;
  }

  /**
   * Pages the next wave asks for. With totals, what is left up to the
   * concurrency; without, a speculative wave grows with the pages already seen
   * (1, 2, 4, … up to the concurrency), so a short listing costs a request or
   * two past its end, not a whole wave of empty pages.
   */
  get nextWaveSize(): number {
    if (this.s.done) return 0;
    if (this.s.base === undefined) return 2;
    const last = this.last;
    if (last !== undefined) return Math.max(0, Math.min(this.options.concurrency, last - this.s.next + 1));
    return Math.min(this.options.concurrency, Math.max(1, this.s.fetchedPages || (this.options.firstPages ?? 0)));
  }

  /** Fetches the next wave; returns its pages in order (empty once the walk is over). */
  nextWave(): PageResult<R>[] {
    const numbers = this.planWave();
    return this.takeWave(numbers, numbers.length ? this.fetchPages(numbers) : []);
  }

  /**
   * The page numbers the next wave asks for, at most `max` of them (never fewer than
   * the two of a first wave). With `takeWave`, several walks can share one round trip.
   */
  planWave(max = this.options.concurrency): number[] {
    if (this.s.done) return [];
    if (this.s.base === undefined) return [0, 1];
    const count = Math.min(Math.max(1, max), this.nextWaveSize);
    return Array.from({ length: Math.max(0, count) }, (_, i) => this.s.next + i);
  }

  /** Takes the answers to the pages `planWave` gave; throws the first failure, as `nextWave` does. */
  takeWave(numbers: number[], settled: ReturnType<PageFetcher<R>>): PageResult<R>[] {
    if (this.s.done) return [];
    if (this.s.base === undefined) return this.firstWave(settled);
    const last = this.last;
    if (numbers.length === 0) {
      this.finish();
      return [];
    }
    const lists = settled.map((s) => {
      if (!s.ok) throw s.error;
      return s.list;
    });
    const out: PageResult<R>[] = [];
    for (let i = 0; i < lists.length && !this.s.done; i++) {
      const page = this.accept(numbers[i], lists[i]);
      if (page) out.push(page);
    }
    if (!this.s.done && last !== undefined && this.s.next > last) this.finish();
    return out;
  }

  /** Pages 0 and 1 together reveal the numbering in one round trip. */
  private firstWave(settled: ReturnType<PageFetcher<R>>): PageResult<R>[] {
    const [zero, one] = settled;
    if (!one.ok) throw one.error;
    // A server numbering from 1 may reject page 0, return it empty, or treat it as page 1.
    if (!zero.ok) {
      if (zero.error.status !== 400 && zero.error.status !== 404) throw zero.error;
      return this.startAt(1, one.list);
    }
    const ids0 = this.ids(zero.list.records);
    const ids1 = this.ids(one.list.records);
    if (ids0.length === 0) return this.startAt(1, one.list);
    if (ids1.length > 0 && ids0.length === ids1.length && ids0.every((id, i) => id === ids1[i])) return this.startAt(1, one.list);
    this.s.base = 0;
    this.s.next = 0;
    const out: PageResult<R>[] = [];
    const first = this.accept(0, zero.list);
    if (first) out.push(first);
    if (!this.s.done) {
      const second = this.accept(1, one.list);
      if (second) out.push(second);
    }
    return out;
  }

  private startAt(base: 1, list: DecodedList<R>): PageResult<R>[] {
    this.s.base = base;
    this.s.next = base;
    const page = this.accept(base, list);
    return page ? [page] : [];
  }

  private finish(): void {
    this.s.done = true;
    if (this.s.totalRows !== undefined && this.s.totalRows !== this.s.fetchedRecords) {
      this.warn(
        `O serviço anunciou ${plural(this.s.totalRows, 'registro', 'registros')} e chegaram ${this.s.fetchedRecords}: os dados mudaram durante a leitura.`,
      );
    }
  }

  private accept(number: number, list: DecodedList<R>): PageResult<R> | null {
    const { records, paging } = list;
    this.s.next = number + 1;
    this.s.fetchedPages += 1;
    if (paging.totalPages !== undefined) this.s.totalPages = paging.totalPages;
    if (paging.totalRows !== undefined) this.s.totalRows = paging.totalRows;
    if (this.s.fetchedPages > (this.options.maxPages ?? 100_000)) {
      this.s.incomplete = 'Limite de páginas atingido: a leitura parou antes do fim da listagem.';
      this.warn('Limite de páginas atingido: a leitura parou.');
      this.finish();
      return null;
    }
    if (records.length === 0) {
      this.finish();
      return null;
    }
    const fresh = records.filter((r) => !this.seen.has(r[this.options.idField]));
    if (fresh.length === 0) {
      this.s.incomplete = `A página ${number} repetiu registros já recebidos: o serviço parece ignorar o parâmetro de página, e não há como saber se a listagem veio inteira.`;
      this.warn(`A página ${number} repetiu registros já recebidos: o serviço parece ignorar o parâmetro de página. A leitura parou aqui.`);
      this.finish();
      return null;
    }
    if (fresh.length < records.length) this.warn('Alguns registros vieram repetidos entre páginas e foram considerados uma só vez.');
    for (const r of fresh) this.seen.add(r[this.options.idField]);
    this.s.fetchedRecords += fresh.length;
    const size = paging.itemsPerPage ?? this.s.pageSize;
    const short = size !== undefined && records.length < size;
    if (records.length > (this.s.pageSize ?? 0)) this.s.pageSize = records.length;
    if (paging.itemsPerPage !== undefined) this.s.pageSize = paging.itemsPerPage;
    const lastByTotals = this.s.totalPages !== undefined && this.s.base !== undefined && number >= this.s.totalPages - 1 + this.s.base;
    if ((short && this.s.totalPages === undefined) || lastByTotals) this.finish();
    return { number, records: fresh, paging };
  }
}
