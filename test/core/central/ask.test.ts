/** What the Central asks each service for a competência, and what its hourly check takes for a change. */
import { describe, expect, it } from 'vitest';
import { BillingClient } from '../../../src/api/client';
import { intlZone } from '../../../src/api/calendar';
import { listing } from '../../../src/api/operations';
import { changeAsk, changes, chargesWindow, chargesWindowText, marksOf, monthAsk } from '../../../src/core/central/ask';

const zone = intlZone('America/Sao_Paulo');
const client = new BillingClient({
  baseUrl: 'http://x',
  apiKey: 'k',
  transport: { fetch: () => ({ kind: 'network-error', message: '' }), fetchAll: () => [] },
  sleep: () => {},
  zone,
});
const query = (key: 'faturas' | 'nfse' | 'cobrancas', filters: Record<string, unknown>) => Object.fromEntries(client.listQuery(listing(key), filters as never));

describe('the month asked', () => {
  it('asks invoices and notes by competência, charges by a due-date window from the month’s first day to the end of the second month after', () => {
    const ask = monthAsk('11/2026');
    expect(query('faturas', ask.faturas)).toEqual({ competencia: '11/2026' });
    expect(query('nfse', ask.nfse)).toEqual({ competencia: '11/2026' });
    expect(query('cobrancas', ask.cobrancas)).toEqual({ vencimentoInicial: '01/11/2026', vencimentoFinal: '31/01/2027', isExibeCanceladas: 'true' });
    expect(chargesWindow('12/2027')).toEqual({ from: { year: 2027, month: 12, day: 1 }, to: { year: 2028, month: 2, day: 29 } });
    expect(chargesWindow('01/2026').to).toEqual({ year: 2026, month: 3, day: 31 });
    expect(chargesWindowText('10/2026')).toMatch(/^Cobranças: as de vencimento de 01\/10\/2026 a 31\/12\/2026 cuja competência é 10\/2026 \(/);
    expect(() => monthAsk('13/2026')).toThrow('competência inválida: 13/2026');
  });
});

describe('the hourly check', () => {
  const since = zone.instant({ year: 2026, month: 11, day: 22, hour: 14, minute: 3 }).getTime();

  it('asks what was updated since the last read, and the newest note of the competência first', () => {
    const ask = changeAsk('10/2026', { since, notes: 4, newestNote: 90 });
    expect(query('faturas', ask.faturas)).toEqual({ competencia: '10/2026', dataHoraAtualizacaoInicial: '22/11/2026 14:03' });
    expect(query('cobrancas', ask.cobrancas)).toEqual({
      vencimentoInicial: '01/10/2026',
      vencimentoFinal: '31/12/2026',
      isExibeCanceladas: 'true',
      dataHoraAtualizacaoInicial: '22/11/2026 14:03',
    });
    expect(query('nfse', ask.nfse)).toEqual({ competencia: '10/2026', sortField: 'idNotaFiscalServico', sortOrder: 'desc' });
  });

  it('keeps from a full read the newest note and how many there were', () => {
    expect(marksOf(since, [{ idNotaFiscalServico: 7 }, { idNotaFiscalServico: 90 }, { idNotaFiscalServico: 12 }])).toEqual({ since, newestNote: 90, notes: 3 });
    expect(marksOf(since, [])).toEqual({ since, notes: 0 });
    expect(marksOf(since, [{ idNotaFiscalServico: 'x' }])).toEqual({ since, notes: 1 });
    expect(marksOf(since, [{ idNotaFiscalServico: 'x' }, { idNotaFiscalServico: 7 }])).toEqual({ since, newestNote: 7, notes: 2 });
  });

  it('takes for a change an update since, a new newest note or another count of notes; nothing else', () => {
    const marks = { since, newestNote: 90, notes: 4 };
    expect(changes(marks, { faturas: 0, cobrancas: 0, newestNote: 90, notesTotal: 4 })).toEqual([]);
    expect(changes(marks, { faturas: 0, cobrancas: 0, newestNote: 90 })).toEqual([]);
    expect(changes(marks, { faturas: 1, cobrancas: 0, newestNote: 90, notesTotal: 4 })).toEqual(['faturas atualizadas']);
    expect(changes(marks, { faturas: 0, cobrancas: 2, newestNote: 90, notesTotal: 4 })).toEqual(['cobranças atualizadas']);
    expect(changes(marks, { faturas: 0, cobrancas: 0, newestNote: 91, notesTotal: 4 })).toEqual(['NFS-e novas']);
    expect(changes(marks, { faturas: 0, cobrancas: 0, newestNote: 90, notesTotal: 3 })).toEqual(['NFS-e novas']);
    expect(changes({ since, notes: 0 }, { faturas: 0, cobrancas: 0, notesTotal: 0 })).toEqual([]);
  });
});
