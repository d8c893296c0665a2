/**
 * One company's pull stepped through its ports, without the sandbox: waves
 * until the listing ends or the step's time does, a service that does not
 * answer or asks for a pause waited for across steps, failures that the user
 * can continue, a cancel between waves, and the sheet's rows each written once.
 */
import { describe, expect, it } from 'vitest';
import {
  cancelImport,
  type ImportDeps,
  type ImportState,
  importedRows,
  MAX_TRANSIENT_FAILURES,
  retryImport,
  startImport,
  stepImport,
} from '../../src/core/import-job';
import { MemoryBook, type MemorySheet } from '../bulk/memory-book';
import { customers, FakeService, refused, timedOut, zone } from './fake-service';

const T0 = Date.UTC(2026, 10, 22, 15);

function setup(records = customers(1, 7)) {
  const service = new FakeService({ k: records });
  const book = new MemoryBook();
  let clock = T0;
  service.onTrip = () => {
    clock += 1_000;
  };
  const now = () => clock;
  const deps: ImportDeps = { client: service.client('k', now), book, zone, now };
  const state = startImport({ listing: 'clientes', filters: {}, sheetName: 'Clientes', mode: 'replace' }, deps);
  // By the id column's label (the first header carries the incomplete mark while the run is not done).
  const ids = () => {
    const sheet = book.byId(state.sheetId) as MemorySheet;
    const at = sheet.grid[0].findIndex((h) => String(h).endsWith('ID do cliente'));
    return sheet.grid.slice(1, sheet.lastRow()).map((r) => r[at]);
  };
  const step = (s: ImportState, deadline = clock + 600_000, limit?: number) => stepImport(s, deps, { deadline, limit });
  return { service, book, deps, state, ids, step, now, tick: (ms: number) => (clock += ms) };
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

  it('the cell check counts the rows the service announced, not only those of the first pages', () => {
    const s = setup(customers(1, 30));
    // Room for the first pages' rows, not for all thirty.
    s.book.totalCells = () => 10_000_000 - 700;
    const state = s.step(s.state);
    expect(state.status).toBe('failed');
    expect(state.retryable).toBe(false);
    expect(state.message).toMatch(/^Esta importação levaria a planilha a /);
    expect(s.ids()).toEqual([]);
  });
});
