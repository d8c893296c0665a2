/** The spreadsheet's zone: Sheets' own formatting decides, Intl answers only where it agrees with it. */
import { afterEach, describe, expect, it } from 'vitest';
import { gasZone } from '../../src/gas/zone';

const pad = (n: number) => String(n).padStart(2, '0');

/** Utilities.formatDate as a zone `offsetHours` from UTC all year, counting its calls. */
function sheetsFormatting(offsetHours: number): { calls: () => number } {
  let calls = 0;
  (globalThis as Record<string, unknown>).Utilities = {
    formatDate(instant: Date, _tz: string, _pattern: string) {
      calls++;
      const d = new Date(instant.getTime() + offsetHours * 3_600_000);
      return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
    },
  };
  return { calls: () => calls };
}

afterEach(() => {
  delete (globalThis as Record<string, unknown>).Utilities;
});

const hours = Array.from({ length: 40 }, (_, i) => new Date(Date.UTC(2026, 2, 1) + i * 7 * 3_600_000));

describe('gasZone', () => {
  it('reads Intl once Sheets agreed with it at two probes: two service calls, however many dates', () => {
    const sheets = sheetsFormatting(-3);
    const zone = gasZone('America/Sao_Paulo');
    expect(hours.map((h) => zone.wall(h).hour)).toEqual(hours.map((h) => (h.getUTCHours() + 21) % 24));
    expect(sheets.calls()).toBe(2);
  });

  it('follows Sheets where Intl reads otherwise, at a call per hour of time', () => {
    // Sheets says UTC-2 all year where Intl says UTC-3: Sheets is what the spreadsheet shows.
    const sheets = sheetsFormatting(-2);
    const zone = gasZone('America/Bahia');
    expect(hours.map((h) => zone.wall(h).hour)).toEqual(hours.map((h) => (h.getUTCHours() + 22) % 24));
    // The first probe disagreed, then one call per hour read.
    expect(sheets.calls()).toBe(1 + hours.length);
  });
});
