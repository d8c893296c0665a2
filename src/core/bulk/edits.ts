/**
 * Edits typed (or computed by formulas) into an imported subscriptions sheet,
 * told from what the add-on last pulled (snapshot.ts): which rows changed,
 * which fields, and the update each row becomes. Columns are found by their
 * developer metadata and records by id, so sorting, inserting rows or moving
 * columns changes nothing. Each record's type (plano or personalizado) comes
 * from the record as pulled, never from a cell the user could change.
 */
import { plural } from '../../api/words';
import type { Zone } from '../../api/calendar';
import { bounded } from '../bounds';
import { COLUMN_TAG } from '../sheets/sheet-layout';
import type { SheetPort } from '../sheets/sheet-port';
import type { CellValue } from '../sheets/table';
import { readCell } from './cell-readers';
import { type BulkOperation, bulkOperation, type InputColumn } from './definitions';
import { buildRow, type BuiltRow, cellIssue, issueText } from './rows';
import { editableFields, editOperations, encode, shownPart, type Snapshot, type SnapshotEntry } from './snapshot';
import { UserError } from '../../api/user-error';
import type { Merge, Merged } from './reconcile';

export const EDIT_LABEL = 'Enviar alterações da planilha';
export const NO_EDITS = 'Nenhuma alteração para enviar: a aba está igual ao que foi importado por último.';

/** Where the record fields are: field → 1-based column, by metadata. */
export interface EditColumns {
  id: number;
  fields: Record<string, number>;
  /** The sheet's own header of each field's column, for messages. */
  labels: Record<string, string>;
  lastColumn: number;
}

/** Thrown when the sheet asked to push edits from is no single-company import of subscriptions. */
export class EditError extends UserError {
  override name = 'EditError';
}

export function editColumns(sheet: SheetPort): EditColumns {
  const tags = sheet.columnTags(COLUMN_TAG);
  const id = tags.get('idAssinaturaContrato');
  if (id === undefined)
    throw new EditError(
      `A aba "${sheet.name()}" não é uma importação de Assinaturas e contratos (falta a coluna "ID da assinatura" do complemento). Importe as assinaturas por Importar dados e edite aquela aba.`,
    );
  if (tags.has('empresa')) throw new EditError('Abas consolidadas de várias empresas ainda não enviam alterações: edite a aba de uma empresa só.');
  const fields: Record<string, number> = {};
  for (const f of editableFields()) {
    const at = tags.get(f);
    if (at !== undefined) fields[f] = at;
  }
  const lastColumn = Math.max(sheet.lastColumn(), id, ...Object.values(fields));
  const header = sheet.read(1, 1, 1, lastColumn)[0];
  const labels = Object.fromEntries(Object.entries(fields).map(([f, c]) => [f, String(header[c - 1] ?? f).trim() || f]));
  return { id, fields, labels, lastColumn };
}

/** Body field → record field, for one operation's editable fields. */
function recordFields(op: BulkOperation): Array<{ col: InputColumn; record: string }> {
  // Stryker disable next-line all: editableFields() leaves these columns out already
  const columns = op.columns.filter((c) => c.in === undefined && c.kind !== 'boolean');
  return columns.map((col) => ({ col, record: col.record ?? col.field }));
}

/** How the preview names a record's type. */
const KIND_NAMES: Record<string, string> = { PLANO: 'de plano', PERSONALIZADO: 'personalizada' };

/** The column of some edit operation that sets a record field: how a cell of that field is read. */
function editColumn(record: string): InputColumn {
  for (const op of editOperations().map((w) => bulkOperation(w.key))) {
    const found = recordFields(op).find((f) => f.record === record);
    if (found) return found.col;
  }
  // Stryker disable next-line all: every editable field is some edit operation's
  throw new Error(`campo sem operação: ${record}`);
}

/** The flag a text depends on (isAtualizaDiscriminacaoNfse for discriminacaoNfse): set when that text changed. */
function flagOf(op: BulkOperation): { flag: string; of: string } | null {
  const col = op.columns.find((c) => c.sentWhen);
  return col?.sentWhen ? { flag: col.sentWhen, of: col.field } : null;
}

/** A value as the preview shows it: money with two decimals and a comma, text cut short. */
function shown(col: InputColumn, value: unknown): string {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value !== '' ? Number(value) : Number.NaN;
  if (Number.isFinite(n) && (col.kind === 'money' || col.kind === 'integer')) return (col.kind === 'money' ? n.toFixed(2) : String(n)).replace('.', ',');
  return bounded(String(value ?? ''), 80);
}

export interface FieldChange {
  field: string;
  label: string;
  before: string;
  after: string;
}

export interface RowChange {
  row: number;
  id: string;
  operation: BulkOperation['key'];
  fields: FieldChange[];
  /** Valor before and after, when the row's operation sets it (personalizado). */
  valor?: { before: number; after: number | null };
}

/**
 * One import's worth of edits: the operations derived for this sheet (its own
 * headers in messages) and how a row becomes an update.
 */
export class EditPlan {
  readonly inputs: Record<string, number>;
  private readonly variants = new Map<string, BulkOperation>();

  constructor(
    readonly columns: EditColumns,
    readonly snapshot: Snapshot,
    private readonly sheetName: string,
    private readonly zone: Zone,
  ) {
    this.inputs = { idAssinaturaContrato: columns.id };
    for (const op of editOperations().map((w) => bulkOperation(w.key)))
      for (const { col, record } of recordFields(op)) if (columns.fields[record] !== undefined) this.inputs[col.field] = columns.fields[record];
  }

  /** The operation of a record by its type as pulled; null for a type no update applies to. */
  operationFor(entry: SnapshotEntry): BulkOperation | null {
    const w = editOperations().find((o) => o.edits.value === entry.type);
    return w ? bulkOperation(w.key) : null;
  }

  /** The operation with the sheet's headers as labels and its flag fixed to `flag` (it has no column). */
  variant(op: BulkOperation, flag: boolean): BulkOperation {
    const key = `${op.key}:${flag}`;
    let v = this.variants.get(key);
    if (!v) {
      const flagged = flagOf(op);
      const columns = op.columns.map((c): InputColumn => {
        if (flagged && c.field === flagged.flag) return { ...c, required: false, blank: flag };
        const record = c.record ?? c.field;
        return { ...c, label: this.columns.labels[record] ?? c.label };
      });
      v = { ...op, columns };
      this.variants.set(key, v);
    }
    return v;
  }

  entryOf(row: readonly CellValue[]): SnapshotEntry | undefined {
    // A blank id matches no pulled record: records without an id are not kept.
    return this.snapshot.records.get(String(row[this.columns.id - 1]).trim());
  }

  /** The fields of a row that differ from the snapshot; a cell that cannot be read as its kind counts as changed. */
  changes(row: readonly CellValue[]): { op: BulkOperation; entry: SnapshotEntry; fields: FieldChange[] } | null {
    const entry = this.entryOf(row);
    if (!entry) return null;
    const op = this.operationFor(entry);
    if (!op) return null;
    const fields: FieldChange[] = [];
    for (const { col, record } of recordFields(op)) {
      const at = this.columns.fields[record];
      if (at === undefined) continue;
      const before = entry.values[editableFields().indexOf(record)] ?? '';
      const cell = row[at - 1];
      const read = readCell(col, cell, this.zone);
      const now = read.ok ? ('value' in read ? encode(read.value) : '') : null;
      if (now === before) continue;
      fields.push({ field: col.field, label: this.columns.labels[record] ?? col.label, before: shown(col, shownPart(before)), after: shown(col, cell) });
    }
    return fields.length ? { op, entry, fields } : null;
  }

  /** The update a changed row becomes (or its problems), with the same checks and messages as Lançamentos em lote. */
  build(row: readonly CellValue[], rowNumber: number): { op: BulkOperation; built: BuiltRow; merge: Merge } | null {
    const changed = this.changes(row);
    const entry = changed?.entry ?? this.entryOf(row);
    const op = changed?.op ?? (entry ? this.operationFor(entry) : null);
    if (!op || !entry) return null;
    const flagged = flagOf(op);
    const flag = Boolean(flagged && changed?.fields.some((f) => f.field === flagged.of));
    const variant = this.variant(op, flag);
    const built = buildRow(
      variant,
      { inputs: this.inputs, results: {} as never, lastColumn: this.columns.lastColumn },
      row,
      rowNumber,
      this.sheetName,
      this.zone,
    );
    const mine = new Set((changed?.fields ?? []).map((f) => f.field));
    return { op: variant, built, merge: (record) => this.merge(entry, variant, mine, built.body, record, rowNumber) };
  }

  /**
   * A row's update against its record as the service holds it now: the fields
   * the owner changed go as typed, the others as the service has them (never
   * reverted to what was imported); a field changed on both sides since the
   * import is a conflict, told as imported → sheet → service.
   */
  private merge(
    entry: SnapshotEntry,
    op: BulkOperation,
    mine: ReadonlySet<string>,
    body: Readonly<Record<string, unknown>>,
    record: Readonly<Record<string, unknown>> | null,
    rowNumber: number,
  ): Merged {
    const out: Record<string, unknown> = { ...body };
    if (!record) return { holds: false, body: out };
    const conflicts: string[] = [];
    let holds = true;
    for (const { col, record: field } of recordFields(op)) {
      if (!(col.field in body)) continue;
      const base = entry.values[editableFields().indexOf(field)] ?? '';
      const now = encode(record[field]);
      if (mine.has(col.field)) {
        if (now === encode(body[col.field])) continue;
        holds = false;
        const label = this.columns.labels[field] ?? col.label;
        const detail = `mudou também no serviço desde a importação (importado ${shown(col, shownPart(base)) || '(vazio)'} → planilha ${shown(col, body[col.field]) || '(vazio)'} → serviço ${shown(col, record[field]) || '(vazio)'}).`;
        if (now !== base) conflicts.push(cellIssue(this.sheetName, rowNumber, this.inputs[col.field], label, detail).message);
        // A text sent only under its flag is left alone unless the owner changed it.
      } else if (now !== base && !col.sentWhen) out[col.field] = record[field] ?? col.blank ?? '';
    }
    if (conflicts.length)
      return {
        holds: false,
        body: out,
        conflict: `${conflicts.join(' ')} Nada foi enviado nesta linha: atualize o relatório para trazer o que o serviço tem e refaça a alteração, se ainda quiser.`,
      };
    return { holds, body: out };
  }

  /** Cells of a row edited where its record's update takes nothing (a plan's price): not sent, and why. */
  unsendable(row: readonly CellValue[]): FieldChange[] {
    const entry = this.entryOf(row);
    if (!entry) return [];
    const op = this.operationFor(entry);
    const takes = new Set(op ? recordFields(op).map((f) => f.record) : []);
    const out: FieldChange[] = [];
    for (const [field, at] of Object.entries(this.columns.fields)) {
      if (takes.has(field)) continue;
      const col = editColumn(field);
      const before = entry.values[editableFields().indexOf(field)] ?? '';
      const read = readCell(col, row[at - 1], this.zone);
      if (read.ok && ('value' in read ? encode(read.value) : '') === before) continue;
      out.push({ field, label: this.columns.labels[field] ?? col.label, before: shown(col, shownPart(before)), after: shown(col, row[at - 1]) });
    }
    return out;
  }

  /** Why a record's edited cells of `unsendable` are not sent. */
  whyNot(entry: SnapshotEntry): string {
    const op = this.operationFor(entry);
    if (!op) return `o serviço não altera assinaturas do tipo "${entry.type}" por aqui`;
    const kind = KIND_NAMES[entry.type] ?? `do tipo "${entry.type}"`;
    const takes = recordFields(op)
      .filter((f) => this.columns.fields[f.record] !== undefined)
      .map((f) => this.columns.labels[f.record] ?? f.col.label);
    return `numa assinatura ${kind} o serviço altera só ${takes.length > 1 ? `${takes.slice(0, -1).join(', ')} e ${takes[takes.length - 1]}` : (takes[0] ?? 'outros campos')}`;
  }

  /** What the service now holds for a row just updated: the snapshot takes the values sent. */
  settle(id: string, op: BulkOperation, body: Readonly<Record<string, unknown>>): void {
    const entry = this.snapshot.records.get(id);
    if (!entry) return;
    for (const { col, record } of recordFields(op)) {
      if (!(col.field in body)) continue;
      if (col.sentWhen && body[col.sentWhen] === false) continue;
      entry.values[editableFields().indexOf(record)] = encode(body[col.field]);
    }
  }
}

export interface EditPreview {
  sheetName: string;
  /** Rows that changed, valid or not. */
  count: number;
  invalid: number;
  /** The first changed rows, for the sidebar. */
  rows: Array<RowChange & { problem?: string }>;
  /** Changed rows beyond `rows`. */
  more: number;
  /** Valor of the changed personalizado rows, before and after (rows whose new valor is not a number count as before). */
  totals: { before: number; after: number; difference: number };
  /** Edited cells no update takes (a plan's price), each with why: never sent. */
  unsent: Array<{ row: number; id: string; fields: FieldChange[]; why: string }>;
  /** Rows with such cells beyond `unsent`. */
  unsentMore: number;
  /** What Enviar sends: each valid changed row and a digest of its values (edit-push.ts). */
  token: string;
}

/** A changed row as the preview read it: its number, its record's id, and its update. */
export interface ChangedRow {
  r: number;
  id: string;
  made: NonNullable<ReturnType<EditPlan['build']>>;
}

const PREVIEW_ROWS = 300;
const cents = (n: number) => Math.round(n * 100);

/** The message of a preview (or a push) with nothing to send. */
export function nothingToSend(unsent: number): string {
  if (unsent === 0) return NO_EDITS;
  return `Nenhuma alteração que o serviço aceite: ${plural(unsent, 'linha tem células editadas', 'linhas têm células editadas')} que não serão enviadas (veja por quê na lista). A aba continua diferente do que foi importado.`;
}

/** Every changed row of the sheet, read once: the preview shows it, the push sends it. */
export function previewEdits(sheet: SheetPort, plan: EditPlan): Omit<EditPreview, 'token'> & { changed: ChangedRow[] } {
  const last = sheet.lastRow();
  const out: Omit<EditPreview, 'token'> & { changed: ChangedRow[] } = {
    sheetName: sheet.name(),
    count: 0,
    invalid: 0,
    rows: [],
    more: 0,
    totals: { before: 0, after: 0, difference: 0 },
    unsent: [],
    unsentMore: 0,
    changed: [],
  };
  if (last < 2) return out;
  const values = sheet.read(2, 1, last - 1, plan.columns.lastColumn);
  let before = 0;
  let after = 0;
  values.forEach((row, i) => {
    const r = i + 2;
    const id = String(row[plan.columns.id - 1]).trim();
    const unsendable = plan.unsendable(row);
    if (unsendable.length) {
      if (out.unsent.length < PREVIEW_ROWS) out.unsent.push({ row: r, id, fields: unsendable, why: plan.whyNot(plan.entryOf(row) as SnapshotEntry) });
      else out.unsentMore++;
    }
    const changed = plan.changes(row);
    if (!changed) return;
    out.count++;
    // A changed row has an operation, so it always becomes a request.
    const made = plan.build(row, r) as ChangedRow['made'];
    out.changed.push({ r, id, made });
    const problem = made.built.issues.length ? issueText(made.built.issues) : undefined;
    if (problem) out.invalid++;
    const valorAt = editableFields().indexOf('valorUnitario');
    const sets = plan.inputs.valor !== undefined && changed.op.columns.some((c) => (c.record ?? c.field) === 'valorUnitario');
    let valor: RowChange['valor'];
    if (sets) {
      const old = Number(changed.entry.values[valorAt]);
      const now = !problem ? (made.built.body.valor as number) : null;
      valor = { before: old, after: now };
      before += cents(old);
      after += cents(now ?? old);
    }
    if (out.rows.length < PREVIEW_ROWS)
      out.rows.push({
        row: r,
        id: String(row[plan.columns.id - 1]),
        operation: changed.op.key,
        fields: changed.fields,
        valor,
        ...(problem ? { problem } : {}),
      });
    else out.more++;
  });
  out.totals = { before: before / 100, after: after / 100, difference: (after - before) / 100 };
  return out;
}
