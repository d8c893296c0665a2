/** Sorting and paging shared by the listings. */
import type { EnvelopeKind, Reply, RouteContext } from './envelopes.js';
import { errorReply, listReply } from './envelopes.js';
import type { QueryReader } from './query.js';
import type { ListingName, PagingStyle } from './types.js';

export const ITEMS_PER_PAGE = 50;

export type SortKey<T> = (row: T) => string | number | null;

export interface SortSpec<T> {
  key: SortKey<T> | null;
  desc: boolean;
}

/** Unknown sortField or a sortOrder other than asc/desc (any case) is a 400. */
export function readSort<T>(q: QueryReader, params: URLSearchParams, fields: Record<string, SortKey<T>>): SortSpec<T> {
  const field = params.get('sortField');
  const order = params.get('sortOrder');
  let key: SortKey<T> | null = null;
  if (field !== null) {
    if (Object.hasOwn(fields, field)) key = fields[field];
    else q.errors.push(`Parâmetro 'sortField' inválido: '${field}' (aceitos: ${Object.keys(fields).join(', ')})`);
  }
  let desc = false;
  if (order !== null) {
    if (/^(asc|desc)$/i.test(order)) desc = order.toLowerCase() === 'desc';
    else q.errors.push(`Parâmetro 'sortOrder' inválido: '${order}' (aceitos: asc, desc)`);
  }
  return { key, desc };
}

/** Rows come in id order; ties of the sort key keep id order so pages are stable. */
export function applySort<T>(rows: T[], spec: SortSpec<T>): T[] {
  if (!spec.key) return spec.desc ? rows.slice().reverse() : rows;
  const key = spec.key;
  const dir = spec.desc ? -1 : 1;
  const keyed = rows.map((r, i) => ({ r, k: key(r), i }));
  keyed.sort((a, b) => {
    if (a.k === b.k) return a.i - b.i;
    // Nulls last whatever the direction, as most SQL backends configured for it do.
    if (a.k === null) return 1;
    if (b.k === null) return -1;
    return (a.k < b.k ? -1 : 1) * dir;
  });
  return keyed.map((x) => x.r);
}

export function pagingObject(style: PagingStyle, page: number, totalRows: number, size: number): Record<string, number> {
  const totalPages = Math.ceil(totalRows / size);
  switch (style) {
    case 'full':
      return { page, totalRows, totalPages, itemsPerPage: size };
    case 'totals':
      return { totalRows, totalPages };
    case 'page':
      return { page, itemsPerPage: size };
    case 'empty':
      return {};
  }
}

export function sliceForPage<T>(rows: T[], page: number, base: 0 | 1, size: number): T[] {
  const start = (page - base) * size;
  return rows.slice(start, start + size);
}

export interface PagedOptions<T> {
  listing: ListingName;
  rows: T[];
  page: number;
  present: (row: T) => unknown;
  size?: number;
}

/** Builds the list envelope for one page; honours the ignorePage fault. */
export function pagedList<T>(ctx: RouteContext, o: PagedOptions<T>): Reply {
  const size = o.size ?? ITEMS_PER_PAGE;
  const base = ctx.config.pageBase;
  const page = ctx.ignorePage ? base : o.page;
  const data = sliceForPage(o.rows, page, base, size).map(o.present);
  return listReply(data, pagingObject(ctx.config.pagingStyles[o.listing], page, o.rows.length, size));
}

export function badQuery(kind: EnvelopeKind, q: QueryReader): Reply | null {
  return q.errors.length ? errorReply(kind, 400, q.errors) : null;
}

/** Customer ids matching cpfCnpj/email filters (both join through the customer). */
export function customerIdsMatching(
  clientes: Array<{ idCliente: number; cpfCnpj: string; email: string }>,
  cpfCnpj: string | undefined,
  email: string | undefined,
): Set<number> | null {
  if (cpfCnpj === undefined && email === undefined) return null;
  const e = email?.toLowerCase();
  const ids = new Set<number>();
  for (const c of clientes) {
    if (cpfCnpj !== undefined && c.cpfCnpj !== cpfCnpj) continue;
    if (e !== undefined && c.email.toLowerCase() !== e) continue;
    ids.add(c.idCliente);
  }
  return ids;
}
