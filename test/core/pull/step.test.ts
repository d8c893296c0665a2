/**
 * One company's pull stepped through its ports, without the sandbox: waves
 * until the listing ends or the step's time does, a service that does not
 * answer or asks for a pause waited for across steps, failures that the user
 * can continue, a cancel between waves, the state a step was given left as it
 * was, and the sheet's rows each written once.
 */
import { describe, expect, it } from 'vitest';
import { WORST_ROUND_TRIP_MS } from '../../../src/api/http';
import { listing } from '../../../src/api/operations';
import { writeCostMs } from '../../../src/core/deadline';
import {
  ASSUMED_PAGE_ROWS,
  cancelImport,
  FINISH_CALLS,
  type ImportState,
  importedRows,
  MAX_TRANSIENT_FAILURES,
  retryImport,
} from '../../../src/core/pull/state';
import { tableSpec } from '../../../src/core/sheets/table';
import { customers, refused, timedOut } from '../fake-service';
import { column, withPhones, world } from './world';

/** A one-company pull of `records` started in a fresh document; `step(state, deadline, limit)` steps it. */
function setup(records: Array<Record<string, unknown>> = customers(1, 7), mode: 'replace' | 'merge' = 'replace') {
  const w = world({ k: records });
  const state = w.start({ mode });
  const step = (s: ImportState, deadline = w.now() + 600_000, limit?: number) => w.step(s, { deadline, limit });
  return { ...w, state, step, ids: () => column(w.sheet(), 'ID do cliente') };
}

/** The first request fails with a 503 (after `then` ran), every later one is served; the client retries once. */
function failOnce(s: ReturnType<typeof setup>, then = () => {}) {
  s.deps.client = s.service.client('k', s.now, 1);
  let failed = false;
  s.service.fault = () => {
    if (failed) return undefined;
    failed = true;
    then();
    return { kind: 'response', status: 503, headers: {}, body: 'Indisponível' };
  };
}

const retryAfter = (seconds: number) => ({
  kind: 'response' as const,
  status: 429,
  headers: { 'retry-after': String(seconds), 'content-type': 'application/json' },
  body: '{}',
});

describe('a pull stepped', () => {
  it('writes every record once and ends done, with the total the service announced', () => {
    const s = setup();
    const done = s.step(s.state);
    expect(done).toMatchObject({ status: 'done', rows: 7, totalRows: 7, steps: 1, transientFailures: 0 });
    expect(done.message).toBeUndefined();
    expect(s.ids()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(importedRows(done)).toBe(7);
  });

  it('stops a wave early when the next could not end before the deadline, and goes on from there next step', () => {
    const s = setup(customers(1, 60));
    const first = s.step(s.state, s.now() + 1_500);
    expect(first.status).toBe('running');
    expect(first.pages).toBe(2);
    expect(first.rows).toBe(6);
    expect(first.pager).not.toBeNull();
    let state = first;
    for (let i = 0; i < 10 && state.status === 'running'; i++) state = s.step(state, s.now() + 1_500);
    expect(state.status).toBe('done');
    expect(s.ids()).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  });

  it('asks nothing when even one round trip at its worst does not fit before the limit', () => {
    const s = setup();
    const state = s.step(s.state, s.now() + 600_000, s.now() + 59_000);
    expect(s.service.asked).toEqual([]);
    expect(state).toMatchObject({ status: 'running', steps: 1 });
  });

  it('a run that is not running is left as it is', () => {
    const s = setup();
    const cancelled = cancelImport(s.state);
    expect(s.step(cancelled)).toBe(cancelled);
    expect(cancelImport(cancelled)).toBe(cancelled);
  });

  it('a cancel between waves stops with what was fetched written', () => {
    const s = setup(customers(1, 60));
    s.deps.cancelRequested = () => s.service.trips > 0;
    const state = s.step(s.state);
    expect(state.status).toBe('cancelled');
    expect(state.message).toBe('Importação cancelada com 6 linhas gravadas: a aba ficou marcada como incompleta.');
    expect(s.ids()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('a cancel asked after the last page changes nothing: the pull ends done', () => {
    // Two pages: both come in the first wave.
    const s = setup(customers(1, 4));
    s.deps.cancelRequested = () => true;
    const done = s.step(s.state);
    expect(done.status).toBe('done');
    expect(s.ids()).toEqual([1, 2, 3, 4]);
  });
});

describe('a service that does not answer', () => {
  it('is tried again in the next steps from what was written, and fails after three steps in a row, offering to continue', () => {
    const s = setup(customers(1, 30));
    s.service.fault = ({ page }) => (page >= 2 ? timedOut : undefined);
    const first = s.step(s.state);
    expect(first).toMatchObject({ status: 'running', transientFailures: 1, rows: 6 });
    expect(first.message).toMatch(/^O serviço não respondeu a tempo \(.+\)\. A importação tenta de novo na próxima etapa, de onde parou\.$/);
    const second = s.step(first);
    expect(second).toMatchObject({ status: 'running', transientFailures: 2, rows: 6 });
    const third = s.step(second);
    expect(MAX_TRANSIENT_FAILURES).toBe(3);
    expect(third).toMatchObject({ status: 'failed', retryable: true, transientFailures: 0 });
    expect(third.message).toMatch(
      /^O serviço não respondeu em 3 tentativas seguidas \(.+\)\. A importação parou depois da última página gravada; use Continuar quando o serviço voltar\.$/,
    );
    s.service.fault = () => undefined;
    const resumed = s.step(retryImport(third));
    expect(resumed.status).toBe('done');
    expect(s.ids()).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it('a step that wrote pages before the time-out counts one failure, not one more', () => {
    const s = setup(customers(1, 60));
    let cut = 2;
    s.service.fault = ({ page }) => (page >= cut ? timedOut : undefined);
    const first = s.step(s.state);
    expect(first.transientFailures).toBe(1);
    // 20 pages: the next step's first wave (pages 2 to 11) arrives, its second does not.
    cut = 12;
    const second = s.step(first);
    expect(second.transientFailures).toBe(1);
    expect(second.rows).toBe(36);
  });

  it('a pause the service asks for is waited: nothing is asked before it ends, then the pull goes on', () => {
    const s = setup();
    let paused = true;
    s.service.fault = () => (paused ? retryAfter(120) : undefined);
    const first = s.step(s.state);
    expect(first).toMatchObject({ status: 'running', transientFailures: 1 });
    expect(first.notBefore).toBe(s.now() + 120_000);
    expect(first.message).toBe('O serviço pediu uma pausa de 120 s. A importação continua depois dela, de onde parou.');
    paused = false;
    const asked = s.service.asked.length;
    s.tick(60_000);
    expect(s.step(first)).toBe(first);
    expect(s.service.asked.length).toBe(asked);
    s.tick(60_000);
    const done = s.step(first);
    expect(done.status).toBe('done');
    expect(done.notBefore).toBeUndefined();
    // What the pause said is gone once the pull went on.
    expect(done.message).toBeUndefined();
  });

  it('a refused key fails at once, not to be continued as is', () => {
    const s = setup();
    s.service.fault = () => refused(401);
    const state = s.step(s.state);
    expect(state).toMatchObject({ status: 'failed', retryable: false, transientFailures: 0 });
    expect(state.message).toBeTruthy();
  });

  it('a server error fails the run, and Continuar resumes it', () => {
    const s = setup();
    s.service.fault = () => refused(500, 'Erro interno');
    const state = s.step(s.state);
    expect(state).toMatchObject({ status: 'failed', retryable: true });
    expect(retryImport(state)).toMatchObject({ status: 'running', message: undefined, retryable: undefined });
    expect(retryImport(s.state)).toBe(s.state);
  });
});

describe('the listing as the service gives it', () => {
  it('a service that ignores the page number: rows written, the run failed as incomplete, with its warning', () => {
    const s = setup(customers(1, 9));
    s.service.fault = ({ page }) => (page > 0 ? s.service.page('k', 0) : undefined);
    const state = s.step(s.state);
    expect(state.status).toBe('failed');
    expect(state.message).toMatch(/^Importação incompleta: A página 2 repetiu registros já recebidos/);
    expect(state.warnings.some((w) => w.startsWith('A página 2 repetiu'))).toBe(true);
    expect(s.ids()).toEqual([1, 2, 3]);
  });

  it('writes in blocks of the flush size and saves the state after each', () => {
    const s = setup(customers(1, 30));
    const saved: ImportState[] = [];
    s.deps.flushRows = 6;
    s.deps.checkpoint = (x) => saved.push(structuredClone(x));
    s.step(s.state);
    expect(saved[0].rows).toBe(6);
    expect(saved[0].pager).not.toBeNull();
    expect(saved[1].rows).toBeGreaterThan(6);
  });
});

describe('a pull stepped, more cases', () => {
  it('a refused connection (no answer at all, not a time-out) fails at once, to be continued later', () => {
    const s = setup();
    s.service.fault = () => ({ kind: 'network-error', message: 'ECONNREFUSED' });
    const state = s.step(s.state);
    expect(state).toMatchObject({ status: 'failed', retryable: true, transientFailures: 0 });
  });

  it('a refusal midway writes nothing of that step: only a service that did not answer keeps what arrived', () => {
    const s = setup(customers(1, 60));
    s.service.fault = ({ page }) => (page >= 2 ? refused(403, 'Sem permissão') : undefined);
    expect(s.step(s.state).status).toBe('failed');
    expect(s.ids()).toEqual([]);
  });

  it('what a step warned about stays with the run in the steps after it', () => {
    const s = setup(customers(1, 30));
    // Page 1 repeats the first customer of page 0.
    s.service.fault = ({ key, page }) => {
      if (page !== 1) return undefined;
      const answer = s.service.page(key, 1);
      if (answer.kind !== 'response') return answer;
      const body = JSON.parse(answer.body);
      return { ...answer, body: JSON.stringify({ ...body, data: [{ idCliente: 1, razaoSocial: 'Cliente 1' }, ...body.data] }) };
    };
    const first = s.step(s.state, s.now() + 1_500);
    const repeated = 'Alguns registros vieram repetidos entre páginas e foram considerados uma só vez.';
    expect(first.warnings).toContain(repeated);
    const done = s.step(first);
    expect(done.status).toBe('done');
    expect(done.warnings.filter((w) => w === repeated).length).toBe(1);
  });

  it('below the flush size, a step saves its state once, after its last write', () => {
    const s = setup(customers(1, 60));
    const saved: ImportState[] = [];
    s.deps.checkpoint = (x) => saved.push(structuredClone(x));
    s.step(s.state);
    expect(saved.filter((x) => x.status === 'running' && x.settled === undefined).length).toBeLessThanOrEqual(1);
    expect(saved[0].rows).toBe(60);
  });
});

describe('the state a step was given', () => {
  it('is left as it was, children, warnings and settled parts included: a kill before the save keeps the last saved one whole', () => {
    const s = setup(withPhones(1, 30));
    const first = s.step(s.state, s.now() + 1_500);
    expect(first.status).toBe('running');
    expect(first.children.telefones.rows).toBeGreaterThan(0);
    const given: ImportState = { ...first, warnings: ['aviso anterior'], settled: [] };
    const before = structuredClone(given);
    const done = s.step(given);
    expect(done.status).toBe('done');
    expect(done.children.telefones.rows).toBe(30);
    expect(done.settled).toEqual(['sweep', 'child:telefones', 'marks']);
    expect(done.warnings).toEqual(['aviso anterior']);
    expect(given).toEqual(before);
  });
});

describe('a service that stops answering while pages are buffered', () => {
  it('and then fails to write what arrived: the run waits for its next step, which fetches those pages again', () => {
    const s = setup(customers(1, 30));
    s.deps.flushRows = 1_000;
    s.service.fault = ({ page }) => {
      if (page < 4) return undefined;
      // The sheet is gone for writes by the time the wave that fails ends.
      s.sheet().killed = true;
      return timedOut;
    };
    const state = s.step(s.state);
    expect(state).toMatchObject({ status: 'running', transientFailures: 1, rows: 0, pager: null });
    expect(state.message).toMatch(/^O serviço não respondeu a tempo/);
    expect(s.ids()).toEqual([]);
    s.sheet().killed = false;
    s.service.fault = () => undefined;
    expect(s.step(state).status).toBe('done');
    expect(s.ids()).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });
});

describe('a step near its hard limit', () => {
  const table = tableSpec(listing('clientes'));
  // A record may bring a row to each child sheet too: a write is planned as wide as all of them.
  const width = table.columns.length + table.children.reduce((n, c) => n + c.columns.length, 0);
  /** A wave starts only when a round trip at its worst, then the write of what is buffered and what it may bring, fits. */
  const room = (rows: number) => WORST_ROUND_TRIP_MS + writeCostMs(rows, width, FINISH_CALLS);

  it('the first wave (two pages, of an assumed size) starts only with room for the minute and the write after it', () => {
    const need = room(2 * ASSUMED_PAGE_ROWS);
    const fits = setup();
    fits.step(fits.state, fits.now() + 600_000, fits.now() + need + 1);
    expect(fits.service.asked.slice(0, 2).map((q) => q.page)).toEqual([0, 1]);
    const short = setup();
    const state = short.step(short.state, short.now() + 600_000, short.now() + need - 1);
    expect(short.service.asked).toEqual([]);
    expect(state).toMatchObject({ status: 'running', pages: 0, rows: 0, pager: null });
  });

  it('a later wave counts the rows still buffered and the pages it asks, at the size the service gave', () => {
    // Rows are written only at the end of the step: the second wave carries the first wave's six.
    const at = (limitAfter: number) => {
      const s = setup(customers(1, 60));
      s.service.onTrip = () => s.tick(5_000);
      const start = s.now();
      s.step(s.state, start + 600_000, start + 5_000 + limitAfter);
      return s.service.trips;
    };
    // Ten pages of three rows next, after six buffered.
    const need = room(6 + 10 * 3);
    expect(at(need + 1)).toBeGreaterThan(1);
    expect(at(need - 1)).toBe(1);
  });

  it('a failed page is tried again only when the retry and the write after it still end before the limit', () => {
    const run = (slack: number) => {
      const s = setup(customers(1, 3));
      failOnce(s);
      return s.step(s.state, s.now() + 600_000, s.now() + room(2 * ASSUMED_PAGE_ROWS) + slack);
    };
    expect(run(0)).toMatchObject({ status: 'failed', retryable: true });
    expect(run(100_000).status).toBe('done');
  });

  it('without a limit, a failed page is tried again whatever the time', () => {
    const s = setup(customers(1, 3));
    failOnce(s, () => s.tick(10 * 3_600_000));
    s.deps.client = s.deps.client.withLimit(s.now());
    expect(s.step(s.state).status).toBe('done');
  });

  it('stops before a wave that, as slow as the slowest so far, would end past the deadline', () => {
    const waves = (deadlineAfter: number) => {
      const s = setup(customers(1, 90));
      s.step(s.state, s.now() + deadlineAfter);
      return s.service.trips;
    };
    // Each wave lasts a second: a wave starts only if one more after it would still end by the deadline.
    expect(waves(3_000)).toBe(2);
    expect(waves(2_999)).toBe(1);
  });
});

describe('a service that asks for a pause', () => {
  const tooMany = (retryAfter?: string) => ({
    kind: 'response' as const,
    status: 429,
    headers: { 'content-type': 'application/json', ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }) },
    body: '{}',
  });

  it('says the pause in whole seconds, rounded up, and keeps when the run may ask again', () => {
    const s = setup();
    s.service.fault = () => tooMany('90.2');
    const state = s.step(s.state);
    expect(state.message).toBe('O serviço pediu uma pausa de 91 s. A importação continua depois dela, de onde parou.');
    expect(state.notBefore).toBe(s.now() + 90_200);
    expect(state.updatedAt).toBe(s.now());
  });

  it('without saying how long, is tried again in the next step, with no time set to wait for', () => {
    const s = setup();
    s.service.fault = () => tooMany();
    const state = s.step(s.state);
    expect(state).toMatchObject({ status: 'running', transientFailures: 1 });
    expect(state.notBefore).toBeUndefined();
    expect(state.message).toMatch(
      /^O serviço não respondeu a tempo \(O serviço pediu para esperar .*\)\. A importação tenta de novo na próxima etapa, de onde parou\.$/,
    );
    s.service.fault = () => undefined;
    expect(s.step(state).status).toBe('done');
  });
});

describe('a step that writes several blocks', () => {
  it('writes every record once, whatever the flush size', () => {
    const s = setup(customers(1, 30));
    s.deps.flushRows = 6;
    const done = s.step(s.state);
    expect(done).toMatchObject({ status: 'done', rows: 30 });
    expect(s.ids()).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });
});

describe('what the steps of a run warn about', () => {
  it('is said once, however many steps find it again', () => {
    const s = setup(customers(1, 30));
    // Pages 1 and 3 each repeat the first customer of the page before: the first step reads pages 0-1, the second 2-9.
    s.service.fault = ({ key, page }) => {
      if (page !== 1 && page !== 3) return undefined;
      const answer = s.service.page(key, page);
      if (answer.kind !== 'response') return answer;
      const body = JSON.parse(answer.body);
      return { ...answer, body: JSON.stringify({ ...body, data: [{ idCliente: 3 * page - 2, razaoSocial: 'repetido' }, ...body.data] }) };
    };
    const first = s.step(s.state, s.now() + 1_500);
    const repeated = 'Alguns registros vieram repetidos entre páginas e foram considerados uma só vez.';
    expect(first.warnings).toEqual([repeated]);
    const done = s.step(first);
    expect(done.status).toBe('done');
    expect(done.warnings).toEqual([repeated]);
  });
});
