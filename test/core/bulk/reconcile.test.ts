/**
 * Settling an unknown outcome: the record is looked up by the row's identity
 * (exact match only, one wave for the batch), and an update counts as done
 * only when what the service holds is what was sent.
 */
import { describe, expect, it } from 'vitest';
import { bulkOperation } from '../../../src/core/bulk/definitions';
import { holdsUpdate, lookupMany } from '../../../src/core/bulk/reconcile';
import { json, listOf, scripted } from './scripted';

const nota = (idFatura: number, id: number) => ({ idNotaFiscalServico: id, idFatura, numeroNotaFiscalServico: '12', statusNotaFiscalServico: 'AUTORIZADA' });
const assinatura = (id: number, idIntegracao: string, extra: Record<string, unknown> = {}) => ({
  idAssinaturaContrato: id,
  idIntegracao,
  descricaoAssinaturaContrato: 'Honorários',
  valorUnitario: 100,
  ...extra,
});

describe('lookupMany', () => {
  it('finds the note of each invoice in one wave, and only the note of that invoice', () => {
    const { client, log, waves } = scripted((_req, url) => {
      const id = Number(url.searchParams.get('idFatura'));
      // The service ignored the filter for 11: the note it lists belongs to another invoice.
      return listOf(id === 10 ? [nota(10, 500)] : id === 11 ? [nota(99, 501)] : []);
    });
    const found = lookupMany(client, bulkOperation('emitirNfse'), [10, 11, 12]);
    expect(waves).toEqual([3]);
    expect(log.every((l) => l.startsWith('GET /v2/nfse?'))).toBe(true);
    expect(found[0]).toMatchObject({ ok: true, existing: { kind: 'note', record: { idNotaFiscalServico: 500 } } });
    expect(found[1]).toEqual({ ok: true, existing: null });
    expect(found[2]).toEqual({ ok: true, existing: null });
  });

  it('a creation is settled by its idIntegracao, an update by the id of its record', () => {
    const { client, log } = scripted((_req, url) =>
      url.searchParams.get('idIntegracao') === 'A-1' ? listOf([assinatura(7, 'A-1')]) : json(200, assinatura(8, 'B', { idAssinaturaContrato: 8 })),
    );
    const created = lookupMany(client, bulkOperation('criarAssinaturaPersonalizada'), ['A-1']);
    expect(created[0]).toMatchObject({ ok: true, existing: { kind: 'subscription', record: { idAssinaturaContrato: 7 } } });
    // The subscriptions listing may answer with a bare record.
    const updated = lookupMany(client, bulkOperation('atualizarAssinaturaPlano'), [8]);
    expect(updated[0]).toMatchObject({ ok: true, existing: { kind: 'subscription', record: { idAssinaturaContrato: 8 } } });
    expect(log[0]).toContain('idIntegracao=A-1');
    expect(log[1]).toContain('idAssinaturaContrato=8');
  });

  it('an answer out of the documented shape is that row failing, naming the request', () => {
    const { client } = scripted((_req, url) => (url.pathname === '/v2/nfse' ? json(200, [nota(10, 500)]) : json(200, 'nada')));
    const [bare] = lookupMany(client, bulkOperation('emitirNfse'), [10]);
    expect(bare.ok).toBe(false);
    expect(!bare.ok && bare.error.message).toContain('GET /v2/nfse');
    const [text] = lookupMany(client, bulkOperation('criarAssinaturaPlano'), ['P-1']);
    expect(!text.ok && text.error.message).toMatch(/GET \/v2\/assinaturascontratos.*GET \/v2\/assinaturascontratos/);
  });

  it('a lost lookup is that row failing; nothing to look up sends nothing', () => {
    const { client, waves } = scripted(() => ({ kind: 'network-error', message: 'connection reset' }));
    expect(lookupMany(client, bulkOperation('emitirNfse'), [])).toEqual([]);
    expect(waves).toEqual([]);
    const [lost] = lookupMany(client, bulkOperation('emitirNfse'), [10]);
    expect(lost.ok).toBe(false);
  });

  it('an operation that can simply be repeated has nothing to look up', () => {
    const { client } = scripted(() => listOf([]));
    const repeatable = { ...bulkOperation('atualizarAssinaturaPlano'), pathId: undefined, label: 'Repetível' };
    expect(() => lookupMany(client, repeatable, [1])).toThrow('Repetível: nada a conferir, a operação pode ser repetida');
  });
});

describe('holdsUpdate', () => {
  const update = bulkOperation('atualizarAssinaturaPersonalizada');
  const body = { valor: 150.5, descricaoAssinaturaContrato: 'Novo texto', isAtualizaDiscriminacaoNfse: true, discriminacaoNfse: 'Serviços' };
  const record = { idAssinaturaContrato: 5, valorUnitario: 150.5, descricaoAssinaturaContrato: 'Novo texto', discriminacaoNfse: 'Serviços' };

  it('holds an update whose every field the record now shows (money to the cent, text trimmed)', () => {
    expect(holdsUpdate(update, body, record)).toBe(true);
    expect(holdsUpdate(update, body, { ...record, valorUnitario: 150.504, descricaoAssinaturaContrato: ' Novo texto ' })).toBe(true);
  });

  it('does not hold it when a value differs, by a cent or by a word, or is missing', () => {
    expect(holdsUpdate(update, body, { ...record, valorUnitario: 150.51 })).toBe(false);
    expect(holdsUpdate(update, body, { ...record, valorUnitario: '150.5' })).toBe(false);
    expect(holdsUpdate(update, body, { ...record, descricaoAssinaturaContrato: 'Texto antigo' })).toBe(false);
    expect(holdsUpdate(update, body, { ...record, discriminacaoNfse: 'Outro' })).toBe(false);
    expect(holdsUpdate(update, body, { ...record, discriminacaoNfse: undefined })).toBe(false);
  });

  it('a text sent under a flag that is off is not compared; the flag itself is not in the record', () => {
    expect(holdsUpdate(update, { ...body, isAtualizaDiscriminacaoNfse: false, discriminacaoNfse: '' }, record)).toBe(true);
  });

  it('a field the body does not carry, or the path id, is not compared', () => {
    const { descricaoAssinaturaContrato: _, ...partial } = body;
    expect(holdsUpdate(update, { ...partial, idAssinaturaContrato: 999 }, { ...record, descricaoAssinaturaContrato: 'Outro' })).toBe(true);
  });

  it('a blank text sent matches a record that holds nothing', () => {
    expect(holdsUpdate(update, { descricaoAssinaturaContrato: null }, {})).toBe(true);
    expect(holdsUpdate(update, { descricaoAssinaturaContrato: '' }, { descricaoAssinaturaContrato: 'x' })).toBe(false);
    expect(holdsUpdate(update, { descricaoAssinaturaContrato: ' Novo texto  ' }, { descricaoAssinaturaContrato: 'Novo texto' })).toBe(true);
  });
});
