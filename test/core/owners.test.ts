/**
 * Who may run what in a shared document: each editor's identity and ledger in
 * their own properties, and a trigger that runs only what its user vouched for,
 * as it was when they vouched.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BulkJob } from '../../src/core/bulk/state';
import { notYours, OwnerStore } from '../../src/core/owners';
import type { Report } from '../../src/core/reports';
import { MemoryStore } from '../bulk/fixtures';

const hmac = (text: string, secret: string) => createHmac('sha256', secret).update(text).digest('hex');

function owners(prefix = 'id', user = new MemoryStore()) {
  let n = 0;
  return { user, store: new OwnerStore(user, () => `${prefix}${++n}`, hmac) };
}

const DOC = 'doc-1';

function report(ownerId: string, extra: Partial<Report> = {}): Report {
  return {
    id: 'r1',
    name: 'Faturas',
    listing: 'faturas',
    connection: 'Escritório',
    connectionId: 'c1',
    owner: { id: ownerId, email: 'ana@exemplo.com' },
    filters: { competencia: '11/2026' },
    sheetName: 'Faturas',
    incremental: false,
    schedule: null,
    notifyByEmail: false,
    createdAt: 1,
    ...extra,
  } as Report;
}

function job(ownerId: string, extra: Partial<BulkJob> = {}): BulkJob {
  return { id: 'b1', operation: 'emitirNfse', sheetId: 7, connectionId: 'c1', owner: { id: ownerId, email: '' }, startedAt: 5, ...extra } as BulkJob;
}

describe('OwnerStore identity', () => {
  it('is created once per user, with a secret of its own, and kept', () => {
    const { user, store } = owners();
    const me = store.identity('ana@exemplo.com');
    expect(me).toEqual({ id: 'id1', secret: 'id2id3', email: 'ana@exemplo.com' });
    expect(store.identity('ana@exemplo.com')).toEqual(me);
    expect(JSON.parse(user.get('faturamento.usuario') ?? '')).toEqual(me);
  });

  it('follows a changed e-mail, and keeps the saved one when the e-mail is not known', () => {
    const { user, store } = owners();
    store.identity('ana@exemplo.com');
    expect(store.identity('')).toEqual({ id: 'id1', secret: 'id2id3', email: 'ana@exemplo.com' });
    expect(store.identity('ana@novo.com').email).toBe('ana@novo.com');
    expect(JSON.parse(user.get('faturamento.usuario') ?? '').email).toBe('ana@novo.com');
    user.frozen = true;
    expect(store.identity('ana@novo.com').email).toBe('ana@novo.com');
  });

  it('an identity saved without its secret or id is made anew', () => {
    for (const saved of [{ id: 'x', email: 'a' }, { secret: 's', email: 'a' }, 'não é json']) {
      const { user, store } = owners();
      user.set('faturamento.usuario', typeof saved === 'string' ? saved : JSON.stringify(saved));
      expect(store.identity('a')).toEqual({ id: 'id1', secret: 'id2id3', email: 'a' });
    }
  });
});

describe('OwnerStore ledger', () => {
  it('runs a report only for its owner, as they vouched for it', () => {
    const { store } = owners();
    const me = store.identity('ana@exemplo.com');
    const mine = report(me.id);
    expect(store.checker(me, DOC).report(mine)).toBe(false);
    store.vouchReport(me, DOC, mine);
    const check = store.checker(me, DOC);
    expect(check.me).toBe(me.id);
    expect(check.report(mine)).toBe(true);
    // Anything that decides what is pulled, with whose key and when, breaks the signature.
    for (const changed of [
      { filters: { competencia: '12/2026' } },
      { connectionId: 'c2' },
      { listing: 'cobrancas' as const },
      { incremental: true },
      { schedule: { every: 'day' } as unknown as Report['schedule'] },
      { notifyByEmail: true },
      { cardData: true },
      { companies: ['c1', 'c2'] as unknown as Report['companies'] },
      { id: 'r2' },
    ])
      expect(check.report({ ...mine, ...changed })).toBe(false);
    // The tab and the name are not part of the terms.
    expect(check.report({ ...mine, sheetName: 'Outra', sheetId: 9, name: 'Novo nome' })).toBe(true);
    expect(check.report({ ...mine, owner: { id: 'outro', email: 'ana@exemplo.com' } })).toBe(false);
    expect(check.report({ ...mine, owner: undefined })).toBe(false);
    expect(check.report({ ...mine, connectionId: '' })).toBe(false);
  });

  it('a report vouched for with card data or companies stays vouched for as it is', () => {
    const { store } = owners();
    const me = store.identity('a');
    const withCard = report(me.id, { cardData: true, companies: ['c1', 'c2'] as unknown as Report['companies'] });
    store.vouchReport(me, DOC, withCard);
    const check = store.checker(me, DOC);
    expect(check.report(withCard)).toBe(true);
    expect(check.report({ ...withCard, cardData: false })).toBe(false);
    expect(check.report({ ...withCard, companies: ['c1'] as unknown as Report['companies'] })).toBe(false);
  });

  it('another editor, or another secret, cannot pass for the owner', () => {
    const ana = owners();
    const me = ana.store.identity('ana');
    const mine = report(me.id);
    ana.store.vouchReport(me, DOC, mine);
    const bia = owners('bia');
    const other = bia.store.identity('bia');
    bia.store.vouchReport(other, DOC, mine);
    expect(bia.store.checker(other, DOC).report(mine)).toBe(false);
    expect(ana.store.checker({ ...me, secret: 'adivinhado' }, DOC).report(mine)).toBe(false);
    expect(ana.store.checker(me, 'doc-2').report(mine)).toBe(false);
  });

  it('runs a bulk job only for its owner, as started', () => {
    const { store } = owners();
    const me = store.identity('a');
    const mine = job(me.id);
    store.vouchBulk(me, DOC, mine);
    const check = store.checker(me, DOC);
    expect(check.bulk(mine)).toBe(true);
    for (const changed of [{ operation: 'criarAssinaturaPlano' as const }, { sheetId: 8 }, { startedAt: 6 }, { connectionId: 'c2' }, { id: 'b2' }])
      expect(check.bulk({ ...mine, ...changed })).toBe(false);
    expect(check.bulk({ ...mine, owner: { id: 'outro', email: '' } })).toBe(false);
    expect(check.bulk({ ...mine, owner: undefined })).toBe(false);
    expect(check.bulk({ ...mine, connectionId: undefined })).toBe(false);
    expect(check.report(report(me.id, { id: 'b1' }))).toBe(false);
  });

  it('lists the documents where the user owns something, and forgets items one by one', () => {
    const { user, store } = owners();
    const me = store.identity('a');
    expect(store.documents()).toEqual([]);
    store.vouchReport(me, DOC, report(me.id));
    store.vouchBulk(me, DOC, job(me.id));
    store.vouchBulk(me, 'doc-2', job(me.id));
    expect(store.documents().sort()).toEqual([DOC, 'doc-2']);
    expect(Object.keys(store.ledger(DOC).reports)).toEqual(['r1']);
    expect(Object.keys(store.ledger(DOC).bulk)).toEqual(['b1']);

    store.forget(DOC, { reports: ['r1'] });
    expect(store.ledger(DOC)).toEqual({ reports: {}, bulk: { b1: expect.any(String) } });
    expect(store.checker(me, DOC).bulk(job(me.id))).toBe(true);
    store.forget(DOC, { bulk: ['b1'] });
    expect(store.documents()).toEqual(['doc-2']);
    expect(user.get('faturamento.meus.doc-1')).toBeNull();
    expect(store.ledger(DOC)).toEqual({ reports: {}, bulk: {} });

    // Forgetting what is not there writes nothing.
    user.frozen = true;
    store.forget('doc-2', { reports: ['b1'], bulk: ['zz'] });
    store.forget('doc-2', {});
    user.frozen = false;
    expect(store.documents()).toEqual(['doc-2']);
  });

  it('forgets items of both kinds in one call', () => {
    const { store } = owners();
    const me = store.identity('a');
    store.vouchReport(me, DOC, report(me.id));
    store.vouchReport(me, DOC, report(me.id, { id: 'r2' }));
    store.vouchBulk(me, DOC, job(me.id));
    store.forget(DOC, { reports: ['r1', 'nenhum'], bulk: ['nenhum'] });
    expect(Object.keys(store.ledger(DOC).reports)).toEqual(['r2']);
    store.forget(DOC, { reports: ['nenhum'], bulk: ['b1'] });
    expect(store.ledger(DOC).bulk).toEqual({});
    expect(store.documents()).toEqual([DOC]);
  });
});

describe('OwnerStore ledgers kept from earlier versions', () => {
  it('a report or bulk run vouched for before card data and companies existed stays vouched for', () => {
    const { user, store } = owners();
    const me = store.identity('a');
    const r = report(me.id);
    const j = job(me.id);
    // The terms as they were signed then: a kind tag, then what decides the run, nothing for absent card data or companies.
    const reportTerms = JSON.stringify(['r', r.id, me.id, r.connectionId, r.listing, r.filters, r.incremental, r.schedule, r.notifyByEmail]);
    const bulkTerms = JSON.stringify(['b', j.id, me.id, j.connectionId, j.operation, j.sheetId, j.startedAt]);
    user.set(`faturamento.meus.${DOC}`, JSON.stringify({ reports: { r1: hmac(reportTerms, me.secret) }, bulk: { b1: hmac(bulkTerms, me.secret) } }));
    const check = store.checker(me, DOC);
    expect(check.report(r)).toBe(true);
    expect(check.bulk(j)).toBe(true);
  });

  it('a report with card data vouched for as its terms were signed then stays vouched for', () => {
    const { user, store } = owners();
    const me = store.identity('a');
    const r = report(me.id, { cardData: true });
    // Card data joins the terms as one tag after the rest.
    const terms = JSON.stringify(['r', r.id, me.id, r.connectionId, r.listing, r.filters, r.incremental, r.schedule, r.notifyByEmail, 'cartao']);
    user.set(`faturamento.meus.${DOC}`, JSON.stringify({ reports: { r1: hmac(terms, me.secret) }, bulk: {} }));
    expect(store.checker(me, DOC).report(r)).toBe(true);
  });

  it("vouching for someone else's item, or one without a connection or an owner, makes it runnable by nobody", () => {
    const { store } = owners();
    const me = store.identity('a');
    const theirs = report('outro');
    const theirJob = job('outro');
    store.vouchReport(me, DOC, theirs);
    store.vouchBulk(me, DOC, theirJob);
    const unconnected = report(me.id, { id: 'r2', connectionId: undefined });
    const unconnectedJob = job(me.id, { id: 'b2', connectionId: '' });
    store.vouchReport(me, DOC, unconnected);
    store.vouchBulk(me, DOC, unconnectedJob);
    const ownerless = report(me.id, { id: 'r3', owner: undefined });
    const ownerlessJob = job(me.id, { id: 'b3', owner: undefined });
    store.vouchReport(me, DOC, ownerless);
    store.vouchBulk(me, DOC, ownerlessJob);
    const check = store.checker(me, DOC);
    for (const r of [theirs, unconnected, ownerless]) expect(check.report(r), r.id).toBe(false);
    for (const j of [theirJob, unconnectedJob, ownerlessJob]) expect(check.bulk(j), j.id).toBe(false);
  });
});

describe('notYours', () => {
  it("names the owner, or says the item predates owners, and points to 'Assumir'", () => {
    expect(notYours('O relatório "Faturas"', { id: 'x', email: 'ana@exemplo.com' })).toBe(
      'O relatório "Faturas" é de ana@exemplo.com: só quem o criou pode executá-lo, com a própria conexão. Para usá-lo com uma conexão sua, clique em "Assumir".',
    );
    expect(notYours('O lote', { id: 'x', email: '' })).toMatch(/^O lote é de outro editor: /);
    expect(notYours('O relatório "Faturas"', undefined)).toBe(
      'O relatório "Faturas" foi salvo antes de os relatórios terem dono e não é executado por ninguém. Clique em "Assumir" para escolher uma conexão sua.',
    );
  });
});
