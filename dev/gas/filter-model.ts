/** A sheet's filter as the spreadsheet model keeps it (filter.ts has the service objects). */
export type CriteriaType = 'TEXT_EQUAL_TO' | 'TEXT_CONTAINS' | 'NUMBER_GREATER_THAN' | 'NUMBER_LESS_THAN' | 'NUMBER_EQUAL_TO' | 'CELL_EMPTY' | 'CELL_NOT_EMPTY';

export interface CriteriaSpec {
  type: CriteriaType | null;
  values: Array<string | number>;
  hidden: string[];
  visible: string[] | null;
}

export interface FilterModel {
  row: number;
  column: number;
  numRows: number;
  numColumns: number;
  /** Absolute column → criteria. */
  criteria: Map<number, CriteriaSpec>;
}

/** The filter's range and criteria after rows or columns moved (`to` null: deleted); null when nothing of it is left. */
export function moveFilter(f: FilterModel, to: (p: number) => number | null, axis: 'rows' | 'columns'): FilterModel | null {
  const first = axis === 'rows' ? f.row : f.column;
  const count = axis === 'rows' ? f.numRows : f.numColumns;
  const kept = Array.from({ length: count }, (_, i) => to(first + i)).filter((p): p is number => p !== null);
  if (kept.length === 0) return null;
  const lo = Math.min(...kept);
  const n = Math.max(...kept) - lo + 1;
  if (axis === 'rows') return { ...f, row: lo, numRows: n };
  const criteria = new Map<number, CriteriaSpec>();
  for (const [c, spec] of f.criteria) {
    const moved = to(c);
    if (moved !== null) criteria.set(moved, spec);
  }
  return { ...f, column: lo, numColumns: n, criteria };
}
