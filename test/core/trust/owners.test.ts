/**
 * Who may run what in a shared document: each editor's identity and ledger in
 * their own properties, and a trigger that runs only what its user vouched for,
 * as it was when they vouched.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BulkJob } from '../../../src/core/bulk/state';
import { bulkJobStore } from '../../../src/core/bulk/stored-job';
import { JobStore } from '../../../src/core/trust/job-store';
import { type Identity, notYours, OwnerStore } from '../../../src/core/trust/owners';
import { type Report, ReportStore } from '../../../src/core/reports/reports';
import { isSealed, SignedStore } from '../../../src/core/trust/seal';
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

/** The document's work store as one user's executions see it: every write signed with their seal. */
function docAs(store: OwnerStore, me: Identity, doc = new MemoryStore(), documentId = DOC) {
  const seal = store.seal(me, documentId);
  return { doc, seal, view: SignedStore.over(doc, seal) };
}

describe('OwnerStore seals', () => {
  it('runs a report only for its owner, read exactly as they saved it, whichever field changes', () => {
    const { store } = owners();
    const me = store.identity('ana@exemplo.com');
    const { doc, seal, view } = docAs(store, me);
    const reports = new ReportStore(view, () => 'x');
    reports.save(report(me.id));
    seal.commit();
    const check = store.checker(me, DOC);
    expect(check.me).toBe(me.id);
    expect(check.report(reports.get('r1'))).toBe(true);
    expect(check.altered(reports.get('r1'))).toBe(false);
    // A copy changed after the read is not what was read.
    expect(check.report({ ...reports.get('r1'), filters: {} })).toBe(false);
    const saved = doc.get('faturamento.relatorio.r1') as string;
    // Any field, those no list of "terms" named included (the tab, the incremental stamp, the name), breaks the seal.
    for (const changed of [{ sheetId: 9 }, { lastSuccessStart: 99 }, { name: 'Outro' }, { filters: { competencia: '12/2026' } }, { extra: 1 }]) {
      doc.set('faturamento.relatorio.r1', JSON.stringify({ ...JSON.parse(saved), ...changed }));
      const read = reports.get('r1');
      expect(check.report(read), JSON.stringify(changed)).toBe(false);
      expect(check.altered(read)).toBe(true);
    }
    // An older copy of the same report, put back by hand, is not the latest the owner saved.
    reports.save({ ...JSON.parse(saved), name: 'Novo nome' });
    seal.commit();
    doc.set('faturamento.relatorio.r1', saved);
    expect(check.report(reports.get('r1'))).toBe(false);
    doc.set('faturamento.relatorio.r1', JSON.stringify({ ...JSON.parse(saved), name: 'Novo nome' }));
    expect(check.report(reports.get('r1'))).toBe(true);
  });

  it('an execution killed between a save and its flush leaves the item as it was, not altered; after the flush the old value no longer counts', () => {
    const { store, user } = owners();
    const me = store.identity('ana@exemplo.com');
    const { doc, seal, view } = docAs(store, me);
    const reports = new ReportStore(view, () => 'x');
    reports.save(report(me.id));
    seal.commit();
    const landed = doc.get('faturamento.relatorio.r1') as string;
    // The save signs at once; the sheet keeps its write until a flush, which the kill prevents: the old value stays.
    reports.save({ ...JSON.parse(landed), name: 'Novo nome' });
    doc.set('faturamento.relatorio.r1', landed);
    // The next execution (a new OwnerStore reads the properties again) finds the item as it was, and acts on it.
    const next = owners('id', user).store;
    const { view: nextView } = docAs(next, me, doc);
    const again = new ReportStore(nextView, () => 'x');
    expect(next.checker(me, DOC).report(again.get('r1'))).toBe(true);
    // What it read settles the signature: the save that never landed is not accepted later.
    doc.set('faturamento.relatorio.r1', JSON.stringify({ ...JSON.parse(landed), name: 'Novo nome' }));
    expect(next.checker(me, DOC).report(again.get('r1'))).toBe(false);
  });

  it('a save that reached the document by its flush leaves no way back to the value it replaced', () => {
    const { store } = owners();
    const me = store.identity('ana@exemplo.com');
    const { doc, seal, view } = docAs(store, me);
    const reports = new ReportStore(view, () => 'x');
    reports.save(report(me.id));
    seal.commit();
    const old = doc.get('faturamento.relatorio.r1') as string;
    reports.save({ ...JSON.parse(old), name: 'Novo nome' });
    const check = store.checker(me, DOC);
    // Before the flush both count: the sheet may still hold either.
    doc.set('faturamento.relatorio.r1', old);
    expect(check.report(reports.get('r1'))).toBe(true);
    seal.commit();
    expect(check.report(reports.get('r1'))).toBe(false);
  });

  it('signs every kind of item and every part of a split one, through the store', () => {
    const { store, user } = owners();
    const me = store.identity('a');
    const { doc, seal, view } = docAs(store, me);
    const jobs = new JobStore<{ id: string; text: string }>(view, 'faturamento.job.');
    jobs.put('j1', { id: 'j1', text: 'x'.repeat(30_000) });
    expect(doc.keys().filter((k) => k.startsWith('faturamento.job.j1#')).length).toBeGreaterThan(1);
    for (const key of doc.keys()) expect(user.get(`faturamento.selo.${DOC}|${key}`), key).toEqual(expect.any(String));
    const check = store.checker(me, DOC);
    expect(check.sealed(jobs.get('j1') as object)).toBe(true);
    const part = doc.keys().find((k) => k.endsWith('#a1')) as string;
    doc.set(part, `${doc.get(part)?.slice(0, -1)}y`);
    expect(check.sealed(jobs.get('j1') as object)).toBe(false);
    // Deleting through the store drops the signatures it no longer needs, once the blanks are in the document.
    jobs.delete('j1');
    seal.commit();
    expect(user.keys().filter((k) => k.startsWith('faturamento.selo.'))).toEqual(doc.keys().map((k) => `faturamento.selo.${DOC}|${k}`));
  });

  it('a refused write leaves the signature of what was saved before', () => {
    const { store } = owners();
    const me = store.identity('a');
    const { doc, view } = docAs(store, me);
    const reports = new ReportStore(view, () => 'x');
    reports.save(report(me.id));
    doc.frozen = true;
    expect(() => reports.save({ ...report(me.id), name: 'Outro' })).toThrow();
    doc.frozen = false;
    expect(store.checker(me, DOC).report(reports.get('r1'))).toBe(true);
  });

  it('another editor, another secret or another document cannot pass for the owner', () => {
    const ana = owners();
    const me = ana.store.identity('ana');
    const { doc, view } = docAs(ana.store, me);
    new ReportStore(view, () => 'x').save(report(me.id));
    const bia = owners('bia');
    const other = bia.store.identity('bia');
    // Bia saves Ana's report changed: signed by Bia, it is no longer as Ana saved it.
    const asBia = new ReportStore(SignedStore.over(doc, bia.store.seal(other, DOC)), () => 'x');
    expect(bia.store.checker(other, DOC).report(asBia.get('r1'))).toBe(false);
    asBia.save({ ...asBia.get('r1'), sheetId: 3 });
    expect(bia.store.checker(other, DOC).report(asBia.get('r1'))).toBe(false);
    const asAna = new ReportStore(SignedStore.over(doc, ana.store.seal(me, DOC)), () => 'x');
    expect(ana.store.checker(me, DOC).altered(asAna.get('r1'))).toBe(true);
    const guessed = owners('id', ana.user);
    const elsewhere = new ReportStore(SignedStore.over(doc, guessed.store.seal({ ...me, secret: 'adivinhado' }, DOC)), () => 'x');
    expect(elsewhere.find('r1') && isSealed(elsewhere.find('r1'))).toBe(false);
    const otherDoc = new ReportStore(SignedStore.over(doc, owners('id', ana.user).store.seal(me, 'doc-2')), () => 'x');
    expect(isSealed(otherDoc.find('r1'))).toBe(false);
  });

  it('runs a bulk job only for its owner, with a connection', () => {
    const { store } = owners();
    const me = store.identity('a');
    const { view } = docAs(store, me);
    const jobs = bulkJobStore(view);
    jobs.put('b1', job(me.id, { keys: ['lote-1', 'lote-2'] } as Partial<BulkJob>));
    const check = store.checker(me, DOC);
    expect(check.bulk(jobs.get('b1') as BulkJob)).toBe(true);
    jobs.put('b2', job(me.id, { id: 'b2', connectionId: undefined }));
    jobs.put('b3', job('outro', { id: 'b3' }));
    expect(check.bulk(jobs.get('b2') as BulkJob)).toBe(false);
    expect(check.bulk(jobs.get('b3') as BulkJob)).toBe(false);
    expect(check.altered(jobs.get('b3') as BulkJob)).toBe(false);
  });

  it('lists the documents where the user saved something, and forgets signatures of keys that are gone', () => {
    const { user, store } = owners();
    const me = store.identity('a');
    expect(store.documents()).toEqual([]);
    const one = docAs(store, me);
    const two = docAs(store, me, new MemoryStore(), 'doc-2');
    new ReportStore(one.view, () => 'x').save(report(me.id));
    new ReportStore(one.view, () => 'x').save(report(me.id, { id: 'r2' }));
    new ReportStore(two.view, () => 'x').save(report(me.id));
    expect(store.documents().sort()).toEqual([DOC, 'doc-2']);
    // Another editor deleted r1.
    one.doc.delete('faturamento.relatorio.r1');
    store.forgetMissing(DOC, new Set(one.doc.keys()));
    expect(
      user
        .keys()
        .filter((k) => k.startsWith('faturamento.selo.'))
        .sort(),
    ).toEqual([`faturamento.selo.${DOC}|faturamento.relatorio.r2`, 'faturamento.selo.doc-2|faturamento.relatorio.r1']);
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

  it('an item saved whole since is no longer accepted by its old terms', () => {
    const { user, store } = owners();
    const me = store.identity('a');
    const r = report(me.id);
    const terms = JSON.stringify(['r', r.id, me.id, r.connectionId, r.listing, r.filters, r.incremental, r.schedule, r.notifyByEmail]);
    user.set(`faturamento.meus.${DOC}`, JSON.stringify({ reports: { r1: hmac(terms, me.secret) }, bulk: {} }));
    const { doc, view } = docAs(store, me);
    const reports = new ReportStore(view, () => 'x');
    reports.save(r);
    doc.set('faturamento.relatorio.r1', JSON.stringify({ ...r, lastSuccessStart: 5 }));
    expect(owners('id', user).store.checker(me, DOC).report(reports.get('r1'))).toBe(false);
    // Once signed whole, the old voucher goes.
    store.forgetMissing(DOC, new Set(doc.keys()));
    expect(store.ledger(DOC)).toEqual({ reports: {}, bulk: {} });
  });
});

describe('OwnerStore ledgers: what is refused, and how they shrink', () => {
  const reportTerms = (r: Report, ownerId: string) =>
    JSON.stringify(['r', r.id, ownerId, r.connectionId, r.listing, r.filters, r.incremental, r.schedule, r.notifyByEmail]);
  const bulkTerms = (j: BulkJob, ownerId: string) => JSON.stringify(['b', j.id, ownerId, j.connectionId, j.operation, j.sheetId, j.startedAt]);

  function vouched() {
    const { user, store } = owners();
    const me = store.identity('a');
    const r = report(me.id);
    const j = job(me.id);
    user.set(
      `faturamento.meus.${DOC}`,
      JSON.stringify({ reports: { r1: hmac(reportTerms(r, me.id), me.secret) }, bulk: { b1: hmac(bulkTerms(j, me.id), me.secret) } }),
    );
    return { user, store, me, r, j };
  }

  it('an item the old ledger vouched for, changed since in what it signed, is refused and shown as altered', () => {
    const { store, me, r, j } = vouched();
    const check = store.checker(me, DOC);
    const tampered = { ...r, filters: { competencia: '12/2026' } };
    expect(check.report(tampered)).toBe(false);
    expect(check.altered(tampered)).toBe(true);
    const moved = { ...j, sheetId: 8 };
    expect(check.bulk(moved)).toBe(false);
    expect(check.altered(moved)).toBe(true);
    // As vouched for, neither is altered; another owner's copy is refused but not the user's to be told of.
    expect(check.altered(r)).toBe(false);
    expect(check.altered(j)).toBe(false);
    expect(check.report({ ...r, owner: { id: 'outro', email: '' } })).toBe(false);
    expect(check.altered({ ...r, owner: { id: 'outro', email: '' } })).toBe(false);
    // Without a connection nothing runs, vouched for or not.
    expect(check.report({ ...r, connectionId: undefined })).toBe(false);
  });

  it('any other item of the user is altered unless read as they saved it', () => {
    const { store } = owners();
    const me = store.identity('a');
    const { view } = docAs(store, me);
    const check = store.checker(me, DOC);
    const dashboard = { id: 'p1', owner: { id: me.id, email: '' } };
    expect(check.altered(dashboard)).toBe(true);
    expect(check.sealed(dashboard)).toBe(false);
    const saved = view.writeJson('faturamento.painel.p1', dashboard);
    expect(check.altered(saved)).toBe(false);
    expect(check.sealed(saved)).toBe(true);
  });

  it('forgets what it is told to, writes nothing for what it does not hold, and goes when empty', () => {
    const { user, store, me } = vouched();
    const key = `faturamento.meus.${DOC}`;
    const before = user.get(key);
    user.frozen = true;
    store.forget(DOC, { reports: ['outro'], bulk: ['outro'] });
    store.forgetMissing(DOC, new Set(['faturamento.relatorio.r1', 'faturamento.lote.b1']));
    user.frozen = false;
    expect(user.get(key)).toBe(before);
    expect(store.documents()).toEqual([DOC]);
    store.forget(DOC, { reports: ['r1'] });
    expect(store.ledger(DOC)).toEqual({ reports: {}, bulk: { b1: expect.any(String) } });
    expect(store.checker(me, DOC).report(report(me.id))).toBe(false);
    expect(store.checker(me, DOC).bulk(job(me.id))).toBe(true);
    store.forget(DOC, { bulk: ['b1'] });
    expect(user.get(key)).toBeNull();
    expect(store.documents()).toEqual([]);
  });

  it('keeps what is still stored and not yet signed whole, and drops what is gone', () => {
    const { store } = vouched();
    store.forgetMissing(DOC, new Set(['faturamento.relatorio.r1', 'faturamento.lote.b1']));
    expect(Object.keys(store.ledger(DOC).reports)).toEqual(['r1']);
    expect(Object.keys(store.ledger(DOC).bulk)).toEqual(['b1']);
    store.forgetMissing(DOC, new Set(['faturamento.relatorio.r1']));
    expect(Object.keys(store.ledger(DOC).reports)).toEqual(['r1']);
    expect(Object.keys(store.ledger(DOC).bulk)).toEqual([]);
  });

  it('a bulk run signed whole since is no longer accepted by its old terms', () => {
    const { store, me, j } = vouched();
    const { doc, view } = docAs(store, me);
    const jobs = bulkJobStore(view);
    jobs.put('b1', j);
    doc.set('faturamento.lote.b1', JSON.stringify({ ...j, updatedAt: 9 }));
    expect(store.checker(me, DOC).bulk(jobs.get('b1') as BulkJob)).toBe(false);
  });

  it("another document's signatures do not count in this one", () => {
    const { store, me, r } = vouched();
    // The same report id saved whole in another document: this document's old voucher still stands.
    new ReportStore(docAs(store, me, new MemoryStore(), 'doc-2').view, () => 'x').save(report(me.id));
    expect(store.checker(me, DOC).report(r)).toBe(true);
  });

  it("an item saved before owners runs for nobody and is nobody's to be told of", () => {
    const { store, me, r, j } = vouched();
    const check = store.checker(me, DOC);
    for (const item of [
      { ...r, owner: undefined },
      { ...j, owner: undefined },
    ]) {
      expect('listing' in item ? check.report(item) : check.bulk(item)).toBe(false);
      expect(check.altered(item)).toBe(false);
    }
  });

  it('an unreadable ledger vouches for nothing', () => {
    const { user, store } = owners();
    const me = store.identity('a');
    user.set(`faturamento.meus.${DOC}`, '{quebrado');
    expect(store.ledger(DOC)).toEqual({ reports: {}, bulk: {} });
    expect(store.checker(me, DOC).report(report(me.id))).toBe(false);
  });
});

describe('OwnerStore notices', () => {
  it('tells each alteration once, per document and key, and a new one again', () => {
    const { store } = owners();
    const me = store.identity('a');
    expect(store.firstNotice(me, DOC, 'k', 'mudou')).toBe(true);
    expect(store.firstNotice(me, DOC, 'k', 'mudou')).toBe(false);
    expect(store.firstNotice(me, DOC, 'k', 'mudou de novo')).toBe(true);
    expect(store.firstNotice(me, DOC, 'outra', 'mudou de novo')).toBe(true);
    expect(store.firstNotice(me, 'doc-2', 'k', 'mudou de novo')).toBe(true);
  });
});

describe("OwnerStore: what is in the user's name, and e-mails about it", () => {
  it('the keys they saved last and those their old ledger vouches for, each once, in this document only', () => {
    const { user, store } = owners();
    const me = store.identity('a');
    const { view } = docAs(store, me);
    view.writeJson('faturamento.relatorio.r1', report(me.id));
    view.writeJson('faturamento.painel.p1', { id: 'p1' });
    docAs(store, me, new MemoryStore(), 'doc-2').view.writeJson('faturamento.relatorio.r9', report(me.id));
    user.set(`faturamento.meus.${DOC}`, JSON.stringify({ reports: { r1: 'x', r2: 'y' }, bulk: { b1: 'z' } }));
    const fresh = owners('id', user).store;
    expect(fresh.inTheirName(DOC).sort()).toEqual(['faturamento.lote.b1', 'faturamento.painel.p1', 'faturamento.relatorio.r1', 'faturamento.relatorio.r2']);
    expect(fresh.inTheirName('doc-3')).toEqual([]);
  });

  it('letting an item go drops its signature and what the old ledger vouched for it, and nothing else', () => {
    const { user, store } = owners();
    const me = store.identity('a');
    const { view } = docAs(store, me);
    view.writeJson('faturamento.relatorio.r1', report(me.id));
    view.writeJson('faturamento.lote.b2', job(me.id));
    user.set(`faturamento.meus.${DOC}`, JSON.stringify({ reports: { r3: 'x' }, bulk: { b1: 'z', b3: 'w' } }));
    const fresh = owners('id', user).store;
    fresh.letGo(DOC, 'faturamento.relatorio.r1');
    fresh.letGo(DOC, 'faturamento.lote.b1');
    const left = ['faturamento.lote.b2', 'faturamento.lote.b3', 'faturamento.relatorio.r3'];
    expect(fresh.inTheirName(DOC).sort()).toEqual(left);
    expect(user.get(`faturamento.selo.${DOC}|faturamento.relatorio.r1`)).toBeNull();
    expect(owners('id', user).store.inTheirName(DOC).sort()).toEqual(left);
    fresh.letGo(DOC, 'faturamento.relatorio.r3');
    expect(fresh.ledger(DOC)).toEqual({ reports: {}, bulk: { b3: 'w' } });
  });

  it('an e-mail about an item at most once a day, per document and item', () => {
    const { store } = owners();
    const DAY = 24 * 3_600_000;
    expect(store.mayMail(DOC, 'k', 1_000)).toBe(true);
    expect(store.mayMail(DOC, 'k', 1_000 + DAY - 1)).toBe(false);
    expect(store.mayMail(DOC, 'outra', 1_000)).toBe(true);
    expect(store.mayMail('doc-2', 'k', 1_000)).toBe(true);
    expect(store.mayMail(DOC, 'k', 1_000 + DAY)).toBe(true);
    // The day counts from the last e-mail sent, not from the refusals in between.
    expect(store.mayMail(DOC, 'k', 1_000 + 2 * DAY - 1)).toBe(false);
    expect(store.mayMail(DOC, 'k', 1_000 + 2 * DAY)).toBe(true);
  });
});

describe('OwnerStore reads', () => {
  it("a checker reads the user's properties once, all together: the old ledger comes with the signatures", () => {
    /** Properties as Apps Script has them: one read of them all costs what one key's does. */
    class CountingStore extends MemoryStore {
      reads = { get: 0, all: 0 };
      override get(key: string) {
        this.reads.get++;
        return super.get(key);
      }
      all() {
        this.reads.all++;
        return Object.fromEntries(this.map);
      }
    }
    const user = new CountingStore();
    const me = owners('id', user).store.identity('a');
    const r = report(me.id);
    const terms = JSON.stringify(['r', r.id, me.id, r.connectionId, r.listing, r.filters, r.incremental, r.schedule, r.notifyByEmail]);
    user.set(`faturamento.meus.${DOC}`, JSON.stringify({ reports: { r1: hmac(terms, me.secret) }, bulk: {} }));
    user.reads = { get: 0, all: 0 };
    const check = owners('id', user).store.checker(me, DOC);
    expect(user.reads).toEqual({ get: 0, all: 1 });
    expect(check.report(r)).toBe(true);
  });
});

describe('OwnerStore signatures, read once', () => {
  it("signing and checking many items in a document reads the user's properties once", () => {
    class CountingStore extends MemoryStore {
      reads = 0;
      all() {
        this.reads++;
        return Object.fromEntries(this.map);
      }
    }
    const user = new CountingStore();
    const { store } = owners('id', user);
    const me = store.identity('a');
    const { view } = docAs(store, me);
    const reports = new ReportStore(view, () => 'x');
    for (const id of ['r1', 'r2', 'r3']) reports.save(report(me.id, { id }));
    for (const id of ['r1', 'r2', 'r3']) expect(isSealed(reports.find(id))).toBe(true);
    store.checker(me, DOC);
    expect(user.reads).toBe(1);
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
