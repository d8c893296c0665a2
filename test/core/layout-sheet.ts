/**
 * An in-memory sheet whose columns carry their metadata as Google's do:
 * inserting columns moves the cells, notes and tags to their right; clearing
 * blanks cells. For tests of where our columns are in a sheet people edit.
 */
import type { CellValue } from '../../src/core/table';
import { TaggedSheet } from './run-world';

export class LayoutSheet extends TaggedSheet {
  sizes: Array<[number, number]> = [];
  inserted: Array<[number, number]> = [];
  override ensureSize(rows?: number, columns?: number) {
    this.sizes.push([Number(rows), Number(columns)]);
  }
  override insertColumnsAfter(column = 0, count = 0) {
    this.inserted.push([column, count]);
    const shift = <T>(line: T[] | undefined, blank: T) => line?.splice(column, 0, ...Array.from({ length: count }, () => blank));
    for (const line of this.grid) shift(line, '' as CellValue);
    for (const line of this.notes) shift(line, '');
    for (const [key, at] of this.columns) if (at > column) this.columns.set(key, at + count);
  }
  override clear(row = 1, column = 1, numRows = 0, numColumns = 0) {
    for (let r = row; r < row + numRows; r++) for (let c = column; c < column + numColumns; c++) if (this.grid[r - 1]) this.grid[r - 1][c - 1] = '';
  }
  /** Column (1-based) → its header note's first line and its tag, for reading a layout at a glance. */
  header(): string[] {
    return this.grid[0]?.map((v) => String(v ?? '')) ?? [];
  }
}
