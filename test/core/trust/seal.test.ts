/**
 * The signatures themselves: a seal's protocol over the signatures a user
 * keeps (the one being replaced counts until the flush), the store that signs
 * every write and checks every read, and the old ledger's terms.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  bulkVouched,
  documentSeal,
  isSealed,
  lazySeal,
  reportVouched,
  type Seal,
  type SignatureBook,
  SignedStore,
  sealedAs,
  type Signer,
} from '../../../src/core/trust/seal';
import { MemoryStore } from '../bulk/fixtures';

const hmac: Signer = (text, secret) => createHmac('sha256', secret).update(text).digest('hex');

/** A user's signatures of one document, with every write they cost. */
function book() {
  const kept = new Map<string, string>();
  const writes: Array<[string, string | undefined]> = [];
  const b: SignatureBook = {
    get: (key) => kept.get(key),
    put: (key, text) => {
      writes.push([key, text]);
      if (text === undefined) kept.delete(key);
      else kept.set(key, text);
    },
  };
  return { kept, writes, book: b };
}

/** An execution that saved v1 under `k`, flushed, then saved v2 and was killed before the flush. */
function killedBeforeFlush(b: SignatureBook): void {
  const killed = documentSeal(hmac, 's', 'd', b);
  killed.sign('k', 'v1');
  killed.commit();
  killed.sign('k', 'v2');
}

/** A book over signatures already kept, as the next execution reads them. */
function bookOf(kept: Map<string, string>): SignatureBook {
  return {
    get: (key) => kept.get(key),
    put: (key, text) => {
      if (text === undefined) kept.delete(key);
      else kept.set(key, text);
    },
  };
}

describe('a seal', () => {
  it('after a kill, any value saved since the last flush may be what the document holds: each is the user’s, then only the one it holds', () => {
    for (const holds of ['v1', 'v2', 'v3']) {
      const { book: b, kept } = book();
      const killed = documentSeal(hmac, 's', 'd', b);
      killed.sign('k', 'v1');
      killed.commit();
      killed.sign('k', 'v2');
      killed.sign('k', 'v3');
      const next = documentSeal(hmac, 's', 'd', bookOf(kept));
      expect(next.verify('k', holds), `holding ${holds}`).toBe(true);
      for (const other of ['v1', 'v2', 'v3'].filter((v) => v !== holds)) expect(next.verify('k', other), `holding ${holds}, ${other}`).toBe(false);
      expect(next.verify('k', 'v4')).toBe(false);
    }
  });

  it('at the flush keeps only the last of the values saved since, and a check after writes nothing', () => {
    const { book: b, kept, writes } = book();
    const seal = documentSeal(hmac, 's', 'd', b);
    seal.sign('k', 'v1');
    seal.sign('k', 'v2');
    seal.sign('k', 'v3');
    seal.commit();
    expect(kept.get('k')).toBe(hmac(JSON.stringify(['selo', 'd', 'k', 'v3']), 's'));
    const written = writes.length;
    expect(seal.verify('k', 'v3')).toBe(true);
    expect(seal.verify('k', 'v2')).toBe(false);
    expect(writes).toHaveLength(written);
  });

  it('a delete costs one write, at the flush, and none for a key the user does not keep', () => {
    const { book: b, writes } = book();
    const seal = documentSeal(hmac, 's', 'd', b);
    seal.forget('nunca');
    seal.commit();
    expect(writes).toEqual([]);
    seal.sign('k', 'v');
    seal.forget('k');
    expect(writes).toHaveLength(1);
    seal.commit();
    expect(writes).toEqual([
      ['k', ` ${hmac(JSON.stringify(['selo', 'd', 'k', 'v']), 's')}`],
      ['k', undefined],
    ]);
  });

  it('a key deleted and saved again as it was is kept; a save refused after a delete leaves it deleted', () => {
    const { book: b, kept } = book();
    const seal = documentSeal(hmac, 's', 'd', b);
    seal.sign('k', 'v1');
    seal.commit();
    seal.forget('k');
    seal.sign('k', 'v1');
    seal.commit();
    expect(seal.verify('k', 'v1')).toBe(true);
    for (const value of ['v1', 'v2']) {
      seal.sign('k', 'v1');
      seal.commit();
      seal.forget('k');
      seal.sign('k', value)();
      seal.commit();
      expect(kept.has('k'), value).toBe(false);
    }
  });

  it('a key deleted and saved again before a flush keeps every value it may hold until the flush, then the last', () => {
    const { book: b, kept } = book();
    const seal = documentSeal(hmac, 's', 'd', b);
    seal.sign('k', 'v1');
    seal.commit();
    seal.forget('k');
    seal.sign('k', 'v2');
    const next = documentSeal(hmac, 's', 'd', bookOf(new Map(kept)));
    expect(next.verify('k', 'v1')).toBe(true);
    expect(documentSeal(hmac, 's', 'd', bookOf(new Map(kept))).verify('k', 'v2')).toBe(true);
    seal.commit();
    expect(seal.verify('k', 'v1')).toBe(false);
    expect(seal.verify('k', 'v2')).toBe(true);
    expect(kept.get('k')?.split(' ')).toHaveLength(1);
  });

  it("accepts exactly the value the user signed under that key, in that document, with that user's secret", () => {
    const { book: b } = book();
    const seal = documentSeal(hmac, 'segredo', 'doc-1', b);
    seal.sign('k', 'valor');
    seal.commit();
    expect(seal.verify('k', 'valor')).toBe(true);
    expect(seal.verify('k', 'valor ')).toBe(false);
    expect(seal.verify('outra', 'valor')).toBe(false);
    // The same signatures read in another document, or with another secret, vouch for nothing.
    expect(documentSeal(hmac, 'segredo', 'doc-2', b).verify('k', 'valor')).toBe(false);
    expect(documentSeal(hmac, 'outro', 'doc-1', b).verify('k', 'valor')).toBe(false);
    expect(documentSeal(hmac, 'segredo', 'doc-1', b).verify('k', 'valor')).toBe(true);
  });

  it('signs the text signatures kept by earlier versions sign, so what a user saved then still reads as theirs', () => {
    const { book: b, kept } = book();
    kept.set('faturamento.relatorio.r1', hmac(JSON.stringify(['selo', 'doc-1', 'faturamento.relatorio.r1', '{"id":"r1"}']), 'segredo'));
    const seal = documentSeal(hmac, 'segredo', 'doc-1', b);
    expect(seal.verify('faturamento.relatorio.r1', '{"id":"r1"}')).toBe(true);
    seal.sign('k', 'v');
    expect(kept.get('k')).toBe(` ${hmac(JSON.stringify(['selo', 'doc-1', 'k', 'v']), 'segredo')}`);
  });

  it('keeps the value being replaced valid until the flush, then only the new one', () => {
    const { book: b, kept } = book();
    const seal = documentSeal(hmac, 's', 'd', b);
    seal.sign('k', 'v1');
    seal.commit();
    seal.sign('k', 'v2');
    const waiting = kept.get('k');
    expect(waiting?.split(' ')).toHaveLength(2);
    expect(seal.verify('k', 'v1')).toBe(true);
    expect(seal.verify('k', 'v2')).toBe(true);
    // Checking a key this execution waits on settles nothing.
    expect(kept.get('k')).toBe(waiting);
    seal.commit();
    expect(seal.verify('k', 'v1')).toBe(false);
    expect(seal.verify('k', 'v2')).toBe(true);
    expect(kept.get('k')?.split(' ')).toHaveLength(1);
  });

  it('a save another execution left waiting (killed before its flush) is settled by what the document holds', () => {
    for (const [holds, other] of [
      ['v1', 'v2'],
      ['v2', 'v1'],
    ]) {
      const { book: b } = book();
      killedBeforeFlush(b);
      const next = documentSeal(hmac, 's', 'd', b);
      expect(next.verify('k', holds)).toBe(true);
      expect(next.verify('k', other), `holding ${holds}`).toBe(false);
    }
  });

  it('writes no signature for a value saved again as it is', () => {
    const { book: b, writes } = book();
    const seal = documentSeal(hmac, 's', 'd', b);
    seal.sign('k', 'v');
    seal.sign('k', 'v');
    expect(writes).toHaveLength(1);
    seal.commit();
    seal.sign('k', 'v');
    expect(writes).toHaveLength(2);
    // A new value, then the landed one again while the new one waits: both are written.
    seal.sign('k', 'w');
    seal.sign('k', 'v');
    expect(writes).toHaveLength(4);
  });

  it('undoing a refused save puts the signatures back as they were, and the flush then changes nothing', () => {
    const { book: b, kept } = book();
    killedBeforeFlush(b);
    const left = kept.get('k');
    const seal = documentSeal(hmac, 's', 'd', b);
    const undo = seal.sign('k', 'v3');
    undo();
    expect(kept.get('k')).toBe(left);
    seal.commit();
    expect(kept.get('k')).toBe(left);
    // A key the execution already waited on still waits after an undo: its earlier save is in the document at the flush.
    seal.sign('j', 'a');
    seal.sign('j', 'b')();
    seal.commit();
    expect(kept.get('j')?.split(' ')).toHaveLength(1);
    expect(seal.verify('j', 'a')).toBe(true);
  });

  it('forgets a key it no longer keeps, and a later flush does not bring it back', () => {
    const { book: b, kept, writes } = book();
    const seal = documentSeal(hmac, 's', 'd', b);
    seal.forget('nunca');
    expect(writes).toEqual([]);
    seal.sign('k', 'v');
    seal.forget('k');
    seal.commit();
    expect(kept.has('k')).toBe(false);
    expect(seal.verify('k', 'v')).toBe(false);
  });

  it('made lazily: nothing is read until it signs, forgets or checks, and a flush before that reads nothing', () => {
    let made = 0;
    const calls: string[] = [];
    const inner: Seal = {
      sign: (key) => {
        calls.push(`sign ${key}`);
        return () => calls.push(`undo ${key}`);
      },
      forget: (key) => void calls.push(`forget ${key}`),
      verify: (key) => calls.push(`verify ${key}`) > 0,
      commit: () => void calls.push('commit'),
    };
    const seal = lazySeal(() => {
      made++;
      return inner;
    });
    seal.commit();
    expect(made).toBe(0);
    seal.sign('a', 'x')();
    seal.forget('b');
    expect(seal.verify('c', 'x')).toBe(true);
    seal.commit();
    expect(made).toBe(1);
    expect(calls).toEqual(['sign a', 'undo a', 'forget b', 'verify c', 'commit']);
  });
});

/** A store signed by a real seal, with the seal's book to look into. */
function signed(inner = new MemoryStore()) {
  const { book: b, kept } = book();
  const seal = documentSeal(hmac, 's', 'd', b);
  return { inner, kept, seal, store: SignedStore.over(inner, seal) };
}

describe('a signed store', () => {
  it('signs before it writes, and a refused write leaves the signature as it was', () => {
    const { inner, kept, store } = signed();
    store.set('k', 'v1');
    expect(inner.get('k')).toBe('v1');
    const before = kept.get('k');
    inner.frozen = true;
    expect(() => store.set('k', 'v2')).toThrow('killed');
    expect(kept.get('k')).toBe(before);
    expect(store.get('k')).toBe('v1');
    expect(store.keys()).toEqual(['k']);
  });

  it('a delete drops the value, and its signature once the blank is in the document (the flush)', () => {
    const { inner, kept, seal, store } = signed();
    store.set('k', 'v');
    seal.commit();
    store.delete('k');
    expect(inner.keys()).toEqual([]);
    // Killed before the flush, the sheet may still hold the value: it is still the user's.
    expect(documentSeal(hmac, 's', 'd', bookOf(new Map(kept))).verify('k', 'v')).toBe(true);
    seal.commit();
    expect(kept.size).toBe(0);
  });

  it('reads a JSON item sealed only when it is as the user saved it; absent, blank or broken reads as nothing', () => {
    const { inner, store } = signed();
    const saved = store.writeJson('r', { a: 1 });
    expect(isSealed(saved)).toBe(true);
    expect(inner.get('r')).toBe('{"a":1}');
    const read = store.readJson<{ a: number }>('r');
    expect(read).toEqual({ a: 1 });
    expect(isSealed(read)).toBe(true);
    inner.set('r', '{"a":2}');
    const changed = store.readJson<{ a: number }>('r');
    expect(changed).toEqual({ a: 2 });
    expect(isSealed(changed)).toBe(false);
    inner.set('vazio', '');
    inner.set('quebrado', '{a');
    expect(store.readJson('ausente')).toBeNull();
    expect(store.readJson('vazio')).toBeNull();
    expect(store.readJson('quebrado')).toBeNull();
  });

  it('checks no signature for a value that is not there or does not parse', () => {
    let checks = 0;
    const inner = new MemoryStore();
    const store = SignedStore.over(inner, { sign: () => () => undefined, forget: () => undefined, verify: () => ++checks > 0, commit: () => undefined });
    inner.set('vazio', '');
    inner.set('quebrado', '{a');
    for (const key of ['ausente', 'vazio', 'quebrado']) expect(store.readJson(key)).toBeNull();
    expect(checks).toBe(0);
    inner.set('lido', '{}');
    expect(isSealed(store.readJson('lido'))).toBe(true);
    expect(checks).toBe(1);
  });

  it('an item made of several values is sealed only when every one is there and as saved; after one fails, no more are checked', () => {
    const checked: string[] = [];
    const inner = new MemoryStore();
    const store = SignedStore.over(inner, {
      sign: () => () => undefined,
      forget: () => undefined,
      verify: (key) => checked.push(key) > 0 && key !== 'mau',
      commit: () => undefined,
    });
    for (const key of ['a', 'b', 'mau']) inner.set(key, key);
    const whole = store.reading();
    expect([whole.get('a'), whole.get('b')]).toEqual(['a', 'b']);
    expect(isSealed(whole.mark({}))).toBe(true);
    checked.length = 0;
    const forged = store.reading();
    forged.get('mau');
    forged.get('a');
    expect(isSealed(forged.mark({}))).toBe(false);
    expect(checked).toEqual(['mau']);
    const missing = store.reading();
    expect(missing.get('ausente')).toBeNull();
    missing.get('a');
    expect(isSealed(missing.mark({}))).toBe(false);
  });

  it('only objects are sealed; a copy made from an item is sealed exactly when the item is', () => {
    const { store } = signed();
    expect(isSealed(store.saved('texto'))).toBe(false);
    expect(isSealed(store.saved(null))).toBe(false);
    expect(isSealed(undefined)).toBe(false);
    const item = store.saved({ id: 1 });
    expect(isSealed(sealedAs(item, { id: 1, copy: true }))).toBe(true);
    expect(isSealed(sealedAs({ id: 1 }, { id: 1, copy: true }))).toBe(false);
    expect(isSealed({ ...item })).toBe(false);
  });
});

describe('what the old ledger vouched for', () => {
  const report = { id: 'r1', owner: { id: 'u1' }, connectionId: 'c1', listing: 'faturas', filters: { competencia: '11/2026' }, incremental: false };
  const terms = (...extra: unknown[]) => JSON.stringify(['r', 'r1', 'u1', 'c1', 'faturas', { competencia: '11/2026' }, false, null, null, ...extra]);
  const bulk = { id: 'b1', owner: { id: 'u1' }, connectionId: 'c1', operation: 'emitirNfse', sheetId: 7, startedAt: 5 };

  it('is accepted as its terms were signed then, card data and companies joining them only when present', () => {
    expect(reportVouched(hmac, 's', hmac(terms(), 's'), report)).toBe(true);
    expect(reportVouched(hmac, 's', hmac(terms('cartao'), 's'), { ...report, cardData: true })).toBe(true);
    expect(reportVouched(hmac, 's', hmac(terms({ all: true, ids: [] }), 's'), { ...report, companies: { all: true, ids: [] } })).toBe(true);
    expect(reportVouched(hmac, 's', hmac(terms('cartao', ['c1', 'c2']), 's'), { ...report, cardData: true, companies: ['c1', 'c2'] })).toBe(true);
    expect(bulkVouched(hmac, 's', hmac(JSON.stringify(['b', 'b1', 'u1', 'c1', 'emitirNfse', 7, 5]), 's'), bulk)).toBe(true);
  });

  it('refuses an item changed since, another secret, and an item it never vouched for, without signing anything for it', () => {
    const vouched = hmac(terms(), 's');
    expect(reportVouched(hmac, 's', vouched, { ...report, connectionId: 'c2' })).toBe(false);
    expect(reportVouched(hmac, 's', vouched, { ...report, cardData: true })).toBe(false);
    expect(reportVouched(hmac, 'outro', vouched, report)).toBe(false);
    const bulkVoucher = hmac(JSON.stringify(['b', 'b1', 'u1', 'c1', 'emitirNfse', 7, 5]), 's');
    expect(bulkVouched(hmac, 's', bulkVoucher, { ...bulk, sheetId: 8 })).toBe(false);
    let signatures = 0;
    const counting: Signer = (text, secret) => {
      signatures++;
      return hmac(text, secret);
    };
    expect(reportVouched(counting, 's', undefined, report)).toBe(false);
    expect(bulkVouched(counting, 's', undefined, bulk)).toBe(false);
    expect(signatures).toBe(0);
    // An item saved before owners was never vouched for by anyone.
    expect(reportVouched(hmac, 's', vouched, { ...report, owner: undefined })).toBe(false);
    expect(bulkVouched(hmac, 's', bulkVoucher, { ...bulk, owner: undefined })).toBe(false);
  });
});
