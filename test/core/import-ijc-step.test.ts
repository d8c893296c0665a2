/**
 * One company's pull stepped, at its edges: what a cancel and a retry say and
 * keep, which failures a later step can get past, the state a step was given
 * left as it was, and a service that fails while what arrived is written.
 */
import { describe, expect, it } from 'vitest';
import { NetworkError, RateLimitedError } from '../../src/api/errors';
import { WORST_ROUND_TRIP_MS } from '../../src/api/http';
import { listing } from '../../src/api/operations';
import { writeCostMs } from '../../src/core/deadline';
import { ASSUMED_PAGE_ROWS, cancelImport, FINISH_CALLS, type ImportState, importedRows, retryImport, transient } from '../../src/core/import-job';
import { tableSpec } from '../../src/core/table';
import { customers, timedOut } from './fake-service';
import { column, withPhones, world } from './import-ijc-world';

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

  it('a cancel asked after the last page changes nothing: the pull ends done', () => {
    // Two pages: both come in the first wave.
    const s = setup(customers(1, 4));
    s.deps.cancelRequested = () => true;
    const done = s.step(s.state);
    expect(done.status).toBe('done');
    expect(s.ids()).toEqual([1, 2, 3, 4]);
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
    s.deps.client.http.deadline = s.now();
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

describe('a refresh into a sheet the user sorted', () => {
  it('writes each record on the row of its id, however far down the rows are and in whatever order', () => {
    const s = setup(customers(1, 12));
    expect(s.step(s.state).status).toBe('done');
    const sheet = s.sheet();
    sheet.grid = [sheet.grid[0], ...sheet.grid.slice(1, 13).reverse()];
    s.service.companies.k = customers(1, 12, 'Novo');
    const merged = s.run({ mode: 'merge' });
    expect(merged).toMatchObject({ status: 'done', merged: 12 });
    expect(s.ids()).toEqual(Array.from({ length: 12 }, (_, i) => 12 - i));
    expect(column(sheet, 'Razão social')).toEqual(Array.from({ length: 12 }, (_, i) => `Novo ${12 - i}`));
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

  it('refuses before writing anything when the total the service announced would not fit, even if the first blocks would', () => {
    const s = setup(customers(1, 30));
    s.deps.flushRows = 6;
    // Room for a dozen rows or so, not for thirty.
    s.book.totalCells = () => 10_000_000 - 700;
    const state = s.step(s.state);
    expect(state).toMatchObject({ status: 'failed', retryable: false, rows: 0 });
    expect(state.message).toMatch(/^Esta importação levaria a planilha a /);
    expect(s.ids()).toEqual([]);
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
