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
import { plural } from '../../api/words';
import type { Owner } from '../trust/owners';
import { isSealed } from '../trust/seal';
import type { MarkupSheetPort } from '../sheets/sheet-port';
import type { CellValue } from '../sheets/table';
import { type BulkOperation, bulkOperation } from './definitions';
import { type ChangedRow, EditPlan, type EditPreview, editColumns, nothingToSend, previewEdits } from './edits';
import { rowDigest } from './confirmed';
import { ensureLayout } from './headers';
import { cellIssue } from './rows';
import type { SnapshotStore } from './snapshot';
import { type BulkDeps, BulkError, type Confirmed } from './state';
import { type Context, cellAt, firstFew, type OperationKind, sheetOf, writtenSince } from './context';

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
    changedSince: 'mudou depois de "Ver alterações" e não foi enviada. Clique em Ver alterações de novo, confira e envie.',
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

/** What Enviar may send: the sheet, then each changed row's record id and the digest of its values (a row with problems is told again, never sent). */
function tokenOf(sheetId: number, changed: readonly ChangedRow[]): string {
  return `${sheetId}:${changed.map((c) => `${c.id}=${rowDigest(c.made)}`).join(',')}`;
}

/** The rows of the preview the owner saw, by record id, each with the digest of its values. */
function previewedRows(token: string | undefined, sheetId: number): Confirmed {
  if (!token) throw new BulkError('Clique em "Ver alterações" e confira o que será enviado antes de enviar.');
  const [sheet, rows = ''] = String(token).split(':');
  if (sheet !== String(sheetId)) throw new BulkError('Esta prévia é de outra aba: clique em "Ver alterações" de novo.');
  return Object.fromEntries(rows.split(',').flatMap((e) => (e.includes('=') ? [e.split('=', 2) as [string, string]] : [])));
}

const rowList = (rows: readonly number[]): string => `${rows.length === 1 ? 'linha' : 'linhas'} ${firstFew(rows, 10, true)}`;

/**
 * A push about to start: its context, the connection the pull used, and the
 * rows of the preview the owner saw (`token`) that still differ from the
 * snapshot, each with the digest it was previewed with; a row changed only
 * after the preview is left out and told. `nothing`: why nothing is sent.
 */
export function editPush(deps: BulkDeps, sheet: MarkupSheetPort, owner: Owner | undefined, since: number, token: string | undefined) {
  const { ctx, plan } = contextOf(deps, sheet, owner, since);
  const previewed = previewedRows(token, sheet.id);
  const { changed, unsent } = previewEdits(sheet, plan);
  const seen = new Set(Object.keys(previewed));
  const rows = changed.filter((c) => seen.has(c.id));
  const late = changed.filter((c) => !seen.has(c.id)).map((c) => c.r);
  if (late.length)
    ctx.warnings.push(`Alterações feitas depois de "Ver alterações" não foram enviadas (${rowList(late)}): clique em Ver alterações, confira e envie de novo.`);
  for (const c of rows) seen.delete(c.id);
  if (seen.size)
    ctx.warnings.push(
      `${plural(seen.size, 'linha da prévia não tem mais alteração (desfeita depois de "Ver alterações") e não foi enviada', 'linhas da prévia não têm mais alteração (desfeita depois de "Ver alterações") e não foram enviadas')}.`,
    );
  const confirmed = Object.fromEntries(rows.map((c) => [c.id, previewed[c.id]]));
  const nothing = rows.length ? undefined : [ctx.warnings.length ? '' : nothingToSend(unsent.length), ...ctx.warnings].filter(Boolean).join(' ');
  return { ctx, rows: rows.map((c) => c.r), confirmed, connectionId: plan.snapshot.connectionId, nothing };
}

/** What edits of an imported sheet would send, read only: the sidebar's preview, with the token Enviar carries. */
export function previewEditPush(deps: BulkDeps, sheetName: string, owner?: Owner): EditPreview {
  const sheet = sheetOf(deps, sheetName);
  const { plan } = editPlan(deps, sheet, owner);
  const { changed, ...preview } = previewEdits(sheet, plan);
  return { ...preview, token: tokenOf(sheet.id, changed) };
}
