/**
 * Words every message shares, the servers' and the sidebars': a count and its
 * noun agree as Portuguese wants ("1 linha", "0 linhas", "1.234 linhas"), and
 * what follows the noun agrees with it too ("1 linha processada"). It imports
 * nothing, which is why a sidebar may import it as a value (the layer check
 * refuses that once it imports anything).
 */

/** `n` in Brazilian digits with `one` (exactly 1) or `many` (0 and the rest). */
export function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString('pt-BR')} ${n === 1 ? one : many}`;
}
