/**
 * Consolidated pulls through their ports, without the emulator: several
 * companies (API keys of a small fake service) walked in shared round trips
 * into one sheet, each keeping its own place, failing alone and resting when
 * its service does not answer.
 */
import { describe, expect, it } from 'vitest';
import { WORST_ROUND_TRIP_MS } from '../../../src/api/http';
import { listing } from '../../../src/api/operations';
import { writeCostMs } from '../../../src/core/deadline';
import { ASSUMED_PAGE_ROWS, type CompanySpec, FINISH_CALLS, type ImportState, retryImport } from '../../../src/core/pull/state';
import { shareWave } from '../../../src/core/pull/wave-share';
import { tableSpec } from '../../../src/core/sheets/table';
import { customers, type FakeService, refused, timedOut } from '../fake-service';
import { company, world, startLooked } from './world';

function setup(companies: Record<string, Array<Record<string, unknown>>>, names = Object.keys(companies)) {
  const w = world(companies);
  const state = w.start({ companies: names.map((id) => company(id)) });
  // By label, whatever mark the first header carries while the sheet is incomplete.
  const rows = () => {
    const grid = w.sheet().grid;
    const at = (label: string) => grid[0].findIndex((h) => String(h).endsWith(label));
    return grid.slice(1, w.sheet().lastRow()).map((r) => `${r[at('Empresa')]}|${r[at('ID do cliente')]}`);
  };
  return { ...w, state, rows, checkpoints: w.saved };
}

const step = (s: ReturnType<typeof setup>, state: ImportState, deadline = s.now() + 600_000, limit?: number) => s.step(state, { deadline, limit });

describe('sharing a wave between companies', () => {
  it('gives each first wave its two pages, then shares the rest in turn, never more than a company has left', () => {
    expect(
      shareWave([
        { pages: 2, first: true },
        { pages: 2, first: true },
        { pages: 2, first: true },
      ]),
    ).toEqual([2, 2, 2]);
    expect(
      shareWave([
        { pages: 10, first: false },
        { pages: 10, first: false },
        { pages: 1, first: false },
      ]),
    ).toEqual([5, 4, 1]);
    expect(
      shareWave([
        { pages: 10, first: false },
        { pages: 2, first: true },
      ]),
    ).toEqual([8, 2]);
  });

  it('a company with no pages left asks none, even on its first wave', () => {
    expect(
      shareWave([
        { pages: 0, first: true },
        { pages: 10, first: false },
      ]),
    ).toEqual([0, 10]);
  });

  it('a first wave that no longer fits waits for the next one', () => {
    const wants = Array.from({ length: 6 }, () => ({ pages: 2, first: true }));
    expect(shareWave(wants)).toEqual([2, 2, 2, 2, 2, 0]);
    expect(shareWave(wants).reduce((a, b) => a + b, 0)).toBe(10);
  });
});

describe('a consolidated pull', () => {
  it('writes every record of each company once, Empresa first, and ends done', () => {
    const s = setup({ a: customers(1, 7), b: customers(1, 2) });
    const done = step(s, s.state);
    expect(done.status).toBe('done');
    expect(s.rows().sort()).toEqual([...[1, 2, 3, 4, 5, 6, 7].map((i) => `Empresa a|${i}`), 'Empresa b|1', 'Empresa b|2'].sort());
    expect(done.companies?.map((c) => [c.status, c.rows])).toEqual([
      ['done', 7],
      ['done', 2],
    ]);
    expect(done.rows).toBe(9);
    expect(done.totalRows).toBe(9);
    expect(done.steps).toBe(1);
    expect(done.message).toBeUndefined();
  });
});

describe('companies in shared round trips', () => {
  it('asks every company its first two pages in one round trip, then shares the waves', () => {
    const s = setup({ a: customers(1, 30), b: customers(1, 30) });
    step(s, s.state);
    const first = s.service.asked.slice(0, 4);
    expect(first.map((q) => `${q.key}${q.page}`).sort()).toEqual(['a0', 'a1', 'b0', 'b1']);
    // 10 pages each: 2 + 2 in the first trip, then 8 + 8 shared by ten, so three trips more.
    expect(s.service.trips).toBe(3);
    expect(s.service.asked.length).toBe(20);
  });
});

describe('a company that fails', () => {
  it('a refused key fails alone: the others are written and the run ends partial, naming the company', () => {
    const s = setup({ a: customers(1, 4), c: customers(10, 2) }, ['a', 'b', 'c']);
    const done = step(s, s.state);
    expect(done.status).toBe('done');
    expect(done.companies?.map((c) => c.status)).toEqual(['done', 'failed', 'done']);
    expect(done.companies?.[1].retryable).toBe(false);
    expect(done.partial).toMatch(/^Uma empresa falhou — "Empresa b": /);
    expect(done.message).toBe(done.partial);
    expect(s.rows().filter((r) => r.startsWith('Empresa b'))).toEqual([]);
    expect(s.rows().length).toBe(6);
  });

  it('a connection the owner deleted fails alone, before anything is asked of it', () => {
    const s = setup({ a: customers(1, 4), b: customers(1, 2) });
    const clientFor = s.deps.clientFor as (id: string) => ReturnType<FakeService['client']>;
    s.deps.clientFor = (id) => {
      if (id === 'b') throw new Error('A conexão "b" não existe mais.');
      return clientFor(id);
    };
    const done = step(s, s.state);
    expect(done.status).toBe('done');
    expect(done.companies?.[1]).toMatchObject({ status: 'failed', message: 'A conexão "b" não existe mais.' });
    expect(done.partial).toContain('"Empresa b": A conexão "b" não existe mais');
    expect(s.service.asked.every((q) => q.key === 'a')).toBe(true);
  });

  it('when every company fails the run fails, saying each, and offers to continue only if one could', () => {
    const s = setup({}, ['a', 'b']);
    const failed = step(s, s.state);
    expect(failed.status).toBe('failed');
    expect(failed.retryable).toBe(false);
    expect(failed.message).toMatch(/^2 empresas falharam — "Empresa a": .*; "Empresa b": /);
    expect(failed.partial).toBeUndefined();

    const t = setup({ a: customers(1, 3) }, ['a', 'b']);
    t.service.fault = ({ key }) => (key === 'a' ? refused(500, 'Erro interno') : undefined);
    const both = step(t, t.state);
    expect(both.status).toBe('failed');
    expect(both.companies?.map((c) => c.retryable)).toEqual([true, false]);
    expect(both.retryable).toBe(true);
  });

  it('a company whose service does not answer rests until the next step, the others go on, and it catches up from where it was', () => {
    const s = setup({ a: customers(1, 9), b: customers(1, 9) });
    let silent = true;
    s.service.fault = ({ key, page }) => (silent && key === 'b' && page >= 2 ? timedOut : undefined);
    const first = step(s, s.state);
    expect(first.status).toBe('running');
    expect(first.companies?.map((c) => c.status)).toEqual(['done', 'running']);
    expect(first.companies?.[1].transientFailures).toBe(1);
    expect(first.companies?.[1].rows).toBe(6);
    expect(first.message).toMatch(/^Empresa b: O serviço não respondeu a tempo \(.+\)\. A empresa tenta de novo na próxima etapa, de onde parou\.$/);
    silent = false;
    const asked = s.service.asked.length;
    const done = step(s, first);
    expect(done.status).toBe('done');
    expect(s.service.asked.slice(asked).map((q) => `${q.key}${q.page}`)).toEqual(['b2']);
    expect(s.rows().filter((r) => r.startsWith('Empresa b')).length).toBe(9);
    expect(new Set(s.rows()).size).toBe(18);
    expect(done.companies?.[1].transientFailures).toBe(0);
  });

  it('a company that never answers fails after three steps in a row, the run ending partial', () => {
    const s = setup({ a: customers(1, 2), b: customers(1, 2) });
    s.service.fault = ({ key }) => (key === 'b' ? timedOut : undefined);
    let state = step(s, s.state);
    expect(state.companies?.[1]).toMatchObject({ status: 'running', transientFailures: 1 });
    state = step(s, state);
    expect(state.companies?.[1]).toMatchObject({ status: 'running', transientFailures: 2 });
    state = step(s, state);
    expect(state.companies?.[1]).toMatchObject({ status: 'failed', transientFailures: 0, retryable: true });
    expect(state.companies?.[1].message).toMatch(/^O serviço não respondeu em 3 tentativas seguidas \(.+\)\.$/);
    expect(state.status).toBe('done');
    expect(state.partial).toContain('"Empresa b": O serviço não respondeu em 3 tentativas seguidas');
  });

  it('a company whose service asks for a long pause rests and says so', () => {
    const s = setup({ a: customers(1, 2), b: customers(1, 2) });
    s.service.fault = ({ key }) =>
      key === 'b' ? { kind: 'response', status: 429, headers: { 'retry-after': '3600', 'content-type': 'application/json' }, body: '{}' } : undefined;
    const state = step(s, s.state);
    expect(state.status).toBe('running');
    expect(state.companies?.[1]).toMatchObject({ status: 'running', transientFailures: 1 });
    expect(state.message).toBe('Empresa b: O serviço pediu uma pausa. A empresa continua na próxima etapa, de onde parou.');
  });
});

describe('a consolidated pull over several steps', () => {
  it('a step ends before its deadline leaves no room for another wave; the next resumes each company from its own place', () => {
    const s = setup({ a: customers(1, 40), b: customers(100, 10) });
    // A wave lasts a second: the first step has room for one wave only.
    const first = step(s, s.state, s.now() + 1_500);
    expect(first.status).toBe('running');
    expect(s.service.trips).toBe(1);
    expect(first.companies?.map((c) => c.pages)).toEqual([2, 2]);
    expect(first.companies?.map((c) => c.rows)).toEqual([6, 6]);
    expect(first.pages).toBe(4);
    let state = first;
    for (let i = 0; i < 20 && state.status === 'running'; i++) state = step(s, state, s.now() + 1_500);
    expect(state.status).toBe('done');
    expect(state.steps).toBe(3);
    expect(s.rows().length).toBe(50);
    expect(new Set(s.rows()).size).toBe(50);
    expect(state.companies?.map((c) => c.pages)).toEqual([14, 4]);
    expect(s.service.asked.length).toBe(18);
  });

  it('a step whose deadline has passed asks nothing', () => {
    const s = setup({ a: customers(1, 4) });
    const state = step(s, s.state, s.now() + 600_000, s.now() + 1_000);
    expect(s.service.asked).toEqual([]);
    expect(state.status).toBe('running');
    expect(state.steps).toBe(1);
    expect(state.companies?.[0].status).toBe('running');
  });

  it('with a hard limit, a wave starts only if its worst case and the write of what it brings still fit', () => {
    const s = setup({ a: customers(1, 4) });
    // A minute for the round trip at its worst is more than the limit leaves.
    step(s, s.state, s.now() + 600_000, s.now() + 59_000);
    expect(s.service.asked).toEqual([]);
    const done = step(s, s.state, s.now() + 600_000, s.now() + 300_000);
    expect(done.status).toBe('done');
  });

  it('writes in blocks of the flush size, saving the state after each so a killed execution resumes after what it wrote', () => {
    const s = setup({ a: customers(1, 12), b: customers(1, 12) });
    s.deps.flushRows = 6;
    const done = step(s, s.state);
    expect(done.status).toBe('done');
    // Each wave brings 12 rows (two pages of each company), more than the flush size: written after each wave.
    const firstSaved = s.checkpoints[0];
    expect(firstSaved.rows).toBe(12);
    expect(s.checkpoints[1].rows).toBe(24);
    expect(firstSaved.companies?.some((c) => c.pager !== null)).toBe(true);
    // Resuming from that checkpoint writes the rest, each record once.
    const again = step(s, firstSaved);
    expect(again.status).toBe('done');
    expect(s.rows().length).toBe(24);
    expect(new Set(s.rows()).size).toBe(24);
  });

  it('without a flush size reached, everything is written once at the end of the step', () => {
    const s = setup({ a: customers(1, 12), b: customers(1, 12) });
    step(s, s.state);
    expect(s.checkpoints[0].rows).toBe(24);
  });

  it('a cancel asked between waves stops the run there, with what was fetched written', () => {
    const s = setup({ a: customers(1, 40), b: customers(1, 40) });
    s.deps.cancelRequested = () => s.service.trips >= 1;
    const state = step(s, s.state);
    expect(state.status).toBe('cancelled');
    expect(s.service.trips).toBe(1);
    expect(s.rows().length).toBe(12);
    expect(state.message).toMatch(/^Importação cancelada com 12 linhas gravadas/);
  });

  it('a cancel asked after the last wave changes nothing: the run ends done', () => {
    const s = setup({ a: customers(1, 2) });
    s.deps.cancelRequested = () => true;
    expect(step(s, s.state).status).toBe('done');
  });

  it('a company that times out after some pages keeps them written, and counts one failure', () => {
    const s = setup({ a: customers(1, 30) });
    s.service.fault = ({ page }) => (page === 3 ? timedOut : undefined);
    const state = step(s, s.state);
    expect(state.status).toBe('running');
    expect(state.companies?.[0]).toMatchObject({ status: 'running', transientFailures: 1 });
    expect(s.rows().length).toBe(state.companies?.[0].rows);
    expect(s.rows().length).toBeGreaterThanOrEqual(6);
    s.service.fault = () => undefined;
    const done = step(s, state);
    expect(done.status).toBe('done');
    expect(s.rows().length).toBe(30);
    expect(new Set(s.rows()).size).toBe(30);
  });

  it('a sheet deleted mid-run fails the whole run, not to be continued as is', () => {
    const s = setup({ a: customers(1, 30) });
    s.deps.flushRows = 3;
    s.service.fault = ({ page }) => {
      if (page === 2) s.sheet().killed = true;
      return undefined;
    };
    const state = step(s, s.state);
    expect(state.status).toBe('failed');
    expect(state.retryable).toBe(false);
    expect(state.message).toBeTruthy();
  });

  it('a run that is not running, or not consolidated, is left as it is', () => {
    const s = setup({ a: customers(1, 3) });
    const cancelled = { ...s.state, status: 'cancelled' as const };
    expect(step(s, cancelled)).toBe(cancelled);
    const single = { ...s.state, companies: undefined };
    expect(step(s, single)).toBe(single);
    expect(s.service.asked).toEqual([]);
  });

  it('a report with no connection of its runner fails saying where to add one', () => {
    const s = setup({}, []);
    const state = step(s, s.state);
    expect(state.status).toBe('failed');
    expect(state.message).toBe('Este relatório consolidado não tem nenhuma conexão de quem o executa: adicione conexões em Faturamento › Conexões.');
  });
});

describe("what a company's walk says", () => {
  it('a company whose service ignores the page number ends incomplete and failed, its warning named by company', () => {
    const s = setup({ a: customers(1, 4), b: customers(1, 9) });
    s.service.fault = ({ key, page }) => (key === 'b' && page > 0 ? s.service.page('b', 0) : undefined);
    const state = step(s, s.state);
    expect(state.status).toBe('done');
    expect(state.companies?.[1].status).toBe('failed');
    expect(state.companies?.[1].message).toMatch(/^Importação incompleta: A página 2 repetiu registros já recebidos/);
    expect(state.warnings).toContain(
      'Empresa b: A página 2 repetiu registros já recebidos: o serviço parece ignorar o parâmetro de página. A leitura parou aqui.',
    );
    expect(state.partial).toContain('"Empresa b": Importação incompleta');
    // The same warning is not repeated by a later step of the run.
    const again = step(s, { ...state, status: 'running', companies: state.companies?.map((c) => ({ ...c, status: 'running' })) });
    expect(again.warnings.filter((w) => w.startsWith('Empresa b: A página 2')).length).toBe(1);
  });
});

describe('what a step leaves alone', () => {
  it('the state it was given is not changed: a kill before the save keeps the last saved one whole', () => {
    const s = setup({ a: customers(1, 9), b: customers(1, 9) });
    s.service.fault = ({ key, page }) => (key === 'b' && page >= 2 ? timedOut : undefined);
    const first = step(s, s.state, s.now() + 1_500);
    const before = structuredClone(first);
    step(s, first);
    expect(first).toEqual(before);
  });
});

describe('a step near its hard limit', () => {
  /** The smallest limit (ms after the step starts) at which a first wave of one company starts. */
  function threshold(): number {
    let lo = 0;
    let hi = 600_000;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      const s = setup({ a: customers(1, 30) });
      step(s, s.state, s.now() + 600_000, s.now() + mid);
      if (s.service.asked.length > 0) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  it('a wave starts only with room for a minute-long round trip and the write of what it may bring', () => {
    expect(threshold()).toBeGreaterThan(61_000);
  });

  it("the write a first wave may bring is two pages of rows as wide as every sheet's, Empresa and the connection included", () => {
    const table = tableSpec(listing('clientes'));
    const width = 2 + table.columns.length + table.children.reduce((n, c) => n + 2 + c.columns.length, 0);
    expect(threshold()).toBe(WORST_ROUND_TRIP_MS + writeCostMs(2 * ASSUMED_PAGE_ROWS, width, FINISH_CALLS));
  });

  it('a failed page is tried again only when the retry still ends before the limit, with the write after it', () => {
    const at = threshold();
    const run = (limit: number) => {
      const s = setup({ a: customers(1, 3) });
      s.deps.clientFor = (id) => s.service.client(id, s.now, 1);
      let failed = false;
      s.service.fault = ({ page }) => {
        if (page !== 0 || failed) return undefined;
        failed = true;
        return refused(503, 'Indisponível');
      };
      return step(s, s.state, s.now() + 600_000, s.now() + limit);
    };
    expect(run(at + 5_000).status).toBe('done');
    const tight = run(at);
    expect(tight.status).toBe('failed');
    expect(tight.retryable).toBe(true);
  });

  it('more than five companies: the first round trip takes the first five, the sixth starts in the next', () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    const s = setup(Object.fromEntries(names.map((n) => [n, customers(1, 3)])));
    const done = step(s, s.state);
    expect(done.status).toBe('done');
    const first = s.service.asked.filter((q) => q.trip === 1);
    expect(first.length).toBe(10);
    expect(first.map((q) => q.key)).not.toContain('f');
    expect(s.service.asked.filter((q) => q.trip === 2 && q.key === 'f').length).toBe(2);
    expect(s.rows().length).toBe(18);
  });
});

describe('a consolidated step, edges', () => {
  it('a company done in an earlier step is not touched again, even with its connection gone since', () => {
    const s = setup({ a: customers(1, 3), b: customers(1, 9) });
    s.service.fault = ({ key, page }) => (key === 'b' && page >= 2 ? timedOut : undefined);
    const first = step(s, s.state);
    expect(first.companies?.[0].status).toBe('done');
    s.service.fault = () => undefined;
    const clientFor = s.deps.clientFor as (id: string) => ReturnType<FakeService['client']>;
    s.deps.clientFor = (id) => {
      if (id === 'a') throw new Error('A conexão "a" não existe mais.');
      return clientFor(id);
    };
    const done = step(s, first);
    expect(done.companies?.map((c) => c.status)).toEqual(['done', 'done']);
    expect(done.partial).toBeUndefined();
  });

  it('while one company rests, the run says only what it waits for, not what failed', () => {
    const s = setup({ a: customers(1, 3), c: customers(1, 9) }, ['a', 'b', 'c']);
    s.service.fault = ({ key, page }) => (key === 'c' && page >= 2 ? timedOut : undefined);
    const state = step(s, s.state);
    expect(state.status).toBe('running');
    expect(state.message).toMatch(/^Empresa c: O serviço não respondeu a tempo/);
    expect(state.message).not.toContain('Empresa b');
  });

  it('a step that writes nothing saves nothing, and a state saver is not required', () => {
    const s = setup({ a: customers(1, 3) });
    // No wave fits before the hard limit: past the soft deadline alone, the first wave would still start.
    step(s, s.state, s.now() - 1, s.now());
    expect(s.checkpoints).toEqual([]);
    s.deps.checkpoint = undefined;
    expect(step(s, s.state).status).toBe('done');
  });

  it('a wave may start when the one after it would end exactly at the deadline', () => {
    const s = setup({ a: customers(1, 90) });
    // Each wave lasts a second: the second starts at 1 s, and one more after it would end at 3 s.
    step(s, s.state, s.now() + 3_000);
    expect(s.service.trips).toBe(2);
  });

  it('a block is written as soon as the rows buffered reach the flush size', () => {
    const s = setup({ a: customers(1, 12), b: customers(1, 12) });
    s.deps.flushRows = 12;
    step(s, s.state);
    expect(s.checkpoints[0].rows).toBe(12);
  });

  it('child sheets written in one step are kept track of in the next', () => {
    const withPhones = (from: number, n: number) =>
      customers(from, n).map((c, i) => ({ ...c, telefones: [{ numero: `1199999000${i}` }, { numero: `1188888000${i}` }] }));
    const s = setup({ a: withPhones(1, 9), b: withPhones(1, 3) });
    let state = step(s, s.state, s.now() + 1_500);
    const field = Object.keys(state.children)[0];
    expect(field).toBeDefined();
    const firstRows = state.children[field].rows;
    // The first round trip: six customers of a and three of b, two phones each.
    expect(firstRows).toBe(18);
    for (let i = 0; i < 5 && state.status === 'running'; i++) state = step(s, state, s.now() + 1_500);
    expect(state.status).toBe('done');
    expect(state.children[field].rows).toBe(24);
    const child = s.book.watched(state.children[field].sheetId);
    expect(child.lastRow()).toBe(25);
  });
});

describe('what a consolidated run says while its companies walk', () => {
  it('nothing while they only ran out of time; each resting company by name, one after the other', () => {
    const s = setup({ a: customers(1, 40), b: customers(1, 40) });
    const first = step(s, s.state, s.now() + 1_500);
    expect(first.status).toBe('running');
    expect(first.message).toBeUndefined();
    s.service.fault = () => timedOut;
    const second = step(s, first);
    const rests = (name: string) => `${name}: O serviço não respondeu a tempo \\(.+\\)\\. A empresa tenta de novo na próxima etapa, de onde parou\\.`;
    expect(second.message).toMatch(new RegExp(`^${rests('Empresa a')} ${rests('Empresa b')}$`));
  });
});

describe('a later run of the same consolidated sheet', () => {
  it('a connection renamed since: its rows follow the new name even when this run could not refresh them', () => {
    const s = setup({ a: customers(1, 2), b: customers(1, 2) });
    expect(step(s, s.state).status).toBe('done');
    s.service.fault = ({ key }) => (key === 'b' ? refused(401) : undefined);
    const renamed: CompanySpec[] = [
      { id: 'a', name: 'Empresa a', filters: {}, mode: 'replace' },
      { id: 'b', name: 'Beta Ltda', filters: {}, mode: 'replace' },
    ];
    const again = startLooked(
      { listing: 'clientes', filters: {}, sheetName: 'Clientes', sheetId: s.state.sheetId, mode: 'replace', companies: renamed },
      s.deps,
    );
    const done = step(s, again);
    expect(done.status).toBe('done');
    expect(done.partial).toContain('"Beta Ltda"');
    expect(s.rows().sort()).toEqual(['Beta Ltda|1', 'Beta Ltda|2', 'Empresa a|1', 'Empresa a|2']);
  });

  it('Continuar after every company failed: the failed ones walk again from where they were, the others stay done', () => {
    const s = setup({ a: customers(1, 3), b: customers(1, 3) });
    s.service.fault = () => refused(503, 'Indisponível');
    const failed = step(s, s.state);
    expect(failed.status).toBe('failed');
    const retried = retryImport(failed);
    expect(retried.companies?.map((c) => [c.status, c.message, c.retryable])).toEqual([
      ['running', undefined, undefined],
      ['running', undefined, undefined],
    ]);
    s.service.fault = () => undefined;
    expect(step(s, retried).status).toBe('done');
    expect(s.rows().length).toBe(6);
  });
});

describe('a listing in hand', () => {
  it("is one company's: a consolidated pull walks each company's listing itself", () => {
    const s = setup({ a: customers(1, 4), b: customers(1, 4) });
    const inHand = {
      listing: 'clientes' as const,
      filters: {},
      pages: [{ number: 0, records: customers(100, 2), paging: {} }],
      pager: { base: 0 as const, next: 1, done: true, fetchedPages: 1, fetchedRecords: 2, totalRows: 2 },
    };
    const done = s.step(s.state, { deadline: s.now() + 600_000, inHand });
    expect(done.status).toBe('done');
    const each = (name: string) => [1, 2, 3, 4].map((id) => `${name}|${id}`);
    expect(s.rows().sort()).toEqual([...each('Empresa a'), ...each('Empresa b')]);
  });
});
