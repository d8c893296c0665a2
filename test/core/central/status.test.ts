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

  it('never reads as clean a month whose only records are notes, charges or invoices out of the totals', () => {
    const none = { invoices: zero, notesIssued: zero };
    expect(statusOf({ figures: figures({ ...none, held: { faturas: 0, nfse: 2, cobrancas: 1 } }) })).toEqual({
      state: 'pendencias',
      text: 'Pendências: nenhuma fatura válida da competência, mas há 2 NFS-e, 1 cobrança',
    });
    expect(statusOf({ figures: figures({ ...none, held: { faturas: 3, nfse: 0, cobrancas: 0 } }) }).text).toBe(
      'Pendências: nenhuma fatura válida da competência, mas há 3 faturas canceladas ou fora dos totais',
    );
    expect(statusOf({ figures: figures({ ...none, held: { faturas: 1, nfse: 1, cobrancas: 2 } }) }).text).toBe(
      'Pendências: nenhuma fatura válida da competência, mas há 1 fatura cancelada ou fora dos totais, 1 NFS-e, 2 cobranças',
    );
    // With valid invoices, what the listings held besides does not make a pendência.
    expect(statusOf({ figures: figures({ held: { faturas: 6, nfse: 4, cobrancas: 4 } }) }).state).toBe('sem-pendencias');
    // Figures kept by an earlier version, without the count of what each listing held, read as before.
    expect(statusOf({ figures: figures({ ...none }) }).state).toBe('sem-pendencias');
  });

  it('says the failure first, whatever figures an earlier read left', () => {
    expect(statusOf({ figures: figures(), failure: { message: 'A chave foi recusada (401).' } })).toEqual({
      state: 'falha',
      text: 'Falha na conexão: A chave foi recusada (401).',
    });
    expect(statusOf({})).toEqual({ state: 'nao-atualizada', text: 'Ainda não atualizada' });
    // The service answered, but a listing came back short of its pages: not the connection's failure.
    expect(statusOf({ figures: figures(), failure: { message: 'faturas: a página 3 não veio', incomplete: true } })).toEqual({
      state: 'falha',
      text: 'Leitura incompleta, sem números: faturas: a página 3 não veio',
    });
  });
});
