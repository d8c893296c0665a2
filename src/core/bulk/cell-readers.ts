/**
 * Reading one cell as getValues hands it over: a Date for date-formatted
 * cells, a number for number cells, a string for text, an error text for a
 * broken formula. Each reader returns the wire value or a message, in
 * Portuguese, that says what to type instead.
 */
import { competencia as formatCompetencia, isDate, isoDate, parseCompetencia, parseDay, type Zone } from '../../api/calendar';
import { cpfCnpjDigits } from '../../api/filters';
import type { InputColumn } from './definitions';
import { pickedId } from './catalog';
import { plural } from '../../api/words';

export type Read = { ok: true; value: string | number | boolean } | { ok: true; blank: true } | { ok: false; message: string };

const FORMULA_ERROR = /^#(N\/A|REF!|VALUE!|DIV\/0!|NAME\?|NUM!|NULL!|ERROR!|SPILL!|CALC!)/i;
/** What a message quotes of a cell: enough to recognise it, never a 50,000-character wall. */
const quote = (text: string): string => `"${text.length > 40 ? `${text.slice(0, 40)}…` : text}"`;

const fail = (message: string): Read => ({ ok: false, message });
const value = (v: string | number | boolean): Read => ({ ok: true, value: v });

/** Accents off, upper case: "agrupada", "Agrupáda " → "AGRUPADA". */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toUpperCase();
}

function integer(col: InputColumn, cell: unknown): Read {
  let n: number;
  if (typeof cell === 'number') n = cell;
  else if (typeof cell === 'string' && /^\s*\d+\s*$/.test(cell)) n = Number(cell);
  else if (col.catalog && typeof cell === 'string' && pickedId(cell) !== null) n = pickedId(cell) as number;
  else return fail(`esperava um número inteiro, veio ${describe(cell)}`);
  if (!Number.isSafeInteger(n)) return fail(`esperava um número inteiro, veio ${String(cell)}`);
  if (col.min !== undefined && n < col.min) return fail(`o valor mínimo é ${col.min}, veio ${n}`);
  if (col.max !== undefined && n > col.max) return fail(`o valor máximo é ${col.max}, veio ${n}`);
  return value(n);
}

/** "1.234,56", "R$ 10,5", "10.50" (typed into a text cell) → a number. */
function parseMoneyText(text: string): number | null {
  // "R$" only in front and spaces only around it: "10 R$ 5" or "10 5" is not a value anyone meant as 105.
  const parts = /^\s*(-)?\s*(?:R\$)?\s*(-)?([\d.,]+)\s*$/i.exec(text);
  if (!parts || (parts[1] && parts[2])) return null;
  let s = (parts[1] || parts[2] ? '-' : '') + parts[3];
  if (s.includes(',')) s = s.replace(/\./g, '').replace(',', '.');
  else if (/^-?\d{1,3}(\.\d{3})+$/.test(s)) s = s.replace(/\./g, '');
  if (!/^-?\d+(\.\d+)?$/.test(s)) return null;
  return Number(s);
}

function money(col: InputColumn, cell: unknown): Read {
  const n = typeof cell === 'number' ? cell : typeof cell === 'string' ? parseMoneyText(cell) : null;
  if (n === null || !Number.isFinite(n)) return fail(`esperava um valor em reais (por exemplo 1.234,56), veio ${describe(cell)}`);
  if (col.min !== undefined && n < col.min) return fail(`o valor precisa ser maior que zero, veio ${String(n).replace('.', ',')}`);
  if (Math.abs(Math.round(n * 100) - n * 100) > 1e-6) return fail(`use no máximo duas casas decimais, veio ${String(n).replace('.', ',')}`);
  return value(Math.round(n * 100) / 100);
}

function date(cell: unknown, zone: Zone): Read {
  if (isDate(cell)) {
    if (Number.isNaN(cell.getTime())) return fail('data inválida: digite no formato dd/mm/aaaa');
    return value(isoDate(zone.wall(cell)));
  }
  if (typeof cell === 'string') {
    const parsed = parseDay(cell);
    if (parsed.ok) return value(isoDate(parsed.value));
    return fail(parsed.reason === 'format' ? `esperava uma data dd/mm/aaaa, veio ${quote(cell.trim())}` : parsed.message);
  }
  return fail(`esperava uma data dd/mm/aaaa, veio ${describe(cell)}`);
}

function competencia(cell: unknown, zone: Zone): Read {
  // Typed as 10/2026 into a cell that is not text, the Planilhas turns it into 01/10/2026: the month is what was meant.
  if (isDate(cell)) {
    if (Number.isNaN(cell.getTime())) return fail('competência inválida: digite MM/AAAA');
    return value(formatCompetencia(zone.wall(cell)));
  }
  if (typeof cell === 'string') {
    const s = cell.trim();
    const parsed = parseCompetencia(s);
    if (parsed.ok) return value(formatCompetencia(parsed.value));
    if (parsed.reason === 'format') return fail(`esperava a competência no formato MM/AAAA (por exemplo 11/2026), veio ${quote(s)}`);
    return fail(parsed.message.startsWith('o mês') ? `o mês da competência vai de 01 a 12, veio ${quote(s)}` : `ano da competência inválido em ${quote(s)}`);
  }
  return fail(`esperava a competência no formato MM/AAAA (por exemplo 11/2026), veio ${describe(cell)}`);
}

function choice(col: InputColumn, cell: unknown): Read {
  if (typeof cell !== 'string') return fail(`escolha um de ${(col.choices ?? []).join(', ')}, veio ${describe(cell)}`);
  const folded = fold(cell).replace(/\s+/g, '_');
  const found = (col.choices ?? []).find((c) => c === folded);
  return found ? value(found) : fail(`escolha um de ${(col.choices ?? []).join(', ')}, veio ${quote(cell.trim())}`);
}

const YES = new Set(['SIM', 'S', 'TRUE', 'VERDADEIRO', 'X', '1']);
const NO = new Set(['NAO', 'N', 'FALSE', 'FALSO', '0']);

function boolean(cell: unknown): Read {
  if (typeof cell === 'boolean') return value(cell);
  const folded = typeof cell === 'string' || typeof cell === 'number' ? fold(String(cell)) : '';
  if (YES.has(folded)) return value(true);
  if (NO.has(folded)) return value(false);
  return fail(`responda Sim ou Não, veio ${describe(cell)}`);
}

function text(col: InputColumn, cell: unknown): Read {
  if (typeof cell !== 'string' && typeof cell !== 'number') return fail(`esperava um texto, veio ${describe(cell)}`);
  const s = String(cell).trim();
  if (col.maxLength !== undefined && s.length > col.maxLength)
    return fail(`use no máximo ${plural(col.maxLength, 'caractere', 'caracteres')} (a célula tem ${s.length})`);
  return value(s);
}

function key(col: InputColumn, cell: unknown): Read {
  // 00123 typed into a number cell is stored as 123: sending it would name another record.
  if (typeof cell === 'number') {
    return fail(
      `a célula está como número (${cell}), e zeros à esquerda podem ter sido perdidos: formate a coluna como Texto simples (Formatar › Número › Texto simples) e digite o valor de novo`,
    );
  }
  const read = text(col, cell);
  if (read.ok && 'value' in read && /\s/.test(String(read.value))) return fail('não use espaços no ID de integração');
  return read;
}

function cpfCnpj(cell: unknown): Read {
  try {
    return value(cpfCnpjDigits(cell));
  } catch (err) {
    return fail((err as Error).message);
  }
}

export function describe(cell: unknown): string {
  if (cell === null || cell === undefined || cell === '') return 'vazio';
  if (isDate(cell)) return 'uma data';
  if (typeof cell === 'number') return `o número ${String(cell).replace('.', ',')}`;
  if (typeof cell === 'boolean') return cell ? 'VERDADEIRO' : 'FALSO';
  if (typeof cell === 'string') return quote(cell.trim());
  return typeof cell;
}

/** One cell of one column; blank cells are reported as blank and the caller decides if that is allowed. */
export function readCell(col: InputColumn, cell: unknown, zone: Zone): Read {
  if (cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '')) return { ok: true, blank: true };
  if (typeof cell === 'string' && FORMULA_ERROR.test(cell.trim())) {
    return fail(`a célula mostra o erro de fórmula ${cell.trim().slice(0, 10)}: corrija a fórmula ou digite o valor`);
  }
  switch (col.kind) {
    case 'integer':
      return integer(col, cell);
    case 'money':
      return money(col, cell);
    case 'date':
      return date(cell, zone);
    case 'competencia':
      return competencia(cell, zone);
    case 'choice':
      return choice(col, cell);
    case 'boolean':
      return boolean(cell);
    case 'key':
      return key(col, cell);
    case 'cpfCnpj':
      return cpfCnpj(cell);
    default:
      return text(col, cell);
  }
}
