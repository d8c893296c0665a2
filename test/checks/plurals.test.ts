/**
 * "Pronto: 1 linhas" nowhere: every count the servers and the sidebars put in
 * front of a person goes through the one helper (src/api/words.ts) that makes
 * the noun, and what follows it, agree. The scan reads every message template
 * of src/ and finds a number written straight before a plural word, which
 * reads wrong the day the number is 1.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plural } from '../../src/api/words';

const root = join(import.meta.dirname, '../..');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.(ts|html)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Words ending in s that a count may stand before without being their number. */
const NOT_PLURAL = new Set(['ms', 'às', 'mais', 'menos', 'dos', 'das', 'os', 'as', 'nos', 'nas', 'pelos', 'pelas', 'seus', 'suas', 's']);

/** A count that can never be 1: a constant of the code (MAX_ROWS, DAILY_QUOTA.fetches). */
const CONSTANT = /^[A-Z][A-Z0-9_]*\b/;

/** Each `${expr} word` of a file whose word is plural: where a count meets its noun without the helper. */
function bareCounts(source: string): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  for (let i = source.indexOf('${'); i >= 0; i = source.indexOf('${', i + 2)) {
    let depth = 0;
    let end = i + 1;
    for (; end < source.length; end++) {
      if (source[end] === '{') depth++;
      else if (source[end] === '}' && --depth === 0) break;
    }
    const expr = source.slice(i + 2, end).trim();
    const after = /^ ([\p{L}]+)/u.exec(source.slice(end + 1, end + 40));
    if (!after || CONSTANT.test(expr)) continue;
    const word = after[1];
    // A capital starts the next sentence.
    if (!/^\p{Ll}.*s$/u.test(word) || NOT_PLURAL.has(word)) continue;
    out.push({ line: source.slice(0, i).split('\n').length, text: `\${${expr}} ${word}` });
  }
  // A number typed before a plural noun in a fixed text.
  for (const m of source.matchAll(/(?<![\d.,])\b1 (linhas|registros|relatórios|páginas|colunas|clientes|faturas|empresas|dias|vezes|alterações)\b/gu))
    out.push({ line: source.slice(0, m.index).split('\n').length, text: m[0] });
  return out;
}

describe('counts and their nouns', () => {
  it('the helper: one is singular, zero and the rest plural, in Brazilian digits', () => {
    expect(plural(1, 'linha processada', 'linhas processadas')).toBe('1 linha processada');
    expect(plural(0, 'linha', 'linhas')).toBe('0 linhas');
    expect(plural(2, 'linha', 'linhas')).toBe('2 linhas');
    expect(plural(12_345, 'linha', 'linhas')).toBe('12.345 linhas');
  });

  it('the scan finds a number written straight before a plural word', () => {
    // Sources as the scan reads them, "#{" standing for the interpolation's opening.
    const scan = (code: string) => bareCounts(code.replaceAll('#{', '$' + '{')).map((f) => f.text.replaceAll('$' + '{', '#{'));
    expect(scan('const a = `Pronto: #{rows} linhas em`;\nconst b = `#{plural(n, "linha", "linhas")} processadas`;')).toEqual([
      '#{rows} linhas',
      '#{plural(n, "linha", "linhas")} processadas',
    ]);
    expect(scan('`#{plural(n, "linha pronta", "linhas prontas")} para enviar; #{MAX_ROWS} linhas; #{ms} ms; #{n} Linhas; 1 linhas`')).toEqual(['1 linhas']);
  });

  it('no message of the servers or the sidebars writes a count before its noun without the helper', () => {
    const found = ['src/ui', 'src/gas', 'src/core', 'src/api'].flatMap((dir) =>
      files(join(root, dir)).flatMap((file) => bareCounts(readFileSync(file, 'utf8')).map((f) => `${relative(root, file)}:${f.line}: ${f.text}`)),
    );
    expect(found).toEqual([]);
  });
});
