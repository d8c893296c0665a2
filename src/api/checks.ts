/**
 * The checks of what the service sends: a field's type, a text's format, a
 * record's documented fields, a list's items. The executions that decode a
 * listing (saving a connection, Relatórios, the hourly run) load no lazy
 * chunk, and every execution parses the whole script first, so these few
 * shapes are checked here; the forms' write checks keep their schema library
 * in the chunk that sends writes.
 *
 * Results and issues have the schema library's shape (`safeParse`, the first
 * issue with its path and the type it expected), so that a record refused
 * reads the same whichever of the two checked it.
 */
interface IssueAt {
  /** The keys and positions from the checked value down to the one at fault. */
  path: PropertyKey[];
  message: string;
}

export type Issue =
  /** `expected`: number, int, string, boolean, object, array. */
  (IssueAt & { code: 'invalid_type'; expected: string }) | (IssueAt & { code: 'invalid_format' | 'too_big' | 'too_small' });

export type Parsed<T> = { success: true; data: T } | { success: false; error: { issues: Issue[] } };

export interface Check<T = unknown> {
  safeParse(value: unknown): Parsed<T>;
  /** The first issue of `value`, found at `path`, or null. */
  issue(value: unknown, path: PropertyKey[]): Issue | null;
}

/** The schema library's own words for an issue that has no message of ours. */
const INVALID = 'Invalid input';

const wrongType = (expected: string, path: PropertyKey[]): Issue => ({ code: 'invalid_type', expected, path, message: INVALID });

function check<T>(issue: (value: unknown, path: PropertyKey[]) => Issue | null): Check<T> {
  return {
    issue,
    safeParse(value) {
      const found = issue(value, []);
      return found ? { success: false, error: { issues: [found] } } : { success: true, data: value as T };
    },
  };
}

// Number.isFinite takes no string for a number, unlike the global isFinite.
const isNumber = (value: unknown): value is number => Number.isFinite(value);

/** A finite number. */
export const number = check<number>((value, path) => (isNumber(value) ? null : wrongType('number', path)));

/** An integer a double holds exactly. */
export const int = check<number>((value, path) => {
  if (!isNumber(value)) return wrongType('number', path);
  if (!Number.isInteger(value)) return wrongType('int', path);
  if (value > Number.MAX_SAFE_INTEGER) return { code: 'too_big', path, message: INVALID };
  if (value < Number.MIN_SAFE_INTEGER) return { code: 'too_small', path, message: INVALID };
  return null;
});

export const string = check<string>((value, path) => (typeof value === 'string' ? null : wrongType('string', path)));

export const boolean = check<boolean>((value, path) => (typeof value === 'boolean' ? null : wrongType('boolean', path)));

export const unknown = check<unknown>(() => null);

/** A text `pattern` matches; `message` says which format it breaks. */
export function matching(pattern: RegExp, message: string): Check<string> {
  return check<string>((value, path) => {
    if (typeof value !== 'string') return wrongType('string', path);
    pattern.lastIndex = 0;
    return pattern.test(value) ? null : { code: 'invalid_format', path, message };
  });
}

export function nullable<T>(inner: Check<T>): Check<T | null> {
  return check<T | null>((value, path) => (value === null ? null : inner.issue(value, path)));
}

/** An object whose listed fields, when present, pass their checks; fields not listed are kept unchecked. */
export function record<T>(fields: Record<string, Check>): Check<T> {
  const entries = Object.entries(fields);
  return check<T>((value, path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return wrongType('object', path);
    for (const [name, field] of entries) {
      const v = (value as Record<string, unknown>)[name];
      const found = v === undefined ? null : field.issue(v, [...path, name]);
      if (found) return found;
    }
    return null;
  });
}

export function array<T>(item: Check<T>): Check<T[]> {
  return check<T[]>((value, path) => {
    if (!Array.isArray(value)) return wrongType('array', path);
    for (let i = 0; i < value.length; i++) {
      const found = item.issue(value[i], [...path, i]);
      if (found) return found;
    }
    return null;
  });
}
