/**
 * A pull's state between steps: which failures a later step can get past,
 * what a cancel says and keeps, the rows a run counts, and Continuar putting
 * a failed run (each failed company of a consolidated one) back to work.
 */
import { describe, expect, it } from 'vitest';
import { NetworkError, RateLimitedError } from '../../../src/api/errors';
import { cancelImport, type ImportState, importedRows, isRetryable, retryImport, transient } from '../../../src/core/pull/state';
import { customers } from '../fake-service';
import { world } from './world';

/** A one-company pull of `records` started in a fresh document. */
function setup(records: Array<Record<string, unknown>> = customers(1, 7), mode: 'replace' | 'merge' = 'replace') {
  const w = world({ k: records });
  return { ...w, state: w.start({ mode }) };
}

describe('failures worth continuing', () => {
  it('network, server, rate limits and odd answers; not refusals, nor anything without a code', () => {
    for (const code of ['network', 'server-error', 'rate-limited', 'unexpected-response']) expect(isRetryable({ code }), code).toBe(true);
    for (const err of [{ code: 'unauthorized' }, new Error('x'), null, undefined, 'texto']) expect(isRetryable(err)).toBe(false);
  });
});

describe('a cancelled pull', () => {
  it('says how many rows were written, as a Brazilian number', () => {
    const s = setup();
    const state: ImportState = { ...s.state, rows: 12_345 };
    const cancelled = cancelImport(state);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.message).toBe('Importação cancelada com 12.345 linhas gravadas: a aba ficou marcada como incompleta.');
    expect(cancelled.rows).toBe(12_345);
  });

  it('of an incremental refresh counts the rows it updated or added', () => {
    const s = setup(customers(1, 7), 'merge');
    const cancelled = cancelImport({ ...s.state, rows: 900, merged: 4 });
    expect(cancelled.message).toBe('Importação cancelada com 4 linhas gravadas: a aba ficou marcada como incompleta.');
  });
});

describe('the rows a pull counts', () => {
  it('an incremental refresh of one company: the rows it updated or added; a consolidated one: the rows it wrote', () => {
    const s = setup();
    expect(importedRows({ ...s.state, rows: 10, merged: 3, spec: { ...s.state.spec, mode: 'merge' } })).toBe(3);
    expect(importedRows({ ...s.state, rows: 10, merged: 3, spec: { ...s.state.spec, mode: 'replace' } })).toBe(10);
    expect(importedRows({ ...s.state, rows: 10, merged: 3, spec: { ...s.state.spec, mode: 'merge' }, companies: [] })).toBe(10);
  });
});

describe('Continuar', () => {
  it('puts the failed companies of a consolidated run back to work and leaves the others as they ended', () => {
    const s = setup();
    const failed: ImportState = {
      ...s.state,
      status: 'failed',
      message: 'falhou',
      retryable: true,
      companies: [
        { id: 'a', pager: null, status: 'done', rows: 3, pages: 1, message: 'tudo certo' },
        { id: 'b', pager: null, status: 'failed', rows: 0, pages: 0, message: 'Erro interno', retryable: true },
      ],
    };
    const retried = retryImport(failed);
    expect(retried).toMatchObject({ status: 'running', message: undefined, retryable: undefined });
    expect(retried.companies).toEqual([
      { id: 'a', pager: null, status: 'done', rows: 3, pages: 1, message: 'tudo certo' },
      { id: 'b', pager: null, status: 'running', rows: 0, pages: 0, message: undefined, retryable: undefined },
    ]);
    // A one-company run gains no companies.
    const { companies: _, ...single } = failed;
    expect(Object.keys(retryImport(single))).not.toContain('companies');
  });
});

describe('which failures a later step can get past', () => {
  const request = { method: 'GET', url: 'https://api.test/v2/clientes', path: '/v2/clientes' } as never;
  it('a time-out and a pause asked for; not a refused connection nor another error', () => {
    expect(transient(new NetworkError(request, 'tempo esgotado', true))).toBe(true);
    expect(transient(new RateLimitedError(request, 5_000))).toBe(true);
    expect(transient(new RateLimitedError(request, undefined))).toBe(true);
    expect(transient(new NetworkError(request, 'ECONNREFUSED'))).toBe(false);
    expect(transient(new Error('tempo esgotado'))).toBe(false);
    expect(transient(null)).toBe(false);
  });
});
