/** The sections and tokens of a number format: enough to tell a date format from the rest. */
export interface Section {
  raw: string;
}

export function splitSections(format: string): Section[] {
  const out: string[] = [''];
  let quoted = false;
  for (let i = 0; i < format.length; i++) {
    const ch = format[i];
    if (ch === '"') quoted = !quoted;
    if (ch === '\\' && !quoted) {
      out[out.length - 1] += ch + (format[i + 1] ?? '');
      i++;
      continue;
    }
    if (ch === ';' && !quoted) out.push('');
    else out[out.length - 1] += ch;
  }
  return out.map((raw) => ({ raw }));
}

/** Drops quoted text, escapes and [..] blocks so only the format's tokens remain. */
function tokensOnly(format: string): string {
  return format
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '');
}

export function isDateFormat(format: string | undefined): boolean {
  if (!format || format === '@' || format.toLowerCase() === 'general') return false;
  const first = tokensOnly(splitSections(format)[0].raw);
  return /[dDyYhHsS]/.test(first) || (/[mM]/.test(first) && !/[0#?]/.test(first));
}
