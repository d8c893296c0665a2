/** What the Spreadsheet service objects of one execution share: the execution, the model, and stable object identities. */
import type { Execution } from './execution';
import type { SheetModel, SpreadsheetModel } from './spreadsheet-model';
import type { SheetImpl } from './sheet';

export interface SheetsEnv {
  exec: Execution;
  model: SpreadsheetModel;
  newArray: <T>(items: T[]) => T[];
  /** The same SheetImpl for the same sheet within an execution, so `===` works in scripts. */
  sheetObject(sheet: SheetModel): SheetImpl;
  spreadsheetObject(): object;
  range(sheet: SheetModel, row: number, column: number, numRows: number, numColumns: number): object;
  rangeList(ranges: object[]): object;
}
