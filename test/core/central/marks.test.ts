/**
 * "Marcar como conferida": the record in its author's name over the figures
 * they saw, refused without figures, cleared with its reason in words when
 * the figures change, and shown to a reader only as they can trust it.
 */
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { UserError } from '../../../src/api/user-error';
import {
  changesSince,
  fingerprint,
  markReviewed,
  REVIEW_PREFIX,
  ReviewStore,
  seenOf,
  shownReview,
  undoneBy,
  unmarkReviewed,
} from '../../../src/core/central/marks';
import type { CompanyMonth } from '../../../src/core/central/store';
import { altered, MemoryStore, trusted } from '../bulk/fixtures';
import { figures } from './figures';

const zone = intlZone('America/Sao_Paulo');
const AT = zone.instant({ year: 2026, month: 11, day: 26, hour: 14, minute: 3 }).getTime();
const ana = { id: 'u1', email: 'ana@example.com' };
const bia = { id: 'u2', email: 'bia@example.com' };

const month = (o: Partial<CompanyMonth> = {}): CompanyMonth => ({
  id: '10/2026|org:1:123',
  createdAt: 1,
  competencia: '10/2026',
  company: { connectionId: 'c1', name: 'Padaria', organization: { key: '1:123', name: 'Padaria', document: '12345678000190', own: true } },
  run: 'r1',
  refreshedAt: AT - 1000,
  figures: figures(),
  ...o,
});

describe('marking a month as reviewed', () => {
  it('keeps who, when and the figures seen, under the month’s own key', () => {
    const doc = new MemoryStore();
    const reviews = new ReviewStore(trusted(doc));
    const r = markReviewed(reviews, month(), ana, AT);
    expect(r).toEqual({
      id: '10/2026|org:1:123',
      createdAt: AT,
      competencia: '10/2026',
      by: ana,
      at: AT,
      fingerprint: fingerprint(figures()),
      seen: seenOf(figures()),
    });
    expect(JSON.parse(doc.get(`${REVIEW_PREFIX}10/2026|org:1:123`)!)).toEqual(r);
    expect(reviews.find('10/2026|org:1:123')).toEqual(r);
    unmarkReviewed(reviews, month(), ana);
    expect(reviews.find('10/2026|org:1:123')).toBeNull();
  });

  it("leaves a colleague's review theirs: neither taken back nor signed over while it holds", () => {
    const reviews = new ReviewStore(trusted());
    const r = markReviewed(reviews, month(), ana, AT);
    expect(() => unmarkReviewed(reviews, month(), bia)).toThrow('A conferência de "Padaria" é de ana@example.com: só essa pessoa pode desmarcá-la.');
    expect(() => markReviewed(reviews, month(), bia, AT + 1)).toThrow(
      '"Padaria" já foi conferida por ana@example.com: só essa pessoa pode desmarcar a conferência.',
    );
    expect(reviews.find(r.id)).toEqual(r);
    // Over figures that changed since, the old review no longer holds: the colleague reviews what is there now.
    const changed = month({ figures: figures({ divergences: 1 }) });
    expect(markReviewed(reviews, changed, bia, AT + 2).by).toEqual(bia);
    // Nothing to take back is fine.
    unmarkReviewed(reviews, month({ company: { connectionId: 'c9', name: 'Outra' } }), bia);
  });

  it('is refused for a company without figures or whose last read failed', () => {
    const reviews = new ReviewStore(trusted());
    expect(() => markReviewed(reviews, month({ figures: undefined }), ana, AT)).toThrow(UserError);
    expect(() => markReviewed(reviews, month({ failure: { at: AT, message: '401' } }), ana, AT)).toThrow(
      '"Padaria" não tem números atualizados da competência 10/2026 para conferir: atualize a Central e tente de novo.',
    );
    expect(reviews.find('10/2026|org:1:123')).toBeNull();
  });
});

describe('the fingerprint of the figures seen', () => {
  it('changes with every figure a review covers', () => {
    const base = fingerprint(figures());
    const changes = [
      figures({ invoices: { count: 5, cents: 40_000 } }),
      figures({ invoices: { count: 4, cents: 40_001 } }),
      figures({ notesIssued: { count: 3, cents: 40_000 } }),
      figures({ notesIssued: { count: 4, cents: 1 } }),
      figures({ notesMissing: { count: 1, cents: 0 } }),
      figures({ notesMissing: { count: 0, cents: 1 } }),
      figures({ issRetidoCents: 1 }),
      figures({ issDueCents: 801 }),
      figures({ chargesOpen: { count: 1, cents: 0 } }),
      figures({ chargesOpen: { count: 0, cents: 1 } }),
      figures({ chargesOverdue: { count: 1, cents: 7 } }),
      figures({ divergences: 1 }),
    ];
    for (const f of changes) expect(fingerprint(f), JSON.stringify(f)).not.toBe(base);
    expect(new Set(changes.map(fingerprint)).size).toBe(changes.length);
  });

  it('stays when an open charge only falls due, or when only the notes’ wording changes', () => {
    const open = figures({ chargesOpen: { count: 2, cents: 500 } });
    const due = figures({ chargesOpen: { count: 1, cents: 200 }, chargesOverdue: { count: 1, cents: 300 } });
    expect(fingerprint(due)).toBe(fingerprint(open));
    expect(fingerprint(figures({ notes: ['x'], competencia: '11/2026' }))).toBe(fingerprint(figures()));
  });
});

describe('a review cleared when the figures change', () => {
  const review = markReviewed(new ReviewStore(trusted()), month(), ana, AT);

  it('holds while the figures are the ones seen', () => {
    expect(undoneBy(review, figures(), zone)).toBeUndefined();
  });

  it('says what changed since when, and who had reviewed', () => {
    const now = figures({ invoices: { count: 6, cents: 60_000 }, notesMissing: { count: 2, cents: 20_000 }, divergences: 2 });
    expect(undoneBy(review, now, zone)).toBe(
      'Conferência desfeita: 2 faturas novas, 2 notas a emitir a mais, divergências passaram de 0 para 2 desde 26/11 14:03 (conferida por ana@example.com).',
    );
  });

  it('words each figure’s change, more or less, by count or by value', () => {
    const seen = seenOf(figures({ chargesOpen: { count: 2, cents: 500 }, notesMissing: { count: 2, cents: 2_000 }, issRetidoCents: 100 }));
    const cases: Array<[Parameters<typeof figures>[0], string]> = [
      [{ invoices: { count: 3, cents: 30_000 } }, '1 fatura a menos'],
      [{ invoices: { count: 5, cents: 50_000 } }, '1 fatura nova'],
      [{ invoices: { count: 4, cents: 41_250 } }, 'o valor das faturas passou de R$ 400,00 para R$ 412,50'],
      [{ notesIssued: { count: 5, cents: 1 } }, '1 NFS-e emitida nova'],
      [{ notesIssued: { count: 2, cents: 1 } }, '2 NFS-e emitidas a menos'],
      [{ notesIssued: { count: 4, cents: 1 } }, 'o valor das NFS-e passou de R$ 400,00 para R$ 0,01'],
      [{ notesMissing: { count: 3, cents: 2_000 } }, '1 nota a emitir a mais'],
      [{ notesMissing: { count: 1, cents: 2_000 } }, '1 nota a emitir a menos'],
      [{ notesMissing: { count: 2, cents: 2_500 } }, 'o valor das faturas sem NFS-e passou de R$ 20,00 para R$ 25,00'],
      [{ issRetidoCents: 0 }, 'o ISS retido passou de R$ 1,00 para R$ 0,00'],
      [{ issDueCents: 900 }, 'o ISS a recolher passou de R$ 8,00 para R$ 9,00'],
      [{ chargesOpen: { count: 3, cents: 500 } }, '1 cobrança em aberto a mais'],
      [{ chargesOpen: { count: 0, cents: 0 } }, '2 cobranças em aberto a menos'],
      [{ chargesOpen: { count: 1, cents: 200 }, chargesOverdue: { count: 1, cents: 400 } }, 'o valor das cobranças em aberto passou de R$ 5,00 para R$ 6,00'],
      [{ divergences: 3 }, 'divergências passaram de 0 para 3'],
      [{ invoices: { count: 2, cents: 30_000 } }, '2 faturas a menos'],
      [{ notesIssued: { count: 6, cents: 1 } }, '2 NFS-e emitidas novas'],
      [{ notesIssued: { count: 3, cents: 1 } }, '1 NFS-e emitida a menos'],
      [{ notesMissing: { count: 0, cents: 0 } }, '2 notas a emitir a menos'],
      [{ chargesOpen: { count: 4, cents: 500 } }, '2 cobranças em aberto a mais'],
      [{ chargesOpen: { count: 1, cents: 500 } }, '1 cobrança em aberto a menos'],
    ];
    const base = { chargesOpen: { count: 2, cents: 500 }, notesMissing: { count: 2, cents: 2_000 }, issRetidoCents: 100 };
    for (const [change, words] of cases) expect(changesSince(seen, figures({ ...base, ...change })), words).toEqual([words]);
    expect(changesSince(seen, figures(base))).toEqual([]);
  });

  it('says the day and time of the review with two digits each', () => {
    const early = markReviewed(new ReviewStore(trusted()), month(), ana, zone.instant({ year: 2026, month: 3, day: 5, hour: 9, minute: 7 }).getTime());
    expect(undoneBy(early, figures({ divergences: 1 }), zone)).toBe(
      'Conferência desfeita: divergências passaram de 0 para 1 desde 05/03 09:07 (conferida por ana@example.com).',
    );
  });

  it('says the figures changed when no single one tells how', () => {
    const odd = { ...review, fingerprint: 'outro' };
    expect(undoneBy(odd, figures(), zone)).toBe('Conferência desfeita: os números mudaram desde 26/11 14:03 (conferida por ana@example.com).');
    expect(undoneBy({ ...odd, by: { id: 'u9', email: '' } }, figures(), zone)).toMatch(/\(conferida por outro editor\)\.$/);
  });
});

describe('a review as a reader sees it', () => {
  it('shows the reader’s own review as they saved it, and hides one altered since', () => {
    const doc = new MemoryStore();
    markReviewed(new ReviewStore(trusted(doc)), month(), ana, AT);
    expect(shownReview(new ReviewStore(trusted(doc)).find('10/2026|org:1:123'), ana)?.by).toEqual(ana);
    expect(shownReview(new ReviewStore(altered(doc)).find('10/2026|org:1:123'), ana)).toBeNull();
  });

  it('shows a colleague’s review as recorded: only its author’s signature can tell', () => {
    const doc = new MemoryStore();
    markReviewed(new ReviewStore(trusted(doc)), month(), bia, AT);
    expect(shownReview(new ReviewStore(altered(doc)).find('10/2026|org:1:123'), ana)?.by).toEqual(bia);
    expect(shownReview(null, ana)).toBeNull();
  });
});
