/**
 * "Marcar como conferida": who reviewed a company's month, when, and the
 * figures they saw (a fingerprint of them). It is kept under its own key,
 * written only by the person who marks it, so it stays signed in their name
 * whoever refreshes the figures afterwards; a refresh that finds the figures
 * changed clears it and says why.
 */
import { brDateTime, type Zone } from '../../api/calendar';
import { UserError } from '../../api/user-error';
import { plural } from '../../api/words';
import { moneyText } from '../dashboards/sources';
import type { Owner } from '../trust/owners';
import { isSealed, type SignedStore } from '../trust/seal';
import type { MonthFigures, Tally } from './month';
import { type CompanyMonth, companyKey, monthId } from './store';

export const REVIEW_PREFIX = 'faturamento.central.conferida.';

/** The figures a review covers. Charges count as open whether due or overdue: a charge falling due is the calendar, not a change of the month's data. */
export type Seen = Omit<MonthFigures, 'competencia' | 'chargesOverdue' | 'empty' | 'held' | 'notes'>;

export interface Review {
  /** As the company's month: `${competência}|${companyKey}`. */
  id: string;
  createdAt: number;
  competencia: string;
  by: Owner;
  at: number;
  fingerprint: string;
  seen: Seen;
}

export function seenOf(f: MonthFigures): Seen {
  return {
    invoices: { ...f.invoices },
    notesIssued: { ...f.notesIssued },
    notesMissing: { ...f.notesMissing },
    issRetidoCents: f.issRetidoCents,
    issDueCents: f.issDueCents,
    chargesOpen: { count: f.chargesOpen.count + f.chargesOverdue.count, cents: f.chargesOpen.cents + f.chargesOverdue.cents },
    divergences: f.divergences,
  };
}

const tallyText = (t: Tally) => `${t.count}:${t.cents}`;

/** The figures a review covers, as one text: equal exactly when every one of them is. */
export function fingerprint(f: MonthFigures): string {
  const s = seenOf(f);
  return [
    tallyText(s.invoices),
    tallyText(s.notesIssued),
    tallyText(s.notesMissing),
    s.issRetidoCents,
    s.issDueCents,
    tallyText(s.chargesOpen),
    s.divergences,
  ].join('|');
}

/** The reviews, each under its month's key, read and written through the document's signed store. */
export class ReviewStore {
  constructor(private readonly doc: SignedStore) {}

  find(id: string): Review | null {
    return this.doc.readJson<Review>(REVIEW_PREFIX + id);
  }

  save(review: Review): Review {
    return this.doc.writeJson(REVIEW_PREFIX + review.id, review);
  }

  delete(id: string): void {
    this.doc.delete(REVIEW_PREFIX + id);
  }
}

/** Marks `month` as reviewed by `by` now, over the figures it shows; refused while it has none to review. */
export function markReviewed(reviews: ReviewStore, month: CompanyMonth, by: Owner, now: number): Review {
  if (!month.figures || month.failure)
    throw new UserError(
      `"${month.company.name}" não tem números atualizados da competência ${month.competencia} para conferir: atualize a Central e tente de novo.`,
    );
  const id = monthId(month.competencia, companyKey(month.company));
  const current = reviews.find(id);
  // A colleague's review of these very figures is theirs: it is neither signed over nor taken.
  if (current && current.by.id !== by.id && current.fingerprint === fingerprint(month.figures))
    throw new UserError(`"${month.company.name}" já foi conferida por ${current.by.email || 'outro editor'}: só essa pessoa pode desmarcar a conferência.`);
  return reviews.save({
    id,
    createdAt: now,
    competencia: month.competencia,
    by: { id: by.id, email: by.email },
    at: now,
    fingerprint: fingerprint(month.figures),
    seen: seenOf(month.figures),
  });
}

/** Clears `by`'s review of `month`; a colleague's is refused: only its author takes it back. */
export function unmarkReviewed(reviews: ReviewStore, month: CompanyMonth, by: Owner): void {
  const id = monthId(month.competencia, companyKey(month.company));
  const current = reviews.find(id);
  if (current && current.by.id !== by.id)
    throw new UserError(`A conferência de "${month.company.name}" é de ${current.by.email || 'outro editor'}: só essa pessoa pode desmarcá-la.`);
  reviews.delete(id);
}

/** "26/11 14:03": the day and time of a review, in the spreadsheet's zone. */
const stamp = (at: number, zone: Zone): string => {
  const text = brDateTime(zone.wall(new Date(at)));
  return `${text.slice(0, 5)} ${text.slice(11)}`;
};

function countChange(before: Tally, after: Tally, more: [string, string], less: [string, string], amount: string): string | undefined {
  const d = after.count - before.count;
  if (d > 0) return plural(d, ...more);
  if (d < 0) return plural(-d, ...less);
  if (after.cents !== before.cents) return `${amount} passou de ${moneyText(before.cents)} para ${moneyText(after.cents)}`;
  return undefined;
}

function amountChange(before: number, after: number, what: string): string | undefined {
  return before === after ? undefined : `${what} passou de ${moneyText(before)} para ${moneyText(after)}`;
}

/** What changed between the figures a review saw and `now`, in words; empty when nothing did. */
export function changesSince(seen: Seen, now: MonthFigures): string[] {
  const after = seenOf(now);
  const parts = [
    countChange(seen.invoices, after.invoices, ['fatura nova', 'faturas novas'], ['fatura a menos', 'faturas a menos'], 'o valor das faturas'),
    countChange(
      seen.notesIssued,
      after.notesIssued,
      ['NFS-e emitida nova', 'NFS-e emitidas novas'],
      ['NFS-e emitida a menos', 'NFS-e emitidas a menos'],
      'o valor das NFS-e',
    ),
    countChange(
      seen.notesMissing,
      after.notesMissing,
      ['nota a emitir a mais', 'notas a emitir a mais'],
      ['nota a emitir a menos', 'notas a emitir a menos'],
      'o valor das faturas sem NFS-e',
    ),
    amountChange(seen.issRetidoCents, after.issRetidoCents, 'o ISS retido'),
    amountChange(seen.issDueCents, after.issDueCents, 'o ISS a recolher'),
    countChange(
      seen.chargesOpen,
      after.chargesOpen,
      ['cobrança em aberto a mais', 'cobranças em aberto a mais'],
      ['cobrança em aberto a menos', 'cobranças em aberto a menos'],
      'o valor das cobranças em aberto',
    ),
    seen.divergences === after.divergences ? undefined : `divergências passaram de ${seen.divergences} para ${after.divergences}`,
  ];
  return parts.filter((p): p is string => p !== undefined);
}

/** Why a review no longer holds for `now` ("Conferência desfeita: 2 faturas novas desde 26/11 14:03"); undefined while it does. */
export function undoneBy(review: Review, now: MonthFigures, zone: Zone): string | undefined {
  if (review.fingerprint === fingerprint(now)) return undefined;
  const parts = changesSince(review.seen, now);
  return `Conferência desfeita: ${parts.length ? parts.join(', ') : 'os números mudaram'} desde ${stamp(review.at, zone)} (conferida por ${review.by.email || 'outro editor'}).`;
}

/**
 * A review as the sheet shows it to `reader`. A review naming the reader that they did not save as it is (someone
 * edited the hidden sheet) is not shown; one of a colleague is shown as recorded: only its author's signature can
 * tell, in their own Central.
 */
export function shownReview(review: Review | null, reader: Owner): Review | null {
  if (!review) return null;
  if (review.by.id === reader.id && !isSealed(review)) return null;
  return review;
}
