/**
 * The checks of the records the service sends refuse exactly what the schema
 * library (zod, which the write checks use) refused before them, with the same
 * first issue: its code, its path, the type it expected and its message, which
 * the decoder turns into the Portuguese reason a user reads.
 */
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { array, boolean, type Check, int, matching, nullable, number, record, string, unknown } from '../../src/api/checks';

const VALUES: unknown[] = [
  0,
  -3,
  12,
  1.5,
  -0.25,
  2 ** 53,
  -(2 ** 53),
  1e20,
  -1e20,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  '1',
  '2026-10-01',
  '01/10/2026',
  '10/2026',
  true,
  false,
  null,
  undefined,
  [],
  [1, 'a'],
  {},
  { id: 1 },
];

const PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Each check beside the schema it stands for. */
const PAIRS: Array<[string, Check, z.ZodMiniType]> = [
  ['int', int, z.int()],
  ['number', number, z.number()],
  ['string', string, z.string()],
  ['boolean', boolean, z.boolean()],
  ['unknown', unknown, z.unknown()],
  ['matching', matching(PATTERN, 'data fora do formato'), z.string().check(z.regex(PATTERN, 'data fora do formato'))],
  ['nullable int', nullable(int), z.nullable(z.int())],
  ['nullable matching', nullable(matching(PATTERN, 'fmt')), z.nullable(z.string().check(z.regex(PATTERN, 'fmt')))],
  ['array of int', array(int), z.array(z.int())],
  ['array of unknown', array(unknown), z.array(z.unknown())],
];

/**
 * What the decoder reads of a result: whether it passed and, if not, its first issue. An issue
 * without a message of ours has zod's words, which depend on the locale a process has loaded; the
 * bundle loads none, and zod then says 'Invalid input', which is what the checks say.
 */
function outcome(result: { success: boolean; error?: { issues: readonly object[] } }) {
  if (result.success) return 'ok';
  const { code, path, expected, message } = (result.error?.issues[0] ?? {}) as { code?: string; path?: PropertyKey[]; expected?: string; message?: string };
  return { code, path, expected, message: code === 'invalid_format' ? message : 'Invalid input' };
}

/** The checks' own issue, message included. */
const issueOf = (check: Check, value: unknown) => {
  const result = check.safeParse(value);
  return result.success ? null : result.error.issues[0];
};

describe('the checks of decoded records', () => {
  it('each scalar, nullable and list check finds the first issue the schema library finds', () => {
    for (const [name, check, schema] of PAIRS)
      for (const value of VALUES) expect(outcome(check.safeParse(value)), `${name} ${String(value)}`).toEqual(outcome(schema.safeParse(value)));
  });

  it('a record checks its listed fields in order, lets them be absent and keeps the others, and names the path down to the fault', () => {
    const check = record({ id: int, nome: nullable(string), itens: array(record({ valor: number, data: matching(PATTERN, 'fmt') })) });
    const schema = z.looseObject({
      id: z.optional(z.int()),
      nome: z.optional(z.nullable(z.string())),
      itens: z.optional(z.array(z.looseObject({ valor: z.optional(z.number()), data: z.optional(z.string().check(z.regex(PATTERN, 'fmt'))) }))),
    });
    const records: unknown[] = [
      {},
      { outro: 'x' },
      { id: 1, nome: null, itens: [] },
      { id: 'x', nome: 5 },
      { nome: 5, id: 'x' },
      { id: 1.5 },
      { nome: undefined, id: undefined },
      { itens: [{ valor: 1 }, { valor: '2' }] },
      { itens: [{ valor: 1, data: '01/10/2026' }] },
      { itens: [{ data: 3 }, 4] },
      { itens: [null] },
      { itens: {} },
      [],
      null,
      'x',
      7,
    ];
    for (const value of records) expect(outcome(check.safeParse(value)), JSON.stringify(value)).toEqual(outcome(schema.safeParse(value)));
  });

  it('an issue without a message of ours says Invalid input, whatever its code', () => {
    expect(issueOf(int, 1.5)).toEqual({ code: 'invalid_type', expected: 'int', path: [], message: 'Invalid input' });
    expect(issueOf(int, 1e20)).toEqual({ code: 'too_big', path: [], message: 'Invalid input' });
    expect(issueOf(int, -1e20)).toEqual({ code: 'too_small', path: [], message: 'Invalid input' });
    expect(issueOf(record({ a: array(string) }), { a: ['x', 2] })).toEqual({
      code: 'invalid_type',
      expected: 'string',
      path: ['a', 1],
      message: 'Invalid input',
    });
  });

  it('a value that passes comes back as the data', () => {
    const value = { id: 1, outro: [1] };
    expect(record({ id: int }).safeParse(value)).toEqual({ success: true, data: value });
    expect(int.safeParse(3)).toEqual({ success: true, data: 3 });
  });

  it('a pattern that keeps its place between matches is tried from the start each time', () => {
    const check = matching(/^\d+$/g, 'só dígitos');
    for (let i = 0; i < 3; i++) expect(check.safeParse('123').success).toBe(true);
  });
});
