/**
 * What the owner's agenda keeps of a document's hourly reports checked today,
 * and when a later hour must open the document rather than settle it.
 */
import { describe, expect, it } from 'vitest';
import { AgendaStore } from '../../../src/core/hourly/agenda';
import type { StoredWork } from '../../../src/core/hourly/dispatch';
import { mustOpen, nextAfterQuiet, type QuietRecord, quietRecord, quietSeen, sameQuiet } from '../../../src/core/hourly/quiet-check';
import { dayOf, digestOf, recordsDigest, termsOf } from '../../../src/core/hourly/quiet-mark';
import { PART_BYTES, QUIET_BYTES, QUIET_PARTS } from '../../../src/core/hourly/agenda';
import type { Report } from '../../../src/core/reports/reports';
import { MemoryStore } from '../bulk/fixtures';
import { zone } from '../fake-service';
import { HOUR, T0 } from '../runs/run-world';

// T0 is 12:00 in São Paulo on 22/11/2026.
const TODAY = '2026-11-22';

function report(over: Partial<Report> = {}): Report {
  const base: Report = {
    id: 'r1',
    name: 'Clientes',
    listing: 'clientes',
    connection: 'Escritório',
    connectionId: 'c1',
    filters: {},
    sheetName: 'Clientes',
    sheetId: 7,
    incremental: false,
    schedule: { kind: 'hourly' },
    notifyByEmail: false,
    createdAt: T0 - 10 * HOUR,
    lastRun: { startedAt: T0, finishedAt: T0, origin: 'agendado', rows: 12, durationMs: 1, result: 'ok', incremental: false },
    ...over,
  };
  return { lastWalk: { base: 1, pages: 1, quiet: { day: TODAY, terms: termsOf(base), filters: { ativo: true }, records: 'abc' } }, ...base, ...over };
}

const work = (...reports: Report[]): StoredWork => ({ reports, pulls: [], bulk: [] });

describe('the record of a document visited today', () => {
  it('keeps each hourly report checked today with what its check asked and found', () => {
    expect(quietRecord(work(report()), T0, zone)).toEqual({
      day: TODAY,
      zone: 'America/Sao_Paulo',
      othersAt: null,
      reports: [{ id: 'r1', connectionId: 'c1', listing: 'clientes', filters: { ativo: true }, walk: { base: 1, pages: 1 }, records: 'abc', hours: 1 }],
    });
    const every3 = report({ schedule: { kind: 'everyHours', hours: 3 } });
    expect(
      quietRecord(work({ ...every3, lastWalk: { base: 0, pages: 2, quiet: { ...every3.lastWalk!.quiet!, terms: termsOf(every3) } } }), T0, zone)?.reports[0],
    ).toMatchObject({ hours: 3, walk: { base: 0, pages: 2 } });
  });

  it('keeps none that a later hour could not settle', () => {
    const none = [
      report({ schedule: { kind: 'daily', hour: 9 } }),
      report({ schedule: null }),
      report({ lastWalk: { base: 1, pages: 1 } }),
      report({ lastWalk: undefined }),
      report({ connectionId: undefined }),
      report({ companies: { all: true, ids: [] } }),
      report({ incremental: true }),
      report({ pausedUntil: T0 + HOUR }),
      report({ lastRun: { startedAt: T0, finishedAt: T0, origin: 'agendado', rows: 0, durationMs: 1, result: 'erro', incremental: false } }),
      report({ lastRun: undefined }),
    ];
    for (const r of none) expect(quietRecord(work(r), T0, zone)).toBeUndefined();
    // Checked yesterday.
    expect(quietRecord(work(report()), T0 + 12 * HOUR, zone)).toBeUndefined();
    // Its terms changed since the check: another filter, another sheet.
    const checked = report();
    expect(quietRecord(work({ ...checked, filters: { ativo: 'false' } }), T0, zone)).toBeUndefined();
    expect(quietRecord(work({ ...checked, sheetId: 8 }), T0, zone)).toBeUndefined();
  });

  it("says when the document's other work is next due", () => {
    const daily = report({ id: 'd', schedule: { kind: 'daily', hour: 15 }, lastWalk: undefined });
    const record = quietRecord(work(report(), daily), T0, zone);
    expect(record?.reports.map((q) => q.id)).toEqual(['r1']);
    expect(record?.othersAt).toBe(T0 + 3 * HOUR);
  });
});

describe('a later hour', () => {
  const record: QuietRecord = quietRecord(work(report()), T0, zone)!;

  it('may settle the document the same day while nothing else is due', () => {
    expect(mustOpen(record, T0 + HOUR, zone, new Set(), false)).toBeNull();
    expect(mustOpen({ ...record, othersAt: T0 + 2 * HOUR }, T0 + HOUR, zone, new Set(), false)).toBeNull();
  });

  it('opens it on a new day, with other work due, a run asked, or the company paused', () => {
    expect(mustOpen(record, T0 + 12 * HOUR, zone, new Set(), false)).toBe('um novo dia');
    expect(mustOpen({ ...record, othersAt: T0 + HOUR }, T0 + HOUR, zone, new Set(), false)).toBe('outro trabalho devido');
    expect(mustOpen(record, T0 + HOUR, zone, new Set(), true)).toBe('atualização pedida na Central');
    expect(mustOpen(record, T0 + HOUR, zone, new Set(['c1']), false)).toBe('empresa pausada');
    expect(mustOpen(record, T0 + HOUR, zone, new Set(['c2']), false)).toBeNull();
    // One company of two paused is enough.
    const two = { ...record, reports: [record.reports[0], { ...record.reports[0], id: 'r2', connectionId: 'c2' }] };
    expect(mustOpen(two, T0 + HOUR, zone, new Set(['c2']), false)).toBe('empresa pausada');
  });

  it('leaves the document due at the next hour, or sooner when other work is', () => {
    expect(nextAfterQuiet(record, T0 + HOUR + 7 * 60_000, zone)).toBe(T0 + 2 * HOUR);
    expect(nextAfterQuiet({ ...record, othersAt: T0 + HOUR + 30 * 60_000 }, T0 + HOUR + 7 * 60_000, zone)).toBe(T0 + HOUR + 30 * 60_000);
    const every3 = { ...record, reports: [{ ...record.reports[0], hours: 3 }] };
    expect(nextAfterQuiet(every3, T0 + HOUR + 7 * 60_000, zone)).toBe(T0 + 4 * HOUR);
  });

  it("shows the owner the last check only when it is later than the card's, for a report it holds", () => {
    const entry = { at: T0 + 2 * HOUR, quiet: { ...record, checkedAt: T0 + HOUR } };
    expect(quietSeen(entry, 'r1', T0, zone)).toEqual({ checkedAt: T0 + HOUR, next: T0 + 2 * HOUR });
    expect(quietSeen(entry, 'r1', T0 + HOUR, zone)).toBeNull();
    expect(quietSeen(entry, 'r2', T0, zone)).toBeNull();
    expect(quietSeen({ quiet: record }, 'r1', T0, zone)).toBeNull();
    expect(quietSeen(undefined, 'r1', T0, zone)).toBeNull();
    expect(quietSeen({}, 'r1', T0, zone)).toBeNull();
    // Each report's own schedule: every three hours from the check.
    const every3 = { ...entry, quiet: { ...entry.quiet, reports: [{ ...record.reports[0], hours: 3 }] } };
    expect(quietSeen(every3, 'r1', T0, zone)?.next).toBe(T0 + 4 * HOUR);
  });
});

describe('the agenda', () => {
  it('keeps the record with its entry, settles it, and drops it when the entry is written again without one', () => {
    const agenda = new AgendaStore(new MemoryStore());
    const record = quietRecord(work(report()), T0, zone)!;
    agenda.set('a', T0 + HOUR, record);
    agenda.set('b', T0 + HOUR);
    expect(agenda.read()).toEqual({ a: { at: T0 + HOUR, quiet: record }, b: { at: T0 + HOUR } });
    agenda.settled('a', T0 + 2 * HOUR, T0 + HOUR + 60_000, record);
    agenda.settled('b', T0 + 2 * HOUR, T0 + HOUR + 60_000, record);
    expect(agenda.read()).toEqual({ a: { at: T0 + 2 * HOUR, quiet: { ...record, checkedAt: T0 + HOUR + 60_000 } }, b: { at: T0 + HOUR } });
    agenda.reached('a');
    expect(agenda.read()?.a.quiet?.checkedAt).toBe(T0 + HOUR + 60_000);
    agenda.set('a', T0 + 3 * HOUR);
    expect(agenda.read()).toEqual({ a: { at: T0 + 3 * HOUR }, b: { at: T0 + HOUR } });
  });
});

describe('the agenda, short of room', () => {
  it('opens a part for a quiet record within the first half of the agenda, and past it leaves the record out, never the schedule', () => {
    const store = new MemoryStore();
    const agenda = new AgendaStore(store);
    const record = quietRecord(work(report()), T0, zone)!;
    const parts = () => store.keys().filter((k) => k.startsWith('faturamento.agenda')).length;
    // A first part with less room than the record takes, more than a plain entry.
    let n = 0;
    const fill = (until: () => boolean) => {
      while (!until()) agenda.set(`d${String(n++).padStart(40, '0')}`, T0);
    };
    fill(() => (store.get('faturamento.agenda') ?? '').length >= PART_BYTES - 150);
    expect(JSON.stringify({ at: T0, quiet: record }).length).toBeGreaterThan(150);
    agenda.set('quiet-one', T0 + HOUR, record);
    expect(agenda.read()?.['quiet-one']).toEqual({ at: T0 + HOUR, quiet: record });
    expect(parts()).toBe(2);
    // The first QUIET_PARTS parts full: the record is left out, the schedule kept.
    fill(() => parts() === QUIET_PARTS && (store.get(`faturamento.agenda.${QUIET_PARTS - 1}`) ?? '').length >= PART_BYTES - 150);
    agenda.set('quiet-two', T0 + HOUR, record);
    expect(agenda.read()?.['quiet-two']).toEqual({ at: T0 + HOUR });
    // No part opened for it: the plain entry took the room the record could not.
    expect(parts()).toBe(QUIET_PARTS);
    expect(Object.keys(agenda.read() ?? {})).toHaveLength(n + 2);
    const big = { ...record, reports: Array.from({ length: 16 }, (_, i) => ({ ...record.reports[0], id: `r${i}` })) };
    expect(JSON.stringify(big).length).toBeGreaterThan(QUIET_BYTES);
    const roomy = new AgendaStore(new MemoryStore());
    roomy.set('a', T0 + HOUR, big);
    expect(roomy.read()).toEqual({ a: { at: T0 + HOUR } });
    roomy.set('a', T0 + HOUR, record);
    expect(roomy.read()).toEqual({ a: { at: T0 + HOUR, quiet: record } });
  });

  it('settles only the record it checked: an entry written again meanwhile is left as it is', () => {
    const agenda = new AgendaStore(new MemoryStore());
    const record = quietRecord(work(report()), T0, zone)!;
    const rewritten = { ...record, othersAt: T0 + HOUR };
    agenda.set('a', T0, rewritten);
    agenda.settled('a', T0 + 2 * HOUR, T0 + HOUR, record);
    expect(agenda.read()).toEqual({ a: { at: T0, quiet: rewritten } });
    // The same record, checked before: settled, whatever its last check.
    agenda.set('a', T0, { ...record, checkedAt: T0 - HOUR });
    agenda.settled('a', T0 + 2 * HOUR, T0 + HOUR, record);
    expect(agenda.read()).toEqual({ a: { at: T0 + 2 * HOUR, quiet: { ...record, checkedAt: T0 + HOUR } } });
    expect(sameQuiet(record, { ...record, checkedAt: 1 })).toBe(true);
    expect(sameQuiet(record, rewritten)).toBe(false);
  });
});

describe('the marks', () => {
  it('digest the records by id: the same records in another order are the same listing', () => {
    const a = { idCliente: 1, nome: 'Ana' };
    const b = { idCliente: 2, nome: 'Bia' };
    const pages = (...records: object[]) => ({ listing: 'clientes' as const, pages: [{ records }] as never });
    expect(recordsDigest(pages(a, b))).toBe(recordsDigest(pages(b, a)));
    expect(recordsDigest(pages(a, b))).not.toBe(recordsDigest(pages(a, { ...b, nome: 'Bea' })));
    expect(recordsDigest(pages(a, b))).not.toBe(recordsDigest(pages(a)));
    expect(recordsDigest(pages(a, b))).not.toBe(recordsDigest(pages(a, b, { idCliente: 3, nome: 'Caio' })));
  });

  it('digests as cyrb53 does, the same in every execution and version: the agenda keeps digests from one day to the next', () => {
    // cyrb53("a") with seed 0 is 7929297801672961, as its author publishes it.
    expect(digestOf('a')).toBe((7929297801672961).toString(36));
    expect(digestOf('')).toBe('wvjl67o803');
    expect(digestOf('[{"idCliente":1}]')).toBe('y64ev7gf9m');
  });

  it('digests texts apart, and the same text alike', () => {
    expect(digestOf('[{"id":1}]')).toBe(digestOf('[{"id":1}]'));
    expect(digestOf('[{"id":1}]')).not.toBe(digestOf('[{"id":2}]'));
    expect(digestOf('')).not.toBe(digestOf(' '));
    expect(digestOf('ab')).not.toBe(digestOf('ba'));
  });

  it("tells the day in the document's zone", () => {
    // 02:30 UTC on the 23rd is still the 22nd in São Paulo.
    expect(dayOf(Date.UTC(2026, 10, 23, 2, 30), zone)).toBe('2026-11-22');
    expect(dayOf(Date.UTC(2026, 10, 23, 3, 0), zone)).toBe('2026-11-23');
    expect(dayOf(Date.UTC(2026, 0, 5, 15), zone)).toBe('2026-01-05');
  });

  it('changes the terms with anything the report asks or where it writes, not with its runs', () => {
    const r = report();
    const same = termsOf(r);
    expect(termsOf({ ...r, lastRun: undefined, name: 'Outro nome', scheduleSince: T0 })).toBe(same);
    // Card data not asked for, whether saved as false or never saved.
    expect(termsOf({ ...r, cardData: false })).toBe(same);
    for (const changed of [
      { listing: 'faturas' as const },
      { connectionId: 'c2' },
      { companies: { all: false, ids: ['c1'] } },
      { filters: { nome: 'x' } },
      { sheetFilters: [{ field: 'estado', op: 'igual' as const, values: ['SP'] }] },
      { cardData: true },
      { sheetId: 9 },
      { incremental: true },
      { schedule: { kind: 'everyHours' as const, hours: 2 } },
    ])
      expect(termsOf({ ...r, ...changed })).not.toBe(same);
  });
});
