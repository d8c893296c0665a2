/** Dates as Apps Script hands them over: Date objects of another realm, so `instanceof Date` is false for them. */
import { runInNewContext } from 'node:vm';
import type { CellValue } from '../../../src/core/sheets/table';
import type { MemorySheet } from './memory-book';

export function foreignDates(sheet: MemorySheet): void {
  const read = sheet.read.bind(sheet);
  sheet.read = (row, column, numRows, numColumns) =>
    read(row, column, numRows, numColumns).map((line) =>
      line.map((v): CellValue => (v instanceof Date ? (runInNewContext(`new Date(${v.getTime()})`) as Date) : v)),
    );
}
