/**
 * Rows whose content repeats another's: pasted twice, each would get its own
 * generated integration id, so nothing downstream tells them apart and the
 * service would create the same subscription twice. They are not refused (two
 * equal subscriptions may be meant); Validar names them and the confirmation
 * asks before sending them.
 */
import type { RowRequest } from './context';
import { rowDigest } from './confirmed';

/** Each group of valid rows without a typed key whose bodies are the same, first row first. */
export function repeatedRows(built: ReadonlyMap<number, RowRequest>): number[][] {
  const groups = new Map<string, number[]>();
  for (const [r, made] of built) {
    // A typed key tells rows apart, and the same key twice is refused elsewhere.
    if (!made.built.needsKey || made.built.issues.length) continue;
    const d = rowDigest(made);
    groups.set(d, [...(groups.get(d) ?? []), r]);
  }
  return [...groups.values()].filter((g) => g.length > 1).map((g) => g.sort((a, b) => a - b));
}

const list = (rows: readonly number[]): string =>
  rows.length === 1 ? `a linha ${rows[0]}` : `as linhas ${rows.slice(0, -1).join(', ')} e ${rows[rows.length - 1]}`;

/** What Validar and the confirmation say of the repeated rows, naming each; '' when none. */
export function repeatsText(groups: readonly number[][]): string {
  if (groups.length === 0) return '';
  const said = groups.map(([first, ...rest]) => `${list(rest)} ${rest.length === 1 ? 'repete' : 'repetem'} a linha ${first}`);
  return `Conteúdo repetido: ${said.join('; ')}. Cada linha cria mais um lançamento igual; se a repetição não for intencional, apague as linhas repetidas antes de enviar.`;
}
