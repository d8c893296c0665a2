/**
 * The layer rule, checked on the source text (run by `npm run lint`):
 *
 * - Apps Script services (SpreadsheetApp, UrlFetchApp, ...) are used only in src/gas.
 *   Every other file of src/ reaches Apps Script through the ports src/gas implements.
 *   `GoogleAppsScript` types may be named in src/gas and src/main.ts only, and never
 *   as a value anywhere (the namespace exists only in @types, not at run time).
 * - src/api imports nothing from src/ outside src/api (it is the bottom layer).
 * - src/core imports nothing from src/gas, src/ui or src/main.ts, never reaches the
 *   client's `http` (the client offers what core needs), and has no import cycle
 *   (types included).
 * - src/ui/client imports only types from outside src/ui: a value import would drag
 *   server code into a sidebar. The exception is a module that imports nothing, outside
 *   src/gas and src/main.ts (such as src/api/words.ts, the wording the servers and the
 *   sidebars share): it drags only itself, and cannot use Apps Script.
 * - src/ imports nothing from outside src/ (tests and tools never ship).
 * - dev/sandbox imports nothing from src/: it is an independent reading of the spec.
 *
 * Service references are found by esbuild: its TypeScript transform drops every type
 * (so `sheet: GoogleAppsScript.Spreadsheet.Sheet` and `import type` vanish), and its
 * `define` replaces only free references (not comments, strings, property names or a
 * local that shadows the name) with a marker whose line the source map gives back.
 * Imports are read with a small tokenizer that skips comments, strings, template
 * literals and regular expressions.
 *
 * Usage: tsx dev/checks/layers.ts [root]. Prints `file:line: message` per violation
 * and exits 1 if there is any.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';

/** Global objects of the Apps Script runtime (built-in and the usual advanced services). */
export const APPS_SCRIPT_GLOBALS: readonly string[] = [
  // Built-in services and enums (every `declare var` of @types/google-apps-script but console).
  'Browser',
  'CacheService',
  'CalendarApp',
  'CardService',
  'Charset',
  'Charts',
  'ConferenceDataService',
  'ContactsApp',
  'ContentService',
  'DataStudioApp',
  'DigestAlgorithm',
  'DocumentApp',
  'DriveApp',
  'FormApp',
  'GmailApp',
  'GroupsApp',
  'HtmlService',
  'Jdbc',
  'LanguageApp',
  'LinearOptimizationService',
  'LockService',
  'Logger',
  'MacAlgorithm',
  'MailApp',
  'Maps',
  'MimeType',
  'PropertiesService',
  'RsaAlgorithm',
  'ScriptApp',
  'ScriptProperties',
  'Session',
  'SitesApp',
  'SlidesApp',
  'SpreadsheetApp',
  'UrlFetchApp',
  'UserProperties',
  'Utilities',
  'XmlService',
  // Advanced services, globals once enabled in the manifest.
  'AdminDirectory',
  'Analytics',
  'BigQuery',
  'Calendar',
  'Docs',
  'Drive',
  'DriveActivity',
  'Gmail',
  'People',
  'Sheets',
  'Slides',
  'Tasks',
  'YouTube',
];

const TYPE_NAMESPACE = 'GoogleAppsScript';

export interface Violation {
  /** Path relative to the root, with forward slashes. */
  file: string;
  line: number;
  message: string;
}

export interface ImportRef {
  specifier: string;
  line: number;
  /** `import type`, `export type`, or every named specifier marked `type`. */
  typeOnly: boolean;
  /** `import('x')`: a dynamic import, or a type (`import('x').T`) that the tokenizer cannot tell apart. */
  dynamic: boolean;
}

// ---------------------------------------------------------------------------
// Tokenizer

interface Token {
  kind: 'name' | 'string' | 'punct' | 'other';
  text: string;
  line: number;
}

const REGEX_AFTER_KEYWORD = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);

const NAME_START = /[A-Za-z_$\u0080-\uffff]/;
const NAME_PART = /[\w$\u0080-\uffff]/;

/** Splits TypeScript source into names, string literals and punctuation; comments, templates and regexes are skipped. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const templateDepths: number[] = []; // brace depth at which each open `${` returns to its template
  let braces = 0;
  let line = 1;
  let i = 0;
  const n = source.length;

  const regexAllowed = (): boolean => {
    const prev = tokens[tokens.length - 1];
    if (!prev) return true;
    if (prev.kind === 'punct') return prev.text !== ')' && prev.text !== ']';
    if (prev.kind === 'name') return REGEX_AFTER_KEYWORD.has(prev.text);
    return false;
  };

  /** Reads template text from i (just after ` or }) to the closing ` or the next `${`. */
  const readTemplate = (): void => {
    const start = line;
    while (i < n) {
      const c = source[i];
      if (c === '\\') {
        if (source[i + 1] === '\n') line++;
        i += 2;
      } else if (c === '`') {
        i++;
        break;
      } else if (c === '$' && source[i + 1] === '{') {
        i += 2;
        templateDepths.push(braces);
        braces++;
        break;
      } else {
        if (c === '\n') line++;
        i++;
      }
    }
    tokens.push({ kind: 'other', text: '`', line: start });
  };

  while (i < n) {
    const c = source[i];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\uFEFF') {
      i++;
    } else if (c === '/' && source[i + 1] === '/') {
      while (i < n && source[i] !== '\n') i++;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      for (let k = i; k < stop; k++) if (source[k] === '\n') line++;
      i = stop;
    } else if (c === "'" || c === '"') {
      const start = line;
      let text = '';
      i++;
      while (i < n && source[i] !== c) {
        if (source[i] === '\\') {
          if (source[i + 1] === '\n') line++;
          else text += source[i + 1] ?? '';
          i += 2;
        } else {
          if (source[i] === '\n') break; // unterminated: stop at the line end
          text += source[i];
          i++;
        }
      }
      i++;
      tokens.push({ kind: 'string', text, line: start });
    } else if (c === '`') {
      i++;
      readTemplate();
    } else if (NAME_START.test(c) || (c === '#' && NAME_START.test(source[i + 1] ?? ''))) {
      const start = i;
      i++;
      while (i < n && NAME_PART.test(source[i])) i++;
      tokens.push({ kind: 'name', text: source.slice(start, i), line });
    } else if (/\d/.test(c) || (c === '.' && /\d/.test(source[i + 1] ?? ''))) {
      i++;
      while (i < n && /[\w.]/.test(source[i])) i++;
      tokens.push({ kind: 'other', text: '0', line });
    } else if (c === '/' && regexAllowed()) {
      let k = i + 1;
      let inClass = false;
      let ok = false;
      while (k < n && source[k] !== '\n') {
        const d = source[k];
        if (d === '\\') k += 2;
        else {
          if (d === '[') inClass = true;
          else if (d === ']') inClass = false;
          else if (d === '/' && !inClass) {
            ok = true;
            break;
          }
          k++;
        }
      }
      if (ok) {
        i = k + 1;
        while (i < n && NAME_PART.test(source[i])) i++;
        tokens.push({ kind: 'other', text: '/re/', line });
      } else {
        tokens.push({ kind: 'punct', text: '/', line });
        i++;
      }
    } else if (c === '}' && templateDepths.length > 0 && templateDepths[templateDepths.length - 1] === braces - 1) {
      templateDepths.pop();
      braces--;
      i++;
      readTemplate();
    } else {
      if (c === '{') braces++;
      else if (c === '}') braces = Math.max(0, braces - 1);
      tokens.push({ kind: 'punct', text: c, line });
      i++;
    }
  }
  return tokens;
}

// ---------------------------------------------------------------------------
// Imports

/** Every module a file names: import/export-from declarations, `import x = require()`, `import()` and `require()`. */
export function findImports(source: string): ImportRef[] {
  const t = tokenize(source);
  const out: ImportRef[] = [];
  const text = (k: number): string | undefined => t[k]?.text;
  const isName = (k: number, name: string): boolean => t[k]?.kind === 'name' && t[k].text === name;

  /**
   * Scans an import/export clause from k up to `from '<x>'` (or `= require('<x>')`).
   * Returns the specifier's token index and whether every named binding is `type`.
   */
  const scanClause = (k: number): { at: number; end: number; allTypes: boolean } | null => {
    let depth = 0;
    let values = 0; // default, namespace or named bindings without `type`
    let types = 0;
    let atSpecifierStart = true;
    for (let j = k; j < t.length && j < k + 5000; j++) {
      const tok = t[j];
      if (tok.kind === 'punct') {
        if (tok.text === '{') {
          depth++;
          atSpecifierStart = true;
          continue;
        }
        if (tok.text === '}') {
          depth--;
          atSpecifierStart = false;
          continue;
        }
        if (tok.text === ',') {
          atSpecifierStart = true;
          continue;
        }
        if (tok.text === ';') return null;
        if (tok.text === '*') {
          values++;
          atSpecifierStart = false;
          continue;
        }
        if (tok.text === '=' && depth === 0 && isName(j + 1, 'require') && text(j + 2) === '(' && t[j + 3]?.kind === 'string') {
          return { at: j + 3, end: j + 4, allTypes: false };
        }
        continue;
      }
      if (tok.kind === 'name') {
        if (depth === 0 && tok.text === 'from' && t[j + 1]?.kind === 'string') {
          return { at: j + 1, end: j + 2, allTypes: values === 0 && types > 0 };
        }
        if (atSpecifierStart) {
          // `type X` (a type-only binding) versus a binding named `type` (`{ type }`, `{ type as x }`).
          const next = t[j + 1];
          const typeModifier = tok.text === 'type' && depth > 0 && next?.kind === 'name' && (next.text !== 'as' || text(j + 2) === 'as');
          if (typeModifier) types++;
          else values++;
          atSpecifierStart = false;
        }
        continue;
      }
      if (tok.kind === 'string' && depth === 0) return null; // not a clause we know
    }
    return null;
  };

  for (let k = 0; k < t.length; k++) {
    const tok = t[k];
    if (tok.kind !== 'name' || text(k - 1) === '.') continue;
    if (tok.text === 'import') {
      const next = t[k + 1];
      if (!next || next.text === '.') continue; // import.meta
      if (next.text === '(') {
        if (t[k + 2]?.kind === 'string') out.push({ specifier: t[k + 2].text, line: t[k + 2].line, typeOnly: false, dynamic: true });
        continue;
      }
      if (next.kind === 'string') {
        out.push({ specifier: next.text, line: next.line, typeOnly: false, dynamic: false });
        k++;
        continue;
      }
      // `import type X ...`, unless `type` is the default binding's name (`import type from`, `import type, {..}`, `import type = require`).
      let from = k + 1;
      let typeKeyword = false;
      if (isName(from, 'type') && t[from + 1]?.kind === 'name' && !(text(from + 1) === 'from' && t[from + 2]?.kind === 'string')) {
        typeKeyword = true;
        from++;
      } else if (isName(from, 'type') && (text(from + 1) === '{' || text(from + 1) === '*')) {
        typeKeyword = true;
        from++;
      }
      const clause = scanClause(from);
      if (!clause) continue;
      out.push({ specifier: t[clause.at].text, line: t[clause.at].line, typeOnly: typeKeyword || clause.allTypes, dynamic: false });
      k = clause.end - 1;
    } else if (tok.text === 'export') {
      let from = k + 1;
      let typeKeyword = false;
      if (isName(from, 'type') && (text(from + 1) === '{' || text(from + 1) === '*')) {
        typeKeyword = true;
        from++;
      }
      if (text(from) !== '{' && text(from) !== '*') continue; // export const/function/default/...
      let j = from;
      if (text(j) === '{') {
        let depth = 0;
        for (; j < t.length; j++) {
          if (text(j) === '{') depth++;
          else if (text(j) === '}' && --depth === 0) break;
        }
        if (!isName(j + 1, 'from')) continue; // export { local }
      }
      const clause = scanClause(from);
      if (!clause) continue;
      out.push({ specifier: t[clause.at].text, line: t[clause.at].line, typeOnly: typeKeyword || clause.allTypes, dynamic: false });
      k = clause.end - 1;
    } else if (tok.text === 'require' && text(k + 1) === '(' && t[k + 2]?.kind === 'string' && text(k + 3) === ')') {
      out.push({ specifier: t[k + 2].text, line: t[k + 2].line, typeOnly: false, dynamic: false });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Apps Script globals

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Source-map mappings as, per generated line, [generated column, original line (0-based)] pairs. */
function decodeMappings(mappings: string): Array<Array<[number, number]>> {
  const lines: Array<Array<[number, number]>> = [];
  let sourceLine = 0;
  for (const group of mappings.split(';')) {
    const segments: Array<[number, number]> = [];
    let column = 0;
    for (const segment of group.split(',')) {
      if (!segment) continue;
      const fields: number[] = [];
      let value = 0;
      let shift = 0;
      for (const ch of segment) {
        const digit = B64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >> 1) : value >> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0];
      if (fields.length >= 4) sourceLine += fields[2];
      segments.push([column, sourceLine]);
    }
    lines.push(segments);
  }
  return lines;
}

function originalLine(map: Array<Array<[number, number]>>, line: number, column: number): number {
  for (let l = line; l >= 0; l--) {
    const segments = map[l] ?? [];
    for (let s = segments.length - 1; s >= 0; s--) {
      if (l < line || segments[s][0] <= column) return segments[s][1] + 1;
    }
  }
  return 1;
}

const MARKER = '__layers_global_';

export interface Transformed {
  /** The file as JavaScript: types, `import type` and type-only bindings gone. */
  code: string;
  /** Value references (not types, comments, strings, property names or shadowing locals) to the given globals. */
  refs: Array<{ name: string; line: number }>;
  error?: { line: number; message: string };
}

/** Runs esbuild's TypeScript transform with every given global replaced by a marker, and finds the markers' source lines. */
export function transformWithGlobals(file: string, source: string, names: readonly string[]): Transformed {
  const define: Record<string, string> = {};
  names.forEach((name, k) => {
    define[name] = `${MARKER}${k}__`;
  });
  let result: { code: string; map: string };
  try {
    result = transformSync(source, { loader: file.endsWith('x') ? 'tsx' : 'ts', sourcefile: file, sourcemap: 'external', define, legalComments: 'none' });
  } catch (err) {
    const e = err as { errors?: Array<{ text: string; location?: { line: number } | null }> };
    const first = e.errors?.[0];
    return { code: '', refs: [], error: { line: first?.location?.line ?? 1, message: `cannot parse: ${first?.text ?? String(err)}` } };
  }
  const map = decodeMappings((JSON.parse(result.map) as { mappings: string }).mappings);
  const refs: Array<{ name: string; line: number }> = [];
  const pattern = new RegExp(`${MARKER}(\\d+)__`, 'g');
  result.code.split('\n').forEach((text, line) => {
    for (const m of text.matchAll(pattern)) {
      refs.push({ name: names[Number(m[1])], line: originalLine(map, line, m.index ?? 0) });
    }
  });
  return { code: result.code, refs };
}

// ---------------------------------------------------------------------------
// The rule

type Area = 'api' | 'core' | 'gas' | 'ui-client' | 'ui' | 'main' | 'src' | 'sandbox' | 'outside';

function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}

function areaOf(file: string): Area {
  if (within(file, 'src/api')) return 'api';
  if (within(file, 'src/core')) return 'core';
  if (within(file, 'src/gas')) return 'gas';
  if (within(file, 'src/ui/client')) return 'ui-client';
  if (within(file, 'src/ui')) return 'ui';
  if (/^src\/main(\.[cm]?[jt]s)?$/.test(file)) return 'main';
  if (within(file, 'src')) return 'src';
  if (within(file, 'dev/sandbox')) return 'sandbox';
  return 'outside';
}

const CHECKED = /\.(?:[cm]?ts|tsx|[cm]?js)$/;
const DECLARATION = /\.d\.[cm]?ts$/;

/**
 * Whether a sidebar may import `specifier` as a value: a module found among the
 * sources that imports nothing drags only itself into the sidebar, and outside
 * src/gas and src/main.ts the rule keeps Apps Script out of it.
 */
function importsNothing(from: string, specifier: string, sources: ReadonlyMap<string, string>, files: ReadonlySet<string>): boolean {
  const target = resolveFile(from, specifier, files);
  if (!target || areaOf(target) === 'gas' || areaOf(target) === 'main') return false;
  return findImports(sources.get(target) as string).length === 0;
}

/** Checks files given as path (relative to the root, forward slashes) → source. */
export function checkLayers(sources: ReadonlyMap<string, string>): Violation[] {
  const violations: Violation[] = [];
  const files = new Set(sources.keys());
  for (const [file, source] of sources) {
    if (!CHECKED.test(file)) continue;
    const area = areaOf(file);
    if (area === 'outside') continue;
    const add = (line: number, message: string): void => {
      violations.push({ file, line, message });
    };

    // Everything but the sandbox goes through esbuild once: globals, and which `import()` are values.
    const transformed =
      area === 'sandbox' ? null : transformWithGlobals(file, source, area === 'gas' ? [TYPE_NAMESPACE] : [...APPS_SCRIPT_GLOBALS, TYPE_NAMESPACE]);
    const dynamicValues = new Set(
      transformed
        ? findImports(transformed.code)
            .filter((ref) => ref.dynamic)
            .map((ref) => ref.specifier)
        : [],
    );

    for (const ref of findImports(source)) {
      if (!ref.specifier.startsWith('.')) continue; // a package: not a layer
      const target = posix.normalize(posix.join(posix.dirname(file), ref.specifier));
      const to = areaOf(target);
      const typeOnly = ref.typeOnly || (ref.dynamic && transformed !== null && !dynamicValues.has(ref.specifier));
      const what = `imports '${ref.specifier}' (${target})${typeOnly ? ' (types only)' : ''}`;
      if (area === 'sandbox') {
        if (within(target, 'src')) add(ref.line, `${what}: dev/sandbox imports nothing from src/ (it is an independent reading of the spec)`);
        continue;
      }
      if (!within(target, 'src')) {
        add(ref.line, `${what}: src/ imports nothing from outside src/ (tests and tools never ship)`);
        continue;
      }
      if (area === 'api' && to !== 'api') {
        add(ref.line, `${what}: src/api imports nothing from src/core, src/gas, src/ui or src/main.ts`);
      } else if (area === 'core' && (to === 'gas' || to === 'ui' || to === 'ui-client' || to === 'main')) {
        add(ref.line, `${what}: src/core imports nothing from src/gas, src/ui or src/main.ts`);
      } else if (area === 'ui-client' && !typeOnly && to !== 'ui' && to !== 'ui-client' && !importsNothing(file, ref.specifier, sources, files)) {
        add(ref.line, `${what}: src/ui/client imports only types from outside src/ui (a value import drags server code into the sidebar); use \`import type\``);
      }
    }

    if (area === 'core') {
      const tokens = tokenize(source);
      tokens.forEach((tok, k) => {
        if (tok.kind === 'name' && tok.text === 'http' && tokens[k - 1]?.text === '.')
          add(tok.line, "src/core reaches the billing service only through the client's own methods (withLimit, lookupEach, …), never its `http`");
      });
    }

    if (!transformed || DECLARATION.test(file)) continue;
    if (transformed.error) add(transformed.error.line, transformed.error.message);
    const reported = new Set<number>();
    const seen = new Set<string>();
    for (const ref of transformed.refs) {
      if (seen.has(`${ref.line} ${ref.name}`)) continue; // one report per name and line
      seen.add(`${ref.line} ${ref.name}`);
      if (ref.name === TYPE_NAMESPACE) {
        add(ref.line, `${TYPE_NAMESPACE} used as a value: it is a type namespace of @types/google-apps-script and does not exist at run time`);
      } else {
        add(
          ref.line,
          `${ref.name} is an Apps Script service: only src/gas may use it (the rest of src/ reaches Apps Script through the ports src/gas implements)`,
        );
      }
      reported.add(ref.line);
    }
    if (area !== 'gas' && area !== 'main') {
      const tokens = tokenize(source);
      tokens.forEach((tok, k) => {
        if (tok.kind === 'name' && tok.text === TYPE_NAMESPACE && tokens[k - 1]?.text !== '.' && !reported.has(tok.line)) {
          reported.add(tok.line);
          add(
            tok.line,
            `${TYPE_NAMESPACE} types belong to src/gas and src/main.ts: the rest of src/ describes what it needs from Apps Script in its own ports`,
          );
        }
      });
    }
  }
  violations.push(...coreCycles(sources));
  return violations.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

/** The file an import names, among `files`: `x.ts`, `x.tsx` or `x/index.ts`. */
function resolveFile(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  const target = posix.normalize(posix.join(posix.dirname(from), specifier.replace(/\.js$/, '')));
  return [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`].find((f) => files.has(f));
}

/**
 * Import cycles among the files of src/core, type imports included: a room
 * that needs another which needs it back is one room in two files. Each cycle
 * is reported once, at the import that closes it from its first file.
 */
function coreCycles(sources: ReadonlyMap<string, string>): Violation[] {
  const files = new Set([...sources.keys()].filter((f) => areaOf(f) === 'core' && CHECKED.test(f) && !DECLARATION.test(f)));
  const edges = new Map<string, Array<{ to: string; line: number }>>();
  for (const file of [...files].sort()) {
    const out: Array<{ to: string; line: number }> = [];
    for (const ref of findImports(sources.get(file) as string)) {
      if (!ref.specifier.startsWith('.')) continue;
      const to = resolveFile(file, ref.specifier, files);
      if (to) out.push({ to, line: ref.line });
    }
    edges.set(file, out);
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const { to } of edges.get(v) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v) as number, low.get(to) as number));
      } else if (onStack.has(to)) low.set(v, Math.min(low.get(v) as number, index.get(to) as number));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component);
    }
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  const violations: Violation[] = [];
  for (const component of components) {
    const members = new Set(component);
    const first = [...component].sort()[0];
    const selfImport = (edges.get(first) ?? []).some((e) => e.to === first);
    if (component.length < 2 && !selfImport) continue;
    // The shortest way around from its first file, following imports that stay inside the cycle.
    const parent = new Map<string, string>();
    const queue = [first];
    let closing: string | undefined;
    while (queue.length && closing === undefined) {
      const at = queue.shift() as string;
      for (const { to } of edges.get(at) ?? []) {
        if (to === first) {
          closing = at;
          break;
        }
        if (members.has(to) && !parent.has(to)) {
          parent.set(to, at);
          queue.push(to);
        }
      }
    }
    const path = [first];
    for (let at = closing as string; at !== first; at = parent.get(at) as string) path.splice(1, 0, at);
    path.push(first);
    const line = (edges.get(first) ?? []).find((e) => e.to === path[1])?.line ?? 1;
    violations.push({
      file: first,
      line,
      message: `import cycle in src/core (types included): ${path.join(' → ')}; the shared part belongs in a room both import, or one side takes what it needs structurally`,
    });
  }
  return violations;
}

/** Reads src/ and dev/sandbox/ under root. */
export function readTree(root: string): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (dir: string): void => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(path);
      } else if (entry.isFile() && CHECKED.test(entry.name)) {
        sources.set(relative(root, path).split(sep).join('/'), readFileSync(path, 'utf8'));
      }
    }
  };
  walk(join(root, 'src'));
  walk(join(root, 'dev', 'sandbox'));
  return sources;
}

export function formatViolation(v: Violation): string {
  return `${v.file}:${v.line}: ${v.message}`;
}

function main(): void {
  const root = resolve(process.argv[2] ?? '.');
  const sources = readTree(root);
  const violations = checkLayers(sources);
  for (const v of violations) console.log(formatViolation(v));
  if (violations.length > 0) {
    console.log(`layers: ${violations.length} violation(s) in ${new Set(violations.map((v) => v.file)).size} file(s)`);
    process.exitCode = 1;
  } else {
    console.log(`layers: ok (${sources.size} files)`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
