/**
 * Enviar alterações da planilha as a kind of bulk run: the rows of an imported
 * sheet that differ from what its owner last pulled, each sent as the update
 * of its record's type with the connection the pull used, so the edits go back
 * to the organization they came from. Only this push's own OK makes a row done
 * (an edit is sent again whenever it differs from the snapshot), and the
 * snapshot takes what each row now holds in the service before the job moves
 * past it: a push killed in between finds those rows OK and settles them then,
 * so a re-run sends nothing.
 */
import type { Owner } from '../owners';
import { isSealed } from '../seal';
import type { MarkupSheetPort } from '../sheet-port';
import type { CellValue } from '../table';
import { type BulkOperation, bulkOperation } from './definitions';
import { EditPlan, editColumns, previewEdits } from './edits';
import { ensureLayout } from './headers';
import { cellIssue } from './rows';
import type { SnapshotStore } from './snapshot';
import { type BulkDeps, BulkError } from './state';
import { type Context, cellAt, type OperationKind, sheetOf, writtenSince } from './context';

const ALTERED_BASE =
  'A base de comparação desta aba foi alterada fora do complemento (alguém editou a aba oculta "Faturamento · dados"), então nada foi enviado. Atualize o relatório da aba (Relatórios › Atualizar) para refazê-la e envie as alterações de novo.';

/** The edit plan of an imported sheet: its columns by metadata, the snapshot its owner's last pull left. */
function editPlan(deps: BulkDeps, sheet: MarkupSheetPort, owner: Owner | undefined): { plan: EditPlan; store: SnapshotStore } {
  const store = deps.snapshots;
  if (!store) throw new BulkError('Envio de alterações indisponível aqui.');
  const columns = editColumns(sheet);
  const snapshot = store.get(sheet.id);
  if (!snapshot || (snapshot.records.size === 0 && !snapshot.overflow))
    throw new BulkError(
      `A aba "${sheet.name()}" ainda não tem a base de comparação: atualize o relatório dela (Relatórios › Atualizar) e então edite e envie as alterações.`,
    );
  if (snapshot.overflow) throw new BulkError('A aba tem assinaturas demais para comparar as alterações (mais de 20.000): filtre a importação.');
  if (owner && snapshot.owner && snapshot.owner.id !== owner.id)
    throw new BulkError(
      `Estas assinaturas foram importadas por ${snapshot.owner.email || 'outro editor'}: só quem importou envia as alterações, com a conexão usada na importação. Para enviar com uma conexão sua, assuma o relatório e atualize-o.`,
    );
  if (owner && !isSealed(snapshot)) throw new BulkError(ALTERED_BASE);
  return { plan: new EditPlan(columns, snapshot, sheet.name(), deps.zone), store };
}

/** `since`: when the push started; a row OK from before it is an earlier push's, not this one's. */
function editKind(plan: EditPlan, store: SnapshotStore, sheetId: number, since: number): OperationKind {
  const build: OperationKind['build'] = (ctx, row, r) => {
    const made = plan.build(row, r);
    if (made) return made;
    const detail = 'esta assinatura não está na última importação da aba: atualize o relatório e edite de novo.';
    return {
      op: ctx.op,
      built: { body: {}, needsKey: false, issues: [cellIssue(ctx.name, r, ctx.layout.inputs.idAssinaturaContrato, 'ID da assinatura', detail)] },
    };
  };
  return {
    stored: { edits: true },
    build,
    ownsResult: (ctx, row) => writtenSince(cellAt(row, ctx.layout.results.processadoEm), since),
    settle(ctx, sent, done) {
      const idOf = (row: readonly CellValue[]) => String(cellAt(row, ctx.layout.inputs.idAssinaturaContrato)).trim();
      let changed = false;
      for (const s of sent) {
        plan.settle(idOf(s.row), s.op, s.body);
        changed = true;
      }
      // Sent by this push in an execution that ended before the snapshot took them.
      for (const d of done) {
        const made = build(ctx, d.row, d.r);
        if (made.built.issues.length) continue;
        plan.settle(idOf(d.row), made.op, made.built.body);
        changed = true;
      }
      if (changed) store.save(sheetId, plan.snapshot);
    },
  };
}

/** The operation a push reports rows under; each row is sent under its own. */
const EDIT_BASE = (): BulkOperation => bulkOperation('atualizarAssinaturaPersonalizada');

function contextOf(deps: BulkDeps, sheet: MarkupSheetPort, owner: Owner | undefined, since: number): { ctx: Context; plan: EditPlan } {
  const { plan, store } = editPlan(deps, sheet, owner);
  const op = EDIT_BASE();
  const layout = ensureLayout(sheet, op, [], plan.inputs);
  const kind = editKind(plan, store, sheet.id, since);
  return { ctx: { kind, op, sheet, name: sheet.name(), layout, zone: deps.zone, warnings: [], example: null }, plan };
}

/** The context of a push started at `since`, for its later steps. */
export function editContext(deps: BulkDeps, sheet: MarkupSheetPort, owner: Owner | undefined, since: number): Context {
  return contextOf(deps, sheet, owner, since).ctx;
}

/** A push about to start: its context, the rows that changed, and the connection the pull used. */
export function editPush(deps: BulkDeps, sheet: MarkupSheetPort, owner: Owner | undefined, since: number) {
  const { ctx, plan } = contextOf(deps, sheet, owner, since);
  return { ctx, changed: previewEdits(sheet, plan).changed, connectionId: plan.snapshot.connectionId };
}

/** What edits of an imported sheet would send, read only: the sidebar's preview. */
export function previewEditPush(deps: BulkDeps, sheetName: string, owner?: Owner) {
  const sheet = sheetOf(deps, sheetName);
  const { plan } = editPlan(deps, sheet, owner);
  const { changed: _rows, ...preview } = previewEdits(sheet, plan);
  return preview;
}
