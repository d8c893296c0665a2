/**
 * Template sheets: Portuguese headers whose notes start with the field name
 * and explain the column, number formats set before anything is typed (text
 * where digits must survive, dd/MM/yyyy dates, competência as text),
 * dropdowns for enumerated fields and one example row that runs skip.
 */
import { isDate, parseIsoDate, type Zone } from '../../api/calendar';
import { SHEET_TAG } from '../sheets/sheet-layout';
import { freeName } from '../sheets/sheet-names';
import type { MarkupSheetPort, SelectionBookPort } from '../sheets/sheet-port';
import type { CellValue } from '../sheets/table';
import { columnLetter } from './headers';
import { catalogsOf, refreshCatalogs } from './catalog';
import { type BulkOperation, DISCOUNT_SHEET, TEMPLATE_ROWS, discountColumns, type InputColumn, RESULT_NOTE, type ResultColumn, STATUS } from './definitions';

const FORMATS: Record<InputColumn['kind'], string> = {
  text: '@',
  key: '@',
  integer: '0',
  money: '#,##0.00',
  date: 'dd/MM/yyyy',
  competencia: '@',
  choice: '@',
  boolean: '@',
  cpfCnpj: '@',
};

/** The column that stands in for `col` or that `col` stands in for (ID do cliente ↔ CPF/CNPJ do cliente), if the template has one. */
function partnerOf(col: InputColumn, inputs: readonly InputColumn[]): InputColumn | undefined {
  return inputs.find((c) => (c.finds !== undefined && c.finds === col.field) || (col.finds !== undefined && col.finds === c.field));
}

/** A column's note: the field, what it holds, and whether it must be filled, naming the other column where either one will do. */
function headerNote(col: InputColumn, inputs: readonly InputColumn[]): string {
  const partner = partnerOf(col, inputs);
  if (partner) {
    const where = columnLetter(inputs.indexOf(partner) + 1);
    return `${col.field} — ${col.note} Preencha esta coluna ou "${partner.label}" (coluna ${where}): uma das duas basta; se preencher as duas, precisam ser do mesmo cliente.`;
  }
  return `${col.field} — ${col.note} ${col.required ? 'Obrigatório.' : 'Opcional.'}`;
}

function exampleCell(col: InputColumn, zone: Zone): CellValue {
  if (col.kind === 'date' && typeof col.example === 'string') {
    const d = parseIsoDate(col.example);
    if (d) return zone.instant(d);
  }
  return col.example;
}

/** Sheet metadata of a template: the example row's values by field, so it is never sent whatever the user deleted. */
export const EXAMPLE_TAG = 'faturamento.exemplo';

/** A cell as the example mark compares it (a date by its instant). */
export function exampleKey(v: unknown): string {
  if (isDate(v)) return `d:${v.getTime()}`;
  return String(v ?? '').trim();
}

function layOut(sheet: MarkupSheetPort, inputs: readonly InputColumn[], results: readonly ResultColumn[], example: CellValue[], zone: Zone): void {
  const width = inputs.length + results.length;
  sheet.ensureSize(TEMPLATE_ROWS + 1, width);
  sheet.setFormats(
    1,
    1,
    1,
    Array.from({ length: width }, () => '@'),
  );
  sheet.write(1, 1, [[...inputs.map((c) => c.label), ...results.map((r) => r.label)]]);
  sheet.setNotes(1, 1, [...inputs.map((c) => headerNote(c, inputs)), ...results.map((r) => `${RESULT_NOTE} ${r.note}`)]);
  sheet.setFormats(2, 1, TEMPLATE_ROWS, [...inputs.map((c) => FORMATS[c.kind]), ...results.map((r) => r.format)]);
  inputs.forEach((c, i) => {
    const choices = c.kind === 'boolean' ? ['Sim', 'Não'] : c.choices;
    if (choices) sheet.setDropdown(2, i + 1, TEMPLATE_ROWS, choices, `Escolha: ${choices.join(', ')}.`);
  });
  sheet.write(2, 1, [[...inputs.map((c) => exampleCell(c, zone)), ...example]]);
  sheet.freezeRows(1);
  sheet.setHeaderStyle(width);
  results.forEach((r, i) => r.width && sheet.setColumnWidth(inputs.length + i + 1, r.width));
}

export interface TemplateResult {
  sheetId: number;
  sheetName: string;
  /** Also created, for plan subscriptions: the linked Descontos sheet. */
  discountSheet?: string;
  /** The reference tabs its ID columns pick from (Produtos, Planos), filled from the imported subscriptions. */
  catalogSheets?: string[];
}

export function createTemplate(book: SelectionBookPort, op: BulkOperation, zone: Zone): TemplateResult {
  const name = freeName(book, op.sheetName);
  const sheet = book.create(name);
  // The add-on's own sheet whatever it is renamed to: never offered as an import target.
  sheet.setSheetTag(SHEET_TAG, `modelo:${op.key}`);
  const example = op.results.map((r) =>
    r.key === 'status'
      ? STATUS.exemplo
      : r.key === 'mensagem'
        ? 'Linha de exemplo: substitua pelos seus dados ou apague-a. Linhas EXEMPLO nunca são enviadas.'
        : '',
  );
  layOut(sheet, op.columns, op.results, example, zone);
  // The add-on's own mark of its example row, which survives deleting or sorting any column: its exact values.
  sheet.setSheetTag(EXAMPLE_TAG, JSON.stringify(Object.fromEntries(op.columns.map((c) => [c.field, exampleKey(exampleCell(c, zone))]))));
  const out: TemplateResult = { sheetId: sheet.id, sheetName: name };
  if (op.discounts && !book.byName(DISCOUNT_SHEET)) {
    const discounts = book.create(DISCOUNT_SHEET);
    discounts.setSheetTag(SHEET_TAG, 'modelo:descontos');
    layOut(discounts, discountColumns, [], [], zone);
    out.discountSheet = DISCOUNT_SHEET;
  }
  const catalogs = catalogsOf(op.columns);
  if (catalogs.length) out.catalogSheets = refreshCatalogs(book, catalogs);
  book.activate(sheet.id, ['A2']);
  return out;
}
