/**
 * The Central's reads, many companies at once: each wave carries the next
 * pages of every company being read (its three listings), in shared round
 * trips (`waveAcross`), and the hourly check's first pages the same way. A
 * company is whole or nothing: its figures are computed and saved once its
 * three listings have ended, so a step cut short loses only the pages of the
 * companies it had not finished, which the next step reads again.
 */
import type { BillingClient, Walk } from '../../api/client';
import { waveAcross } from '../../api/client';
import type { ApiRecord } from '../../api/envelopes';
import type { FilterValues } from '../../api/filters';
import { bounded } from '../bounds';
import { type StepBudget, WORST_ROUND_TRIP_MS } from '../deadline';
import type { ClosingSource } from '../dashboards/kinds/fechamento/conference';
import { shareWave, WAVE_REQUESTS } from '../pull/wave-share';
import { type Bases, type ChangeAnswer, type ChangeMarks, changeAsk, monthAsk } from './ask';
import type { CentralCompany } from './store';

export const SOURCES: readonly ClosingSource[] = ['faturas', 'nfse', 'cobrancas'];

/** A failure in words, for the company's row. */
export const failureText = (err: unknown): string => bounded(((err as Error)?.message ?? String(err)).trim() || 'erro desconhecido', 300);

/** One company being read: a walk per listing and what they brought. */
export interface Lane {
  company: CentralCompany;
  walks: Record<ClosingSource, Walk>;
  records: Record<ClosingSource, ApiRecord[]>;
  /** When its reads began: what its next check asks "updated since". */
  began: number;
  failure?: string;
}

/** A client for the company, or why there is none (no key, a connection deleted). */
export function clientOf(clientFor: (id: string) => BillingClient, company: CentralCompany): BillingClient | string {
  try {
    return clientFor(company.connectionId);
  } catch (err) {
    return failureText(err);
  }
}

function walksOf(client: BillingClient, ask: Record<ClosingSource, FilterValues>, bases: Bases, maxPages?: number): Record<ClosingSource, Walk> {
  const walk = (s: ClosingSource) => client.walk(s, ask[s], { base: bases[s], maxPages });
  return { faturas: walk('faturas'), nfse: walk('nfse'), cobrancas: walk('cobrancas') };
}

export function lane(client: BillingClient | string, company: CentralCompany, competencia: string, bases: Bases, began: number): Lane {
  const records = { faturas: [], nfse: [], cobrancas: [] };
  if (typeof client === 'string') return { company, walks: {} as Record<ClosingSource, Walk>, records, began, failure: client };
  return { company, walks: walksOf(client, monthAsk(competencia), bases), records, began };
}

export const laneDone = (l: Lane): boolean => l.failure !== undefined || SOURCES.every((s) => l.walks[s].pager.done);

export const basesOf = (l: Lane): Bases => Object.fromEntries(SOURCES.map((s) => [s, l.walks[s].pager.state.base])) as Bases;

/** Why a listing ended without proof that every record was seen; undefined when each did. */
export function incomplete(l: Lane): string | undefined {
  for (const s of SOURCES) {
    const why = l.walks[s].pager.state.incomplete;
    if (why) return `${s}: ${why}`;
  }
  return undefined;
}

/**
 * One wave over the lanes still reading: the wave's requests shared between their walks, sent in one round trip.
 * False when the budget leaves no room for it. Past the soft deadline a wave still goes while it fits the hard
 * limit: the lanes it carries were started and are finished rather than read again.
 */
export function readWave(lanes: readonly Lane[], budget: StepBudget, reserveMs: number, now: () => number): boolean {
  const walks = lanes.flatMap((l) => (l.failure ? [] : SOURCES.filter((s) => !l.walks[s].pager.done).map((s) => ({ l, walk: l.walks[s] }))));
  if (walks.length === 0) return true;
  const began = budget.startWave(reserveMs) ?? (budget.fits(WORST_ROUND_TRIP_MS + reserveMs) ? now() : null);
  if (began === null) return false;
  const shares = shareWave(walks.map((w) => ({ pages: w.walk.pager.nextWaveSize, first: w.walk.pager.state.base === undefined })));
  const asking = walks.filter((_, i) => shares[i] > 0);
  for (const w of asking) w.walk.client = w.walk.client.withLimit(budget.requestLimit(reserveMs));
  waveAcross(asking.map((w) => ({ walk: w.walk, max: shares[walks.indexOf(w)] }))).forEach((outcome, k) => {
    const { l, walk } = asking[k];
    if (!outcome.ok) {
      l.failure ??= failureText(outcome.error);
      return;
    }
    const source = SOURCES.find((s) => l.walks[s] === walk)!;
    for (const page of outcome.pages) for (const r of page.records) l.records[source].push(r);
  });
  budget.waveEnded(began);
  return true;
}

/** One company's hourly check: its first page of each listing, asked since its marks. */
export interface Check {
  company: CentralCompany;
  walks: Record<ClosingSource, Walk>;
  failure?: string;
  answer?: ChangeAnswer;
}

export function check(client: BillingClient | string, company: CentralCompany, competencia: string, marks: ChangeMarks, bases: Bases): Check {
  if (typeof client === 'string') return { company, walks: {} as Record<ClosingSource, Walk>, failure: client };
  return { company, walks: walksOf(client, changeAsk(competencia, marks), bases, 1) };
}

/** The checks' first pages in shared round trips, a wave at a time while the budget allows; the checks left unanswered wait. */
export function checkWaves(checks: readonly Check[], budget: StepBudget): void {
  const open = checks.filter((c) => !c.failure && !c.answer);
  for (let at = 0; at < open.length; ) {
    const batch: Check[] = [];
    let requests = 0;
    for (; at < open.length; at++) {
      const need = SOURCES.reduce((n, s) => n + open[at].walks[s].pager.planWave(1).length, 0);
      if (batch.length && requests + need > WAVE_REQUESTS) break;
      batch.push(open[at]);
      requests += need;
    }
    const began = budget.startWave(0);
    if (began === null) return;
    const outcomes = waveAcross(batch.flatMap((c) => SOURCES.map((s) => ({ walk: c.walks[s], max: 1 }))));
    batch.forEach((c, i) => {
      const [f, n, cb] = outcomes.slice(i * 3, i * 3 + 3);
      const failed = [f, n, cb].find((o) => !o.ok);
      if (failed && !failed.ok) {
        c.failure = failureText(failed.error);
        return;
      }
      const first = (o: typeof f) => (o.ok ? (o.pages[0]?.records ?? []) : []);
      const newest = first(n)[0]?.idNotaFiscalServico;
      c.answer = {
        faturas: first(f).length,
        cobrancas: first(cb).length,
        newestNote: typeof newest === 'number' ? newest : undefined,
        notesTotal: c.walks.nfse.pager.state.totalRows,
      };
    });
    budget.waveEnded(began);
  }
}
