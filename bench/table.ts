/** Prints an aligned text table. */
export function printTable(header: string[], rows: Array<Array<string | number>>): void {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of cells.slice(1)) console.log(line(r));
}

/** A figure beside its target, and whether it meets it. */
export function beside(target: string, met: boolean): string {
  return `meta ${target}: ${met ? 'atingida' : 'NÃO atingida'}`;
}

/**
 * What varies from one run to the next (real time, CPU): to stderr, so that
 * what a bench prints on stdout is the same on every run.
 */
export function note(text: string): void {
  console.error(text);
}

/** A number in the way the tables write it (pt-BR: decimal comma). */
export function dec(x: number, digits = 1): string {
  return x.toLocaleString('pt-BR', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
