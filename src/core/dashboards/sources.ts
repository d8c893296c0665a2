/**
 * What every panel reads a report's columns with: a column by field key (as
 * the report sheet's column metadata names it), amounts in exact cents, cells
 * as text, the companies of a consolidated report (its first column is
 * `empresa`) and calendar days, so that each figure is a deterministic sum and
 * never a formula the user could break.
 */
import { addMonths, competencia, type Day, isDate, type Month, type Zone } from '../../api/calendar';
import { plural } from '../../api/words';
import type { FailedCompany, Report } from '../reports/reports';
import type { CellValue } from '../sheets/table';

/** The company column of a consolidated report: each row's company, by its connection's name. */
export const EMPRESA = 'empresa';

/** Values of a report sheet's columns, by field key (its data rows, in sheet order); undefined for a column the sheet lacks. */
export interface SourceTable {
  column(key: string): readonly CellValue[] | undefined;
  rows: number;
}

/** The data rows' indexes, first to last. */
export const rowsOf = (src: SourceTable): number[] => Array.from({ length: src.rows }, (_, r) => r);

/** An empty column stands for a missing one, so each figure reads every row the same way. */
export function col(src: SourceTable, key: string): readonly CellValue[] {
  return src.column(key) ?? [];
}

export function missing(src: SourceTable, keys: readonly string[], labels: Record<string, string>): string[] {
  return keys.filter((k) => !src.column(k)).map((k) => `A coluna ${labels[k] ?? k} não está na aba do relatório: refaça a importação para ter esta coluna.`);
}

export const cents = (v: CellValue | undefined): number => (Number.isFinite(v) ? Math.round((v as number) * 100) : 0);
export const money = (c: number): number => c / 100;

/** An amount in cents as money is written in Brazil, in text: "R$ 1.234,56", "-R$ 0,50". */
export function moneyText(c: number): string {
  const whole = String(Math.floor(Math.abs(c) / 100)).replace(/\B(?=(\d{3})+$)/g, '.');
  return `${c < 0 ? '-' : ''}R$ ${whole},${String(Math.abs(c) % 100).padStart(2, '0')}`;
}

export const text = (v: CellValue | undefined): string => (v === undefined || v === null ? '' : isDate(v) ? v.toISOString() : String(v)).trim();
/** A checkbox's true, or the Sim of a yes/no column. */
export const isTrue = (v: CellValue | undefined): boolean => ['sim', 'true'].includes(text(v).toLowerCase());

/** Companies in first-seen order; one unnamed company when the sheet has no `empresa` column. */
export function companies(src: SourceTable): { names: string[]; of: (row: number) => string; consolidated: boolean } {
  const column = src.column(EMPRESA);
  if (!column) return { names: [''], of: () => '', consolidated: false };
  const names: string[] = [];
  const seen = new Set<string>();
  for (const v of column) {
    const name = text(v);
    if (!seen.has(name)) {
      seen.add(name);
      names.push(name);
    }
  }
  return { names, of: (row) => text(column[row]), consolidated: true };
}

/**
 * The companies of consolidated reports that failed at their last run and have no row to count (`names`: those
 * that have): each has a column that says it has no data, and the Total says it is of the others.
 */
export function absentCompanies(reports: readonly Report[], names: readonly string[]): FailedCompany[] {
  const out = new Map<string, FailedCompany>();
  for (const r of reports) for (const c of r.lastRun?.failedCompanies ?? []) if (r.companies && !names.includes(c.name) && !out.has(c.name)) out.set(c.name, c);
  return [...out.values()];
}

/** The column of a company without data, as its header says it. */
export const absentHeader = (c: FailedCompany): string => `${c.name} (sem dados)`;

/** The Total's header: of which companies, when one has no data. */
export const totalOf = (names: readonly string[], absent: readonly FailedCompany[]): string =>
  absent.length ? `Total de ${names.length ? names.join(', ') : 'nenhuma empresa'}` : 'Total';

/** Why companies have no data, for the panel's head; '' when none. */
export function absentNote(absent: readonly FailedCompany[]): string {
  if (absent.length === 0) return '';
  const each = absent.map((c) => `"${c.name}" (${c.message.replace(/\.+$/, '')})`).join('; ');
  return `⚠ Sem dados de ${each}: a última atualização falhou nessa empresa e a aba do relatório não tem nenhuma linha dela. A coluna dela diz "sem dados" e o Total é só das outras. Corrija a conexão em Faturamento › Conexões e atualize o relatório.`;
}

/** Whole days since year 0 of a calendar day, so that days subtract. */
export const dayNumber = (d: Day): number => Math.round(Date.UTC(d.year, d.month - 1, d.day) / 86_400_000);

export interface Today {
  day: Day;
  zone: Zone;
}

/** The calendar day it is at `now` in the spreadsheet's zone. */
export function todayOf(zone: Zone, now: number): Today {
  const w = zone.wall(new Date(now));
  return { day: { year: w.year, month: w.month, day: w.day }, zone };
}

/** The competência before today's: the month a close is of, unless one is chosen. */
export const lastMonth = (today: Today): string => competencia(addMonths({ year: today.day.year, month: today.day.month }, -1));

/** The calendar day a date cell shows in the spreadsheet's zone; null for a blank or non-date cell. */
export function dayOf(value: CellValue | undefined, zone: Zone): number | null {
  return isDate(value) ? dayNumber(zone.wall(value)) : null;
}

/** The competência (MM/YYYY) of a date cell's month in the spreadsheet's zone; null for a blank or non-date cell. */
export function monthOf(value: CellValue | undefined, zone: Zone): string | null {
  if (!isDate(value)) return null;
  const w = zone.wall(value);
  return competencia({ year: w.year, month: w.month });
}

/** The last 12 competências, oldest first, ending with today's month. */
export function lastTwelve(today: Day): string[] {
  const now: Month = { year: today.year, month: today.month };
  return Array.from({ length: 12 }, (_, i) => competencia(addMonths(now, i - 11)));
}

/** The statuses the interface names for a note (AUTORIZADA, EMITIDA): a note in any other (a cancelled one) is not an issued note. */
const ISSUED_NOTE = new Set(['AUTORIZADA', 'EMITIDA']);

export const issuedNote = (status: CellValue | undefined): boolean => ISSUED_NOTE.has(text(status).toUpperCase());

/** The open invoices (ABERTA) among those a panel offers for NFS-e, said with their ids: not billed yet, and selected with the others. */
export function openInvoices(src: SourceTable, rows: readonly number[], what: [string, string]): string[] {
  const status = col(src, 'statusFatura');
  const ids = col(src, 'idFatura');
  const open = rows.filter((r) => text(status[r]).toUpperCase() === 'ABERTA');
  if (!open.length) return [];
  const list = open.slice(0, 10).map((r) => text(ids[r]));
  return [
    `Em aberto (ABERTA), ainda sem faturamento: ${plural(open.length, ...what)} (IDs ${list.join(', ')}${open.length > 10 ? '…' : ''}). "Emitir NFS-e destas faturas" seleciona também estas: confira antes de emitir.`,
  ];
}

const CLOSED_CHARGE = new Set(['CANCELADA', 'CANCELADO', 'BAIXA_POR_PERDA', 'BAIXADO']);

/** An open charge: not paid, not cancelled, not written off. */
export function openCharge(paid: CellValue | undefined, situation: CellValue | undefined): boolean {
  return !isTrue(paid) && !CLOSED_CHARGE.has(text(situation).toUpperCase());
}

/** Each open charge with a due date: its row and days past due today (0 or less: not due yet). */
export function openCharges(src: SourceTable, today: Today): Array<{ row: number; late: number }> {
  const venc = col(src, 'dataVencimento');
  const paid = col(src, 'isQuitado');
  const situation = col(src, 'situacao');
  const todayNumber = dayNumber(today.day);
  const out: Array<{ row: number; late: number }> = [];
  for (const r of rowsOf(src)) {
    if (!openCharge(paid[r], situation[r])) continue;
    const due = dayOf(venc[r], today.zone);
    if (due !== null) out.push({ row: r, late: todayNumber - due });
  }
  return out;
}
