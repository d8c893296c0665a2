/**
 * Server side of the Enviar alterações sidebar (src/ui/client/alteracoes.ts):
 * the imported sheets whose edits can go back, the preview of every change,
 * and the start of the run that sends them, a bulk run stepped by
 * lote-server.ts like any other.
 */
import type { EditPreview } from '../core/bulk/edits';
import { previewEditPush } from '../core/bulk/edit-push';
import { startEditPush } from '../core/bulk/launch';
import { editableListing } from '../core/bulk/snapshot';
import type { BulkProgress } from '../core/bulk/state';
import { LISTING_TAG } from '../core/sheets/sheet-layout';
import { bulkDeps } from './deps';
import { syncDispatcher } from './dispatcher';
import { withDocumentLock } from './lock';
import { ownDeps, stepDeadline, warned } from './lote-server';
import { type Outcome, outcome } from './outcome';
import { showSidebar } from './ui';
import { recordUsage } from './usage';

export function showEditPush(): void {
  showSidebar('Alteracoes', 'Enviar alterações da planilha');
}

/** The imported sheets whose records can be edited in place, the active one first if it is one. */
export function getEditForm(): { sheets: string[]; activeSheet: string } {
  const deps = bulkDeps();
  const sheets = deps.book
    .tagged(LISTING_TAG)
    .filter((t) => editableListing(t.value))
    .map((t) => t.sheet.name());
  return { sheets, activeSheet: deps.book.selection().sheetName };
}

/** Every row of an imported sheet that differs from what its owner last pulled, old → new, with totals; sends nothing. */
export function previewSheetEdits(sheetName: string): Outcome<EditPreview> {
  return outcome(() => {
    const { deps, me } = ownDeps();
    return previewEditPush(deps, String(sheetName ?? ''), { id: me.id, email: me.email });
  });
}

/** Sends the rows of the preview the owner saw (`preview`: its token) as updates (continued by continueBulkRun, like any bulk run). */
export function startEditPushRun(sheetName: string, preview: string, stepSeconds?: number): Outcome<BulkProgress> {
  const started = outcome(() =>
    withDocumentLock(() => {
      const { deps, me } = ownDeps();
      const request = { sheetName: String(sheetName ?? ''), owner: { id: me.id, email: me.email }, preview: String(preview ?? '') };
      return startEditPush(deps, request, stepDeadline(stepSeconds));
    }),
  );
  recordUsage();
  return started.ok && started.value.done ? started : warned(started, syncDispatcher());
}
