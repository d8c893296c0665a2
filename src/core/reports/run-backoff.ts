/**
 * How a scheduled report's failures space out its next runs.
 */
import { plural } from '../../api/words';
import type { Report, RunOrigin, RunSummary } from './reports';

/** Scheduled failures in a row before the schedule backs off. */
const FAILURES_BEFORE_BACKOFF = 2;
const MAX_BACKOFF_MS = 24 * 3_600_000;

/**
 * A schedule that keeps failing the same way backs off: after the second
 * failure in a row it waits 2, 4, 8… hours (at most a day) before trying again,
 * instead of spending trigger time and an e-mail every hour forever. A failure
 * that trying again cannot fix (a refused key, a bad filter, a connection that
 * is gone) pauses the schedule at once, until a run of the report succeeds:
 * one e-mail, not one every few hours.
 */
export function backoff(
  report: Report,
  result: RunSummary['result'],
  origin: RunOrigin,
  now: number,
  retryable: boolean,
): Pick<Report, 'failedRuns' | 'pausedUntil'> & { note?: string } {
  if (result === 'ok') return { failedRuns: 0, pausedUntil: undefined };
  if (result !== 'erro' || origin !== 'agendado') return { failedRuns: report.failedRuns, pausedUntil: report.pausedUntil };
  const failedRuns = (report.failedRuns ?? 0) + 1;
  if (!retryable)
    return {
      failedRuns,
      pausedUntil: Number.MAX_SAFE_INTEGER,
      note: 'O agendamento foi pausado, pois tentar de novo não resolve este erro: corrija-o e clique em "Atualizar" em Relatórios; depois de uma atualização bem-sucedida, o agendamento volta a valer.',
    };
  if (failedRuns < FAILURES_BEFORE_BACKOFF) return { failedRuns, pausedUntil: undefined };
  const wait = Math.min(MAX_BACKOFF_MS, 2 ** (failedRuns - 1) * 3_600_000);
  return {
    failedRuns,
    pausedUntil: now + wait,
    note: `Falhou ${plural(failedRuns, 'vez', 'vezes seguidas')}: a atualização agendada espera ${Math.round(wait / 3_600_000)} h antes de tentar de novo (ou atualize agora pela barra lateral).`,
  };
}
