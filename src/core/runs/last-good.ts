/**
 * A run that fails for good before writing a row leaves its report's sheet as
 * the last good run left it: the sheet is not incomplete, and the run says
 * whose data it holds.
 */
import { brDateTime, type Zone } from '../../api/calendar';
import { markDone, reportColumns } from '../pull/layout';
import type { ImportState } from '../pull/state';
import type { Report } from '../reports/reports';
import { findColumns } from '../sheets/sheet-layout';
import type { BookPort } from '../sheets/sheet-port';
import { runTargetProblem } from '../trust/targets';

/**
 * Lifts the incomplete mark the run's start put on the report's sheet, when the run failed in a way retrying cannot
 * fix, wrote nothing, and the sheet is the one an earlier good run filled; returns what the sheet holds, in words.
 */
export function keepLastGood(book: BookPort, report: Report, state: ImportState, zone: Zone): string | undefined {
  if (state.status !== 'failed' || state.retryable || state.createdSheet || report.lastSuccessStart === undefined) return undefined;
  if (state.pages > 0 || state.rows > 0 || state.merged > 0) return undefined;
  const sheet = book.byId(state.sheetId);
  // A sheet that is not the report's is never written, not even its mark.
  if (!sheet || runTargetProblem(sheet, report)) return undefined;
  const columns = reportColumns(state.spec.listing, { consolidated: Boolean(state.spec.companies), cardData: state.spec.cardData });
  const positions = findColumns(sheet, columns);
  if (positions.some((p) => p === null)) return undefined;
  markDone(sheet, columns, positions as number[]);
  return `A aba "${sheet.name()}" continua com os dados da última atualização bem-sucedida, de ${brDateTime(zone.wall(new Date(report.lastSuccessStart)))}.`;
}
