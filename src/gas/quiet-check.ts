/**
 * The hourly run's settling of a document from the owner's agenda, without
 * opening it (core/hourly/quiet-check.ts says when and what it gives up): each
 * quiet report's listing asked as the day's check asked it, through the
 * owner's own connection, and found the same.
 */
import type { AgendaEntry, AgendaStore } from '../core/hourly/agenda';
import { askedIn } from '../core/hourly/asked-runs';
import { pausedCompanies } from '../core/hourly/paused';
import { mustOpen, nextAfterQuiet } from '../core/hourly/quiet-check';
import { recordsDigest } from '../core/hourly/quiet-mark';
import { listingAsWalked } from '../core/hourly/unchanged-run';
import { type KeyValueStore, readOnce } from '../core/ports';
import { clientFor, connectionStore, userStore } from './services';
import { gasZone } from './zone';

/**
 * The owner's paused companies and asked runs as the run's quiet checks read them: once, for every document the run
 * settles (one read of their properties); a pause or a run asked meanwhile counts from the next run.
 */
let owner: KeyValueStore | undefined;
const ownerOnce = (): KeyValueStore => (owner ??= readOnce(userStore()));

/** Whether the document `id` was settled from its agenda entry; false: it must be opened as usual. */
export function settleQuietly(id: string, entry: AgendaEntry | undefined, agenda: AgendaStore, deadline: number): boolean {
  const record = entry?.quiet;
  if (!record) return false;
  const zone = gasZone(record.zone);
  const now = Date.now();
  const user = ownerOnce();
  if (mustOpen(record, now, zone, pausedCompanies(user), askedIn(user, id).size > 0) !== null) return false;
  try {
    const connections = connectionStore();
    for (const q of record.reports) {
      const client = clientFor(connections.byId(q.connectionId), { zone }).withLimit(deadline);
      const read = listingAsWalked(client, q.listing, q.filters, q.walk);
      if (!read || recordsDigest(read) !== q.records) return false;
    }
  } catch {
    // A failure is the usual run's to meet and report, with the document open.
    return false;
  }
  // From when the listings were asked: a check that ends past the hour does not skip it.
  agenda.settled(id, nextAfterQuiet(record, now, zone), now, record);
  return true;
}
