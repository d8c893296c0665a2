/**
 * Run state in one vocabulary, from the engines to the sidebars: where a run
 * stands, the result a report keeps of its last run, and the words people read
 * for it. Sidebars import the types; what they show comes from here through
 * the server.
 */

/** Where a run stands: a pull, a consolidated pull, a bulk run or an edit push. */
export type RunStatus = 'running' | 'done' | 'failed' | 'cancelled';

/**
 * How a report's last run went, as the report keeps it in the document: its
 * status in the words reports have been stored with from the start, and
 * 'parcial' for a consolidated run that ended while some companies failed.
 */
export type RunResult = 'em andamento' | 'ok' | 'parcial' | 'erro' | 'cancelado';

const RESULT: Record<RunStatus, RunResult> = { running: 'em andamento', done: 'ok', failed: 'erro', cancelled: 'cancelado' };

/** The result a run's state comes to; `partial`: some companies of a consolidated run failed. */
export function runResult(status: RunStatus, partial?: boolean): RunResult {
  return status === 'done' && partial ? 'parcial' : RESULT[status];
}

/**
 * Where a run stands that has no job left, from the result its report kept: a
 * partial run is done, and so is one whose end was never written (its job went
 * with a take-over).
 */
export function endedStatus(result: RunResult | undefined): RunStatus {
  return result === 'erro' ? 'failed' : result === 'cancelado' ? 'cancelled' : 'done';
}

/** What people read for a result, in Histórico and on the report's card. */
export const RESULT_LABEL: Record<RunResult, string> = {
  ok: 'OK',
  parcial: 'PARCIAL',
  erro: 'ERRO',
  cancelado: 'CANCELADO',
  'em andamento': 'EM ANDAMENTO',
};
