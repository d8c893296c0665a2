/**
 * The hourly run's notice of the running user's stored work that someone
 * altered (core/hourly/altered.ts): a Histórico line written by the owner's own
 * execution, and one e-mail, once per alteration.
 */
import { alteredItems, tellAltered } from '../core/hourly/altered';
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
  const altered = alteredItems({ ...work, dashboards, snapshots }, check);
  if (altered.length === 0) return;
  tellAltered(
    {
      book: bookPort(ss),
      now: () => Date.now(),
      who: me.email,
      firstTime: (a) => owners.firstNotice(me, documentId(ss), a.key, a.text),
      mail: (subject, body) => {
        if (me.email) MailApp.sendEmail(me.email, subject, `${body}\n\nPlanilha "${ss.getName()}": ${ss.getUrl()}`);
      },
    },
    altered,
  );
}
