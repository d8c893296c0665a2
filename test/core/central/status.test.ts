/** A company's status in an accountant's words, from its month and its last failure. */
import { describe, expect, it } from 'vitest';
import { statusOf } from '../../../src/core/central/status';
import { figures, zero } from './figures';

describe('the status of a company', () => {
  it('is "Sem pendências" for a month with movement and nothing to do', () => {
    expect(statusOf({ figures: figures({ chargesOpen: { count: 2, cents: 100 } }) })).toEqual({ state: 'sem-pendencias', text: 'Sem pendências' });
  });

  it('names each pendência with its count, the notes to issue apart from the other divergences', () => {
    const f = figures({ notesMissing: { count: 3, cents: 300 }, chargesOverdue: { count: 2, cents: 200 }, divergences: 4 });
    expect(statusOf({ figures: f })).toEqual({ state: 'pendencias', text: 'Pendências: 3 notas a emitir, 2 cobranças vencidas, 1 divergência' });
    expect(statusOf({ figures: figures({ notesMissing: { count: 1, cents: 1 }, divergences: 1 }) }).text).toBe('Pendências: 1 nota a emitir');
    expect(statusOf({ figures: figures({ chargesOverdue: { count: 1, cents: 1 } }) }).text).toBe('Pendências: 1 cobrança vencida');
    expect(statusOf({ figures: figures({ divergences: 2 }) }).text).toBe('Pendências: 2 divergências');
  });

  it('never reads a month without movement as a clean one', () => {
    expect(statusOf({ figures: figures({ empty: true, invoices: zero, notesIssued: zero }) })).toEqual({
      state: 'sem-movimento',
      text: 'Sem movimento: nenhuma fatura, NFS-e ou cobrança da competência',
    });
  });

  it('says the failure first, whatever figures an earlier read left', () => {
    expect(statusOf({ figures: figures(), failure: { message: 'A chave foi recusada (401).' } })).toEqual({
      state: 'falha',
      text: 'Falha na conexão: A chave foi recusada (401).',
    });
    expect(statusOf({})).toEqual({ state: 'nao-atualizada', text: 'Ainda não atualizada' });
  });
});
