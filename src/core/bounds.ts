/**
 * Every text from outside (the service, an error) is bounded before it goes
 * into a property (9 KB a value), a cell (50,000 characters), a note or an
 * e-mail: a 12 KB error must not stop a failure from being recorded.
 */

/** Google's limit on one cell's text. */
export const CELL_TEXT_MAX = 50_000;
/** What a message kept in a property or shown in a sidebar may hold. */
export const MESSAGE_MAX = 2_000;

/** `text` cut to `max` characters, ending in "…" and, when given, where the rest can be seen. */
export function bounded(text: string, max: number, rest?: string): string {
  if (text.length <= max) return text;
  const tail = rest ? `… (${rest})` : '…';
  return `${text.slice(0, Math.max(0, max - tail.length))}${tail}`;
}
