/**
 * Which sheets a report may write. A tab belongs to one report, child tabs
 * included: the add-on's own sheets (Histórico, the Diagnóstico, bulk
 * templates, dashboards, the hidden store) and another report's sheet or child
 * sheet are never targets, two reports on one sheet would overwrite each other,
 * and an import into Histórico wipes the run log. Sheets are recognised by
 * their metadata, which survives renaming.
 *
 * At run time the rule is mutual: a run writes only to the sheet its report
 * names and only when that sheet's own metadata names the same report back,
 * whatever the stored report or pull says. Only the owner's own form may point
 * a report at a sheet that does not name it yet (after the checks above).
 */
import { CHILD_TAG, childTagValue } from '../sheets/child-sheet';
import { SHEET_TAG } from '../sheets/sheet-layout';
import { HISTORY_SHEET } from '../sheets/sheet-names';
import type { BookPort, SheetPort } from '../sheets/sheet-port';

/** What the rule reads of a report (core/reports/reports.ts): its id and name, and the sheet it names. */
export interface ReportTarget {
  id: string;
  name: string;
  sheetName: string;
  /** The sheet's id, once a run or the form gave it one. */
  sheetId?: number;
}

/** The sheet metadata that makes a sheet a report's own. */
export const reportTag = (reportId: string): string => `relatorio:${reportId}`;

/** Sheets the add-on keeps that carry no metadata of ours, by name (the hidden store, the Diagnóstico): given by the shell. */
export type ReservedNames = readonly string[];

/** What an add-on sheet is, in words, by its metadata; null for a sheet that is not one of the add-on's own. */
function addonSheet(tag: string, name: string, reserved: ReservedNames): string | null {
  if (tag === 'historico' || name === HISTORY_SHEET) return 'é o histórico de execuções do complemento';
  if (tag.startsWith('painel:')) return 'é um painel do complemento (Painéis)';
  if (tag.startsWith('modelo:')) return 'é um modelo de lançamentos em lote';
  if (reserved.includes(name) || (tag !== '' && !tag.startsWith('relatorio:'))) return 'é do próprio complemento';
  return null;
}

/** Why `sheet` cannot receive the report `reportId` (undefined for a new one); null when it can. */
export function targetProblem(sheet: SheetPort, reports: readonly ReportTarget[], reportId: string | undefined, reserved: ReservedNames = []): string | null {
  const name = sheet.name();
  const tag = sheet.sheetTag(SHEET_TAG) ?? '';
  const addon = addonSheet(tag, name, reserved);
  if (addon) return `A aba "${name}" ${addon} e não recebe importações. Escolha outra aba.`;
  const child = sheet.sheetTag(CHILD_TAG);
  if (child !== null) {
    const parent = reports.find((r) => r.sheetId !== undefined && child.startsWith(`${r.sheetId}:`));
    const whose = parent ? ` do relatório "${parent.name}"` : ' de um relatório';
    return `A aba "${name}" é uma aba ligada${whose} (itens, telefones, descontos…) e só recebe as listas dele. Escolha outra aba ou crie uma nova.`;
  }
  const owner = reports.find(
    (r) => r.id !== reportId && (r.sheetId === sheet.id || (r.sheetId === undefined && r.sheetName === name) || tag === reportTag(r.id)),
  );
  if (owner) return `A aba "${name}" já é do relatório "${owner.name}": cada relatório tem a sua aba. Escolha outra ou crie uma nova.`;
  return null;
}

/** The sheets a report may be pointed at, by name. */
export function targetNames(book: BookPort, reports: readonly ReportTarget[], reportId: string | undefined, reserved: ReservedNames = []): string[] {
  return book.sheetNames().filter((name) => {
    const sheet = book.byName(name);
    return sheet !== null && targetProblem(sheet, reports, reportId, reserved) === null;
  });
}

/**
 * Why a run of `report` must not write `sheet`: null only when the sheet's
 * metadata names this report. Nothing is written when it says anything else.
 */
export function runTargetProblem(sheet: SheetPort, report: Pick<ReportTarget, 'id' | 'name'>): string | null {
  if (sheet.sheetTag(SHEET_TAG) === reportTag(report.id)) return null;
  return `A aba "${sheet.name()}" não é a aba do relatório "${report.name}" (ela não diz que é dele): nada foi gravado nela. Abra Relatórios › Editar e escolha de novo a aba de destino.`;
}

/**
 * The sheet a run of `report` would start on, when it exists and the run may not
 * write it; null when the run may go on (its own sheet, or one the run will create).
 */
export function startTargetProblem(book: BookPort, report: ReportTarget): string | null {
  const sheet = report.sheetId !== undefined ? book.byId(report.sheetId) : book.byName(report.sheetName);
  return sheet ? runTargetProblem(sheet, report) : null;
}

/** Whether `sheet` is the child sheet `tag` names (`<parent sheet id>:<field>`): a run writes a child list nowhere else. */
export function isChildSheet(sheet: SheetPort, tag: string): boolean {
  return sheet.sheetTag(CHILD_TAG) === tag;
}

/**
 * The sheets a run of `report` wrote that are still its own by their metadata:
 * its sheet, and the child sheets of that sheet the job names. What a first
 * failed import may take away, and nothing else, whatever the job says.
 */
export function ownSheetIds(
  book: BookPort,
  report: Pick<ReportTarget, 'id' | 'name'>,
  job: { sheetId: number; children: Record<string, { sheetId: number }> },
): number[] {
  const main = book.byId(job.sheetId);
  if (!main || runTargetProblem(main, report) !== null) return [];
  const children = Object.entries(job.children).flatMap(([field, entry]) => {
    const sheet = book.byId(entry.sheetId);
    return sheet && isChildSheet(sheet, childTagValue(main.id, field)) ? [sheet.id] : [];
  });
  return [main.id, ...children];
}
