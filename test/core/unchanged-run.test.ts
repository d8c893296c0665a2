/**
 * A due report whose sheet already holds what its listing returns is settled
 * without a run (unchanged-run.ts); the end-to-end cases are in the add-on's
 * schedule tests. Here: the listing is read within the execution's limit.
 */
import { describe, expect, it } from 'vitest';
import { startRun } from '../../src/core/report-runs';
import { unchangedRun } from '../../src/core/unchanged-run';
import { deriveOnly } from '../bulk/fixtures';
import { HOUR, runToEnd, world } from './run-world';

describe('a report found unchanged', () => {
  it("reads its listing through a client derived with the execution's limit, never the connection's own", () => {
    const w = world();
    const r = w.report();
    startRun(w.deps, r.id, 'manual');
    expect(runToEnd(w, r.id).status).toBe('done');
    const limits: Array<number | undefined> = [];
    const limit = w.now() + HOUR;
    const deps = { ...w.deps, limit, clientFor: () => deriveOnly(w.deps.clientFor('k1'), limits) };
    const settled = unchangedRun(deps, w.reports.get(r.id));
    expect(settled?.lastRun?.message).toMatch(/^Sem mudanças/);
    expect(limits).toEqual([limit]);
  });
});
