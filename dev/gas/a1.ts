/** A1 notation, as Sheets reads it: "B2", "A1:C10", "A:A", "2:5", "A2:C", "'Sheet 1'!A1". */

export interface GridRef {
  sheetName?: string;
  row: number;
  column: number;
  numRows: number;
  numColumns: number;
}

export function columnLetters(column: number): string {
  let s = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export function toA1(row: number, column: number, numRows: number, numColumns: number): string {
  const start = `${columnLetters(column)}${row}`;
  if (numRows === 1 && numColumns === 1) return start;
  return `${start}:${columnLetters(column + numColumns - 1)}${row + numRows - 1}`;
}

/** Returns null when the text is not A1 notation; open ends are clipped to the sheet's size. */
export function parseA1(text: string, maxRows: (sheet?: string) => number, maxColumns: (sheet?: string) => number): GridRef | null {
  let sheetName: string | undefined;
  let ref = text.trim();
  const bang = ref.lastIndexOf('!');
  if (bang >= 0) {
    sheetName = ref.slice(0, bang);
    if (sheetName.startsWith("'") && sheetName.endsWith("'")) sheetName = sheetName.slice(1, -1).replace(/''/g, "'");
    ref = ref.slice(bang + 1);
  }
  const part = /^\$?([A-Za-z]*)\$?(\d*)$/;
  const [a, b] = ref.split(':');
  const p1 = part.exec(a ?? '');
  const p2 = b === undefined ? p1 : part.exec(b);
  if (!p1 || !p2 || (!p1[1] && !p1[2]) || (!p2[1] && !p2[2])) return null;
  const rows = maxRows(sheetName);
  const cols = maxColumns(sheetName);
  const c1 = p1[1] ? columnNumber(p1[1]) : 1;
  const r1 = p1[2] ? Number(p1[2]) : 1;
  const c2 = p2[1] ? columnNumber(p2[1]) : cols;
  const r2 = p2[2] ? Number(p2[2]) : rows;
  if (r1 < 1 || c1 < 1) return null;
  return {
    sheetName,
    row: Math.min(r1, r2),
    column: Math.min(c1, c2),
    numRows: Math.abs(r2 - r1) + 1,
    numColumns: Math.abs(c2 - c1) + 1,
  };
}
