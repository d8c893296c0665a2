/** One vocabulary of run state: a run's status, the result its report keeps, and the words people read. */
import { describe, expect, it } from 'vitest';
import { endedStatus, RESULT_LABEL, type RunResult, runResult, type RunStatus } from '../../src/core/run-state';

const STATUSES: RunStatus[] = ['running', 'done', 'failed', 'cancelled'];

describe('run state', () => {
  it('a status comes to its result; only a done run is partial, a failed or cancelled one stays what it is', () => {
    expect(STATUSES.map((s) => runResult(s))).toEqual(['em andamento', 'ok', 'erro', 'cancelado']);
    expect(STATUSES.map((s) => runResult(s, true))).toEqual(['em andamento', 'parcial', 'erro', 'cancelado']);
  });

  it('a stored result says where a run with no job left stands', () => {
    const results: Array<RunResult | undefined> = ['ok', 'parcial', 'erro', 'cancelado', 'em andamento', undefined];
    expect(results.map(endedStatus)).toEqual(['done', 'done', 'failed', 'cancelled', 'done', 'done']);
  });

  it('each result has the label Histórico and the card show', () => {
    expect(RESULT_LABEL).toEqual({ ok: 'OK', parcial: 'PARCIAL', erro: 'ERRO', cancelado: 'CANCELADO', 'em andamento': 'EM ANDAMENTO' });
  });
});
