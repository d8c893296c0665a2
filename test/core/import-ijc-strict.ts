/**
 * A memory book whose sheets are as strict as Google's about ranges: reading
 * or writing no rows or no columns throws (getRange refuses it). Each write
 * is recorded, to see which cells a run rewrote.
 */
import type { CellValue } from '../../src/core/table';
import { MemoryBook, MemorySheet } from '../bulk/memory-book';

export class StrictSheet extends MemorySheet {
  /** Each write as [row, column, rows, columns]. */
  readonly written: Array<[number, number, number, number]> = [];
  private check(rows: number, columns: number) {
    if (!(rows >= 1 && columns >= 1)) throw new Error(`intervalo vazio (${rows} × ${columns})`);
  }
  override read(row: number, column: number, rows: number, columns: number) {
    this.check(rows, columns);
    return super.read(row, column, rows, columns);
  }
  override readNotes(row: number, column: number, columns: number) {
    this.check(1, columns);
    return super.readNotes(row, column, columns);
  }
  override write(row: number, column: number, values: CellValue[][]) {
    this.check(values.length, values[0]?.length ?? 0);
    this.written.push([row, column, values.length, values[0]?.length ?? 0]);
    super.write(row, column, values);
  }
}

export class StrictBook extends MemoryBook {
  private next = 500;
  override create(name: string) {
    const s = new StrictSheet(this.next++, name);
    this.sheets.push(s);
    return s;
  }
}
