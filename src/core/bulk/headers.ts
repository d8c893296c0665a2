/**
 * Finding the columns of a sheet by their header, never by position: users
 * reorder, insert and delete columns. A header matches by its label or by the
 * field name, case and accents ignored, or by the field name that starts its
 * note (how imported sheets and templates keep them machine-readable).
 */
import { PARTIAL_MARK } from '../sheets/sheet-names';
import type { MarkupSheetPort, SheetPort } from '../sheets/sheet-port';
import type { WriteKey } from '../../api/writes';
import { type BulkOperation, bulkOperations, type InputColumn, RESULT_NOTE, type ResultColumn, type ResultKey } from './definitions';
import { UserError } from '../../api/user-error';

/** Thrown when a bulk sheet's header (or the Descontos sheet's) lacks a column its operation needs, or has one twice. */
export class LayoutError extends UserError {
  override name = 'LayoutError';
}

export function normalizeHeader(text: string): string {
  return text
    .replace(PARTIAL_MARK, '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** "idFatura", "idCliente — ID do cliente…" → the field name a note starts with, normalized (null: none). */
function noteField(note: string): string | null {
  const m = /^\s*([A-Za-z][A-Za-z0-9_.]*)/.exec(note);
  return m && normalizeHeader(m[1]);
}

export function columnLetter(column: number): string {
  let s = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

export interface Layout {
  /** 1-based column of each input field present. */
  inputs: Record<string, number>;
  results: Record<ResultKey, number>;
  lastColumn: number;
}

function matcher(labels: readonly string[], notes: readonly string[]) {
  const heads = labels.map((l) => normalizeHeader(String(l ?? '')));
  const fields = notes.map((n) => noteField(String(n ?? '')));
  /** field null: by label only (result columns must never take over a data column that shares a field name, like numero). */
  return (field: string | null, label: string): number[] => {
    const wanted = new Set([normalizeHeader(label), field ? normalizeHeader(field) : normalizeHeader(label)]);
    const hits: number[] = [];
    heads.forEach((h, i) => {
      if (h && (wanted.has(h) || (field !== null && fields[i] === normalizeHeader(field)))) hits.push(i + 1);
    });
    return hits;
  };
}

/** The title a result column takes when the sheet already has a column of that title that is not ours (an imported Faturas sheet's own "Status"). */
export const ownLabel = (label: string): string => `${label} do lote`;

export interface Matched {
  inputs: Record<string, number>;
  results: Partial<Record<ResultKey, number>>;
  problems: string[];
}

/** Pure matching of a header row against the operation's columns. */
export function matchColumns(
  columns: readonly InputColumn[],
  results: readonly ResultColumn[],
  labels: readonly string[],
  notes: readonly string[],
  sheetName: string,
): Matched {
  const find = matcher(labels, notes);
  const out: Matched = { inputs: {}, results: {}, problems: [] };
  for (const col of columns) {
    const hits = find(col.field, col.label);
    if (hits.length > 1) {
      out.problems.push(`A coluna "${col.label}" aparece mais de uma vez na aba "${sheetName}" (colunas ${hits.map(columnLetter).join(' e ')}): deixe só uma.`);
    }
    if (hits.length > 0) out.inputs[col.field] = hits[0];
    // A required column may be left out when a sheet-only column that finds its value is there (CPF/CNPJ for ID do cliente).
    else if (col.required && !columns.some((c) => c.finds === col.field && find(c.field, c.label).length > 0)) {
      out.problems.push(
        `Falta a coluna "${col.label}" (${col.field}) na linha 1 da aba "${sheetName}": acrescente-a com esse título ou crie um modelo pela barra lateral.`,
      );
    }
  }
  for (const r of results) {
    const hits = [...find(null, r.label), ...find(null, ownLabel(r.label))].filter((c) => {
      const note = String(notes[c - 1] ?? '').trim();
      return note === '' || note.startsWith(RESULT_NOTE);
    });
    if (hits.length > 0) out.results[r.key] = hits[0];
  }
  return out;
}

/**
 * Reads the header row, refuses a sheet that lacks a required column and
 * appends what the run itself fills (`tagged`: the input columns, already found by metadata): the result columns and, for creates, the
 * ID de integração column that receives generated ids.
 */
export function ensureLayout(sheet: MarkupSheetPort, op: BulkOperation, columns: readonly InputColumn[] = op.columns, tagged?: Record<string, number>): Layout {
  const lastColumn = Math.max(sheet.lastColumn(), 1);
  const labels = sheet.read(1, 1, 1, lastColumn)[0].map((v) => String(v ?? ''));
  const notes = sheet.readNotes(1, 1, lastColumn);
  const matched = matchColumns(columns, op.results, labels, notes, sheet.name());
  // An imported sheet's inputs are its columns by developer metadata (found by the caller), not by title.
  if (tagged) matched.inputs = { ...tagged };
  if (matched.problems.length) throw new LayoutError(matched.problems.join(' '));
  const append: Array<{ label: string; note: string; format: string; width?: number; assign: (column: number) => void }> = [];
  if (op.identity === 'idIntegracao' && matched.inputs.idIntegracao === undefined) {
    const col = columns.find((c) => c.field === 'idIntegracao')!;
    append.push({ label: col.label, note: `idIntegracao — ${col.note}`, format: '@', assign: (c) => (matched.inputs.idIntegracao = c) });
  }
  const taken = new Set(labels.map(normalizeHeader));
  for (const r of op.results) {
    if (matched.results[r.key] === undefined)
      append.push({
        label: taken.has(normalizeHeader(r.label)) ? ownLabel(r.label) : r.label,
        note: `${RESULT_NOTE} ${r.note}`,
        format: r.format,
        width: r.width,
        assign: (c) => (matched.results[r.key] = c),
      });
  }
  let last = labels.reduce((n, l, i) => (l.trim() ? i + 1 : n), 0);
  if (append.length) {
    const first = last + 1;
    const rows = Math.max(sheet.lastRow(), 2);
    sheet.ensureSize(rows, first + append.length - 1);
    // Formats before values, over the rows that exist, so ids and numbers written later stay as they are.
    sheet.setFormats(
      1,
      first,
      1,
      append.map(() => '@'),
    );
    if (rows > 1)
      sheet.setFormats(
        2,
        first,
        rows - 1,
        append.map((a) => a.format),
      );
    sheet.write(1, first, [append.map((a) => a.label)]);
    sheet.setNotes(
      1,
      first,
      append.map((a) => a.note),
    );
    append.forEach((a, i) => {
      a.assign(first + i);
      if (a.width) sheet.setColumnWidth(first + i, a.width);
    });
    last = first + append.length - 1;
    sheet.setHeaderStyle(last);
  }
  return {
    inputs: matched.inputs,
    results: matched.results as Record<ResultKey, number>,
    lastColumn: Math.max(last, ...Object.values(matched.inputs), ...Object.values(matched.results as Record<string, number>)),
  };
}

/**
 * The operation a sheet was made for: the one whose required columns are all
 * there, and most of the rest too. A pulled Faturas sheet comes out as NFS-e
 * emission; a sheet that fits none gives null.
 */
export function guessOperation(sheet: SheetPort): WriteKey | null {
  const width = sheet.lastColumn();
  if (width < 1) return null;
  const labels = sheet.read(1, 1, 1, width)[0].map((v) => String(v ?? ''));
  const notes = sheet.readNotes(1, 1, width);
  let best: { key: WriteKey; score: number } | null = null;
  for (const op of Object.values(bulkOperations)) {
    const matched = matchColumns(op.columns, op.results, labels, notes, sheet.name());
    if (matched.problems.length) continue;
    const score = Object.keys(matched.inputs).length / op.columns.length + Object.keys(matched.inputs).length / 100;
    if (!best || score > best.score) best = { key: op.key, score };
  }
  return best?.key ?? null;
}
