/**
 * The hourly run's notice of the running user's stored work that someone
 * altered, or that is in their name but no longer theirs to run
 * (core/hourly/altered.ts): a Histórico line written by the owner's own
 * execution once per alteration, and an e-mail at most once a day per item.
 */
import { alteredItems, lostItems, tellAltered } from '../core/hourly/altered';
import { SHEET_TAG } from '../core/sheets/sheet-layout';
import type { StoredWork } from '../core/hourly/dispatch';
import { DashboardStore } from '../core/dashboards/store';
import { SNAPSHOT_PREFIX } from '../core/bulk/snapshot';
import type { Identity, OwnershipCheck, OwnerStore } from '../core/trust/owners';
import type { SignedStore } from '../core/trust/seal';
import { bookPort } from './sheet-port';
import { documentId } from './services';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

export function tellAlteredWork(ss: Spreadsheet, doc: SignedStore, work: StoredWork, owners: OwnerStore, me: Identity, check: OwnershipCheck): void {
  const snapshots = doc
    .keys()
    .filter((k) => k.startsWith(SNAPSHOT_PREFIX) && !k.includes('#'))
    .flatMap((key) => {
      const head = doc.readJson<{ owner?: Identity }>(key);
      return head ? [{ key, head }] : [];
    });
  const dashboards = new DashboardStore(doc, () => Utilities.getUuid()).list();
  const items = { ...work, dashboards, snapshots };
  const id = documentId(ss);
  const book = bookPort(ss);
  const look = { place: (tag: string) => book.tagged(SHEET_TAG, tag)[0]?.sheet.name(), raw: (key: string) => doc.get(key) };
  const mine = owners.inTheirName(id);
  const told = [...alteredItems(items, check, new Set(mine)), ...lostItems(items, mine, me.id, look)];
  if (told.length === 0) return;
  tellAltered(
    {
      book,
      now: () => Date.now(),
      who: me.email,
      firstTime: (a) => owners.firstNotice(me, id, a.key, a.text),
      mayMail: (a) => owners.mayMail(id, a.key, Date.now()),
      mail: (subject, body) => {
        if (!me.email) return;
        try {
          MailApp.sendEmail(me.email, subject, `${body}\n\nPlanilha "${ss.getName()}": ${ss.getUrl()}`);
        } catch {
          // The day's e-mails are spent: Histórico has the line, and the owner's other work in the document still runs.
        }
      },
    },
    told,
  );
  for (const a of told) if (a.letGo) owners.letGo(id, a.key);
}
