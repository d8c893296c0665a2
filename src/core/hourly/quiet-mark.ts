/**
 * The marks a day's check leaves on a report for the hours after it (quiet-check.ts): a digest of what the listing
 * returned, the day it was asked, and the report's terms then.
 */
import type { Zone } from '../../api/calendar';
import { listing } from '../../api/operations';
import type { InHand } from '../pull/state';
import type { Report } from '../reports/reports';

/** A 53-bit digest of a text (cyrb53): equal texts, equal digests; different ones collide about once in 2⁵³. */
export function digestOf(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/**
 * The digest of every record a listing read whole brought, by id: the day's check set them against the sheet by id,
 * so a service that lists the same records in another order is not taken for a change.
 */
export function recordsDigest(read: Pick<InHand, 'listing' | 'pages'>): string {
  const idField = listing(read.listing).idField;
  const records = read.pages.flatMap((page) => page.records);
  // Each record after its id: sorted as text, the ids set the order.
  return digestOf(JSON.stringify(records.map((r) => `${String(r[idField])}\u0000${JSON.stringify(r)}`).sort()));
}

/** The day of `at` in `zone`, YYYY-MM-DD. */
export function dayOf(at: number, zone: Zone): string {
  const w = zone.wall(new Date(at));
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/** What a report asks and where it writes: anything here changed makes an earlier check say nothing of it. */
export function termsOf(r: Report): string {
  return digestOf(
    JSON.stringify([
      r.listing,
      r.connectionId ?? null,
      r.companies ?? null,
      r.filters,
      r.sheetFilters ?? null,
      r.cardData ?? false,
      r.sheetId ?? null,
      r.incremental,
      r.schedule,
    ]),
  );
}

/** What the owner is told of a quiet report checked later than its card says, with nothing changed (Relatórios, the Central). */
export const QUIET_NOTE = 'Sem mudanças: conferido com o serviço sem abrir a planilha (a aba foi comparada célula a célula na primeira atualização do dia).';
