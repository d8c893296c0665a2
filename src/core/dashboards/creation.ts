/**
 * The Painéis form's check of the reports chosen together, before anything is
 * made: a combination the kind would refuse at its first refresh is refused
 * here, beside the field of the report that does not fit, so no empty tab and
 * no "Painel criado" come of it.
 */
import type { Report } from '../reports/reports';
import type { PanelKind, SourceField } from './panel';

/** The first report (in the kind's order) that cannot be read with those before it, and why; undefined when they all fit. */
export function refusedSource(kind: Pick<PanelKind, 'sources' | 'refuse'>, known: readonly Report[]): { field: SourceField; message: string } | undefined {
  if (!kind.refuse) return undefined;
  for (let i = 1; i < known.length; i++) {
    // A report always fits with itself: the ones after i stand in as the first, so only those up to i are judged.
    const message = kind.refuse(known.map((r, j) => (j <= i ? r : known[0])));
    if (message) return { field: kind.sources[i].field, message };
  }
  return undefined;
}
