/**
 * One definition per field gives its schema, its column kind and its note: a
 * field said to be nullable accepts null and no other does, each kind refuses
 * what the spec's type excludes (with a Portuguese reason), and each kind lands
 * in the sheet as its own cell kind.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Field, FieldMap } from '../../src/api/fields';

type Fields = typeof import('../../src/api/fields');
let f: Fields['f'];
let recordSchema: Fields['recordSchema'];
let records: typeof import('../../src/api/records');
// Schemas are built on first use and kept for the module's life: each test loads the modules anew to judge how they are built.
beforeEach(async () => {
  vi.resetModules();
  ({ f, recordSchema } = await import('../../src/api/fields'));
  records = await import('../../src/api/records');
});

/** Every field of every record, nested ones included, with its path. */
function allFields(): Array<[string, Field]> {
  const out: Array<[string, Field]> = [];
  const walk = (prefix: string, map: FieldMap) => {
    for (const [name, field] of Object.entries(map)) {
      out.push([`${prefix}.${name}`, field]);
      if (field.type === 'object') walk(`${prefix}.${name}`, field.fields);
      if (field.type === 'array' && field.item) walk(`${prefix}.${name}[]`, field.item);
    }
  };
  for (const [name, build] of Object.entries(records)) walk(name, build());
  return out;
}

const accepts = (field: Field, value: unknown) => field.schema.safeParse(value).success;
const reason = (field: Field, value: unknown) => {
  const parsed = field.schema.safeParse(value);
  return parsed.success ? null : parsed.error.issues[0].message;
};

describe('fields', () => {
  it('a field accepts null exactly when it says it is nullable', () => {
    const fields = allFields();
    expect(fields.length).toBeGreaterThan(150);
    for (const [path, field] of fields) expect(accepts(field, null), path).toBe(field.nullable);
    expect(fields.filter(([, field]) => field.nullable).length).toBeGreaterThan(20);
  });

  it('each scalar kind refuses what its type excludes', () => {
    const cases: Array<[Field, unknown[], unknown[]]> = [
      [f.integer('I'), [0, -3, 12], [1.5, '1', null, true]],
      [f.number('N'), [1.25, -2], ['1', null]],
      [f.percent('P'), [5.5], ['5%']],
      [f.money('M'), [150.5, 0, -10], ['150,50', 'R$ 10', null]],
      [f.code('C'), ['00123'], [123, null]],
      [f.text('T'), ['Padaria'], [1, null]],
      [f.enumeration('E'), ['QUALQUER'], [1]],
      [f.boolean('B'), [true, false], ['true', 1, null]],
      [f.flag({ 0: false, 2: true })('F'), [0, 2, 7], [1.5, true, '2']],
      [f.date('D'), ['2026-10-01'], ['01/10/2026', '2026-10-01T00:00:00', 20261001]],
      [f.datetime('DT'), ['2026-10-01T08:30:00', '2026-10-01T08:30'], ['2026-10-01 08:30:00', '2026-10-01']],
      [f.competencia('MC'), ['10/2026'], ['2026-10', '13/2026']],
      [f.time('H'), ['08:30', '08:30:15'], ['8h30', '0830']],
    ];
    for (const [field, good, bad] of cases) {
      for (const v of good) expect(accepts(field, v), `${field.label} ${String(v)}`).toBe(true);
      for (const v of bad) expect(accepts(field, v), `${field.label} ${String(v)}`).toBe(false);
      expect(accepts(field.type === 'scalar' ? (field as ReturnType<typeof f.text>).orNull() : field, null)).toBe(true);
    }
  });

  it('says in Portuguese which format a text field breaks', () => {
    expect(reason(f.date('D'), '01/10/2026')).toBe('data fora do formato AAAA-MM-DD');
    expect(reason(f.datetime('DT'), '2026-10-01')).toBe('data e hora fora do formato AAAA-MM-DDTHH:MM:SS');
    expect(reason(f.competencia('C'), '2026-10')).toBe('competência fora do formato MM/AAAA');
    expect(reason(f.time('H'), '8h')).toBe('hora fora do formato HH:MM');
  });

  it('each kind is its own kind of cell, and a note or codes go with the column', () => {
    const cells = (Object.keys(f) as Array<keyof typeof f>).filter((k) => k !== 'object' && k !== 'array' && k !== 'flag');
    expect(Object.fromEntries(cells.map((k) => [k, (f[k] as (l: string) => { cell: string })('x').cell]))).toEqual({
      integer: 'integer',
      number: 'number',
      percent: 'percent',
      money: 'money',
      code: 'text',
      text: 'text',
      enumeration: 'text',
      boolean: 'boolean',
      date: 'date',
      datetime: 'datetime',
      competencia: 'text',
      time: 'text',
    });
    const flag = f.flag({ 0: false, 2: true })('ISS retido', 'Sim = retido');
    expect(flag).toMatchObject({ type: 'scalar', label: 'ISS retido', cell: 'boolean', nullable: false, note: 'Sim = retido', codes: { 0: false, 2: true } });
    expect(flag.orNull()).toMatchObject({ label: 'ISS retido', cell: 'boolean', nullable: true, note: 'Sim = retido', codes: { 0: false, 2: true } });
    expect('note' in f.text('Sem nota')).toBe(false);
    expect('codes' in f.text('Sem códigos')).toBe(false);
    expect(f.text('Com nota', 'explica').orNull()).toMatchObject({ note: 'explica', nullable: true, type: 'scalar' });
  });

  it('objects and arrays check their items, and accept null only in their "or null" form', () => {
    const item = { id: f.integer('ID'), nome: f.text('Nome') };
    const object = f.object('Objeto', item, { onRequest: 'cartao' });
    expect(object).toMatchObject({ type: 'object', label: 'Objeto', nullable: false, onRequest: 'cartao', fields: item });
    expect(object.orNull()).toMatchObject({ type: 'object', label: 'Objeto', nullable: true, onRequest: 'cartao', fields: item });
    expect(accepts(object, { id: 1, nome: 'a', extra: true })).toBe(true);
    expect(accepts(object, {})).toBe(true);
    expect(accepts(object, { id: 'x' })).toBe(false);
    expect(accepts(object, null)).toBe(false);
    expect(accepts(object.orNull(), null)).toBe(true);
    expect(accepts(object.orNull(), { id: 'x' })).toBe(false);

    const list = f.array('Lista', item);
    expect(list).toMatchObject({ type: 'array', label: 'Lista', nullable: false, item });
    expect(list.orNull()).toMatchObject({ type: 'array', label: 'Lista', nullable: true, item });
    expect(accepts(list, [{ id: 1 }])).toBe(true);
    expect(accepts(list, [{ id: 1.5 }])).toBe(false);
    expect(accepts(list, null)).toBe(false);
    expect(accepts(list.orNull(), [{ id: 'x' }])).toBe(false);
    const open = f.array('Aberta');
    expect(open.item).toBeUndefined();
    expect(accepts(open, [1, 'a', { x: 1 }])).toBe(true);
    expect(accepts(open, 'a')).toBe(false);
  });

  it('a record keeps fields it does not know and lets documented ones be absent', () => {
    const schema = recordSchema({ id: f.integer('ID'), nome: f.text('Nome') });
    expect(schema.safeParse({ outro: 1 })).toEqual({ success: true, data: { outro: 1 } });
    expect(schema.safeParse({ id: 1, nome: 2 }).success).toBe(false);
    expect(schema.safeParse([]).success).toBe(false);
  });
});
