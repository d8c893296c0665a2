/**
 * The hourly check of a sheet that already holds what its listing returns:
 * when every record is on its row as the run would write it, the check is the
 * report's last run and nothing is written; anything else (a record changed,
 * added or gone, a cell or a header of ours edited, child items, a listing
 * longer than the check reads, a failure) leaves the report to its usual run.
 * Only a report pulled whole from one company, whose last run ended well, is
 * checked at all.
 */
import { describe, expect, it } from 'vitest';
import type { Report } from '../../../src/core/reports/reports';
import { SHEET_TAG } from '../../../src/core/sheets/sheet-layout';
import { unchangedRun } from '../../../src/core/hourly/unchanged-run';
import { deriveOnly } from '../bulk/fixtures';
import { customers, refused } from '../fake-service';
import { withPhones } from '../pull/world';
import { HOUR, refresh, runToEnd, type TaggedSheet, type World, world } from '../runs/run-world';

const UNCHANGED = 'Sem mudanças: a aba já tinha exatamente estes dados, e nada foi reescrito.';

/** A scheduled report of `records` pulled to its end an hour ago, and the checks that follow. */
function pulled(records = customers(1, 7), fields: Partial<Report> = {}) {
  const w = world({ k1: records });
  const r = w.report({ schedule: { kind: 'hourly' }, ...fields });
  refresh(w.deps, r.id, 'manual');
  expect(runToEnd(w, r.id).status).toBe('done');
  w.tick(HOUR);
  const sheet = w.book.byName('Clientes') as TaggedSheet;
  const check = (report: Report = w.reports.get(r.id)) => unchangedRun(w.deps, report);
  return { w, r, sheet, check, grid: () => structuredClone(sheet.grid) };
}

/** The check left the report to its usual run: it wrote nothing and recorded nothing. */
function leftToTheRun(w: World, id: string, result: Report | null) {
  expect(result).toBeNull();
  expect(w.reports.get(id).lastRun?.message).toBeUndefined();
}

describe('a sheet that holds what the listing returns', () => {
  it('is left alone: the check, in one round trip, is the last run, OK, on the card but not in Histórico', () => {
    const { w, r, check, grid } = pulled();
    const before = grid();
    const trips = w.service.trips;
    w.reports.save({ ...w.reports.get(r.id), failedRuns: 1 });
    const at = w.now();
    const saved = check();
    expect(saved?.id).toBe(r.id);
    expect(w.service.trips - trips).toBe(1);
    expect(saved?.lastRun).toEqual({
      startedAt: at,
      finishedAt: at + 1_000,
      origin: 'agendado',
      rows: 7,
      durationMs: 1_000,
      result: 'ok',
      message: UNCHANGED,
      incremental: false,
    });
    expect(w.reports.get(r.id)).toMatchObject({ lastSuccessStart: at, failedRuns: 0, lastRun: { message: UNCHANGED } });
    expect(w.reports.get(r.id).pausedUntil).toBeUndefined();
    expect(grid()).toEqual(before);
    expect(w.history()).toHaveLength(1);
    expect(w.after.map((a) => a.id)).toEqual([r.id, r.id]);
  });

  it('dates compare by the moment they hold, card columns only when the report shows them', () => {
    const dated = (day: string, card = '**** 1234') =>
      customers(1, 3).map((c) => ({ ...c, dataCadastro: day, dataHoraCadastro: `${day}T10:30:00`, cartaoCredito: { numeroCartao: card } }));
    const same = pulled(dated('2026-11-01'), { cardData: true });
    expect(same.check()?.lastRun?.message).toBe(UNCHANGED);
    const moved = pulled(dated('2026-11-01'), { cardData: true });
    moved.w.service.companies.k1 = dated('2026-11-02');
    leftToTheRun(moved.w, moved.r.id, moved.check());
    const card = pulled(dated('2026-11-01'), { cardData: true });
    card.w.service.companies.k1 = dated('2026-11-01', '**** 9999');
    leftToTheRun(card.w, card.r.id, card.check());
    // Without card data, the card never reaches the sheet: a new card changes nothing there.
    const hidden = pulled(dated('2026-11-01'));
    hidden.w.service.companies.k1 = dated('2026-11-01', '**** 9999');
    expect(hidden.check()?.lastRun?.message).toBe(UNCHANGED);
  });

  it('of a report saved before runs kept their walk, is read from the start; with no dashboards to refresh, the check still ends', () => {
    const { w, r, check } = pulled();
    w.deps.afterReportRun = undefined;
    expect(check({ ...w.reports.get(r.id), lastWalk: undefined })?.lastRun?.message).toBe(UNCHANGED);
  });

  it('with "Filtros na planilha", holds the records that pass them, and no others', () => {
    const filtered: Partial<Report> = { sheetFilters: [{ field: 'razaoSocial', op: 'lista', values: ['Cliente 2', 'Cliente 5'] }] };
    const same = pulled(customers(1, 7), filtered);
    expect(same.check()?.lastRun).toMatchObject({ result: 'ok', rows: 2, message: UNCHANGED });
    const another = pulled(customers(1, 7), filtered);
    // One more record passes them now: the sheet lacks it.
    another.w.service.companies.k1 = customers(1, 7).map((c) => (c.idCliente === 3 ? { ...c, razaoSocial: 'Cliente 5' } : c));
    leftToTheRun(another.w, another.r.id, another.check());
  });
});

describe('the usual run goes when', () => {
  it('a record changed, came or went', () => {
    for (const listed of [
      customers(1, 7).map((c) => (c.idCliente === 3 ? { ...c, razaoSocial: 'Outro nome' } : c)),
      customers(1, 8),
      customers(2, 6),
      customers(1, 6).concat([{ idCliente: 70, razaoSocial: 'Cliente 7' }]),
    ]) {
      const { w, r, check, grid } = pulled();
      const before = grid();
      w.service.companies.k1 = listed;
      leftToTheRun(w, r.id, check());
      expect(grid()).toEqual(before);
    }
  });

  it('a cell or a header of ours was edited, or a row of someone else is among ours', () => {
    const cell = pulled();
    cell.sheet.write(3, 2, [['Editado']]);
    leftToTheRun(cell.w, cell.r.id, cell.check());
    const header = pulled();
    header.sheet.write(1, 2, [['Nome']]);
    leftToTheRun(header.w, header.r.id, header.check());
    const extra = pulled();
    extra.sheet.write(9, 1, [[99]]);
    leftToTheRun(extra.w, extra.r.id, extra.check());
    const lost = pulled();
    lost.sheet.columns.delete('razaoSocial');
    leftToTheRun(lost.w, lost.r.id, lost.check());
  });

  it('its records have child items, or its sheet has child sheets', () => {
    const items = pulled(customers(1, 7));
    items.w.service.companies.k1 = withPhones(1, 7);
    leftToTheRun(items.w, items.r.id, items.check());
    const children = pulled(withPhones(1, 3));
    children.w.service.companies.k1 = customers(1, 3);
    const trips = children.w.service.trips;
    leftToTheRun(children.w, children.r.id, children.check());
    expect(children.w.service.trips).toBe(trips);
  });

  it('the service fails, or the listing is longer than the check reads', () => {
    const failing = pulled();
    failing.w.service.fault = () => refused(500, 'Erro interno');
    leftToTheRun(failing.w, failing.r.id, failing.check());
    const longer = pulled(customers(1, 7));
    longer.w.service.companies.k1 = customers(1, 3 * 25);
    const before = longer.w.service.trips;
    leftToTheRun(longer.w, longer.r.id, longer.check());
    expect(longer.w.service.trips - before).toBe(2);
    // The service announces more records than it sends: the listing changed while it was read.
    const changing = pulled();
    changing.w.service.fault = ({ key, page }) => {
      const answer = changing.w.service.page(key, page);
      if (answer.kind !== 'response') return answer;
      const body = JSON.parse(answer.body);
      return { ...answer, body: JSON.stringify({ ...body, paging: { ...body.paging, totalRows: 9 } }) };
    };
    leftToTheRun(changing.w, changing.r.id, changing.check());
    // The last walk read 19 pages: the check reads them all, and one more, in two round trips.
    const long = pulled(customers(1, 3 * 19));
    expect(long.w.reports.get(long.r.id).lastWalk?.pages).toBe(19);
    const trips = long.w.service.trips;
    expect(long.check()?.lastRun).toMatchObject({ rows: 57, message: UNCHANGED });
    expect(long.w.service.trips - trips).toBe(2);
  });
});

describe('the check is not made', () => {
  it('for a report pulled incrementally, consolidated, never run, whose last run failed or warned, with a job, or a longer listing', () => {
    const { w, r, check } = pulled(customers(1, 3 * 20));
    const report = w.reports.get(r.id);
    expect(report.lastWalk?.pages).toBe(20);
    const asked = w.service.asked.length;
    const last = report.lastRun as NonNullable<Report['lastRun']>;
    const short = { ...report, lastWalk: { base: report.lastWalk?.base ?? 1, pages: 2 } };
    for (const other of [
      report,
      { ...short, incremental: true },
      { ...short, companies: { all: true, ids: [] } },
      { ...short, sheetId: undefined },
      { ...short, lastRun: undefined },
      { ...short, lastRun: { ...last, result: 'erro' as const } },
      { ...short, lastRun: { ...last, warnings: ['O serviço anunciou 5 registros e chegaram 2: os dados mudaram durante a leitura.'] } },
    ])
      expect(check(other)).toBeNull();
    expect(w.service.asked.length).toBe(asked);
    refresh(w.deps, r.id, 'manual');
    expect(check(short)).toBeNull();
    expect(w.service.asked.length).toBe(asked);
  });

  it('for a sheet that no longer names its report, or was deleted, or a report deleted or taken over meanwhile', () => {
    const retagged = pulled();
    retagged.sheet.setSheetTag(SHEET_TAG, 'relatorio:outro');
    leftToTheRun(retagged.w, retagged.r.id, retagged.check());
    const deleted = pulled();
    deleted.w.book.sheets = deleted.w.book.sheets.filter((s) => s !== deleted.sheet);
    leftToTheRun(deleted.w, deleted.r.id, deleted.check());
    const taken = pulled();
    const asked = taken.w.service.asked.length;
    taken.w.deps.stillStored = () => false;
    leftToTheRun(taken.w, taken.r.id, taken.check());
    expect(taken.w.service.asked.length).toBe(asked);
    taken.w.deps.stillStored = (report) => report.id === taken.r.id;
    expect(taken.check()?.lastRun?.message).toBe(UNCHANGED);
  });
});

describe('the check reads', () => {
  it("its listing through a client derived with the execution's limit, never the connection's own", () => {
    const w = world();
    const r = w.report();
    refresh(w.deps, r.id, 'manual');
    expect(runToEnd(w, r.id).status).toBe('done');
    const limits: Array<number | undefined> = [];
    const limit = w.now() + HOUR;
    const deps = { ...w.deps, limit, clientFor: () => deriveOnly(w.deps.clientFor('k1'), limits) };
    const settled = unchangedRun(deps, w.reports.get(r.id));
    expect(settled?.lastRun?.message).toMatch(/^Sem mudanças/);
    expect(limits).toEqual([limit]);
  });
});
