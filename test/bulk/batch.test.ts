/**
 * One batch on the wire, against a scripted client: how many times a row may
 * be tried, when the batch stops for the execution's deadline, how a 429's
 * Retry-After is honoured or left for the next step, and how an update whose
 * answer was lost is read back before it is sent again.
 */
import { describe, expect, it } from 'vitest';
import type { BillingClient } from '../../src/api/client';
import { RateLimitedError, ServerError } from '../../src/api/errors';
import { type Item, runBatch } from '../../src/core/bulk/batch';
import { bulkOperations } from '../../src/core/bulk/definitions';

const PUT = { method: 'PUT', path: '/v2/assinaturascontratos/personalizado/1' };
const op = bulkOperations.atualizarAssinaturaPersonalizada;
const ok = { ok: true as const, result: { record: { idAssinaturaContrato: 1 }, messages: [] } };

/**
 * Each call of writeMany takes the next answer for every item; the clock moves
 * by `waveMs` per wave (sends and read-backs). A read-back finds the record as
 * `stored` says: with the update applied (valorUnitario 10) or not.
 */
function scripted(answers: Array<'ok' | Error>, clock: { t: number }, waveMs = 1_000, stored = 9) {
  const calls: number[] = [];
  const lookups: number[] = [];
  const client = {
    writeMany: (_key: string, items: unknown[]) => {
      const answer = answers[Math.min(calls.length, answers.length - 1)];
      calls.push(items.length);
      clock.t += waveMs;
      return items.map(() => (answer === 'ok' ? ok : { ok: false as const, error: answer }));
    },
    lookupEach: (_key: string, each: Array<{ idAssinaturaContrato: number }>) => {
      lookups.push(each.length);
      clock.t += waveMs;
      return each.map((f) => ({
        ok: true,
        records: [{ idAssinaturaContrato: f.idAssinaturaContrato, valorUnitario: stored, descricaoAssinaturaContrato: 'x' }],
      }));
    },
  } as unknown as BillingClient;
  return { client, calls, lookups };
}

const item = (row: number): Item => ({
  row,
  built: {
    body: { valor: 10, descricaoAssinaturaContrato: 'x', isAtualizaDiscriminacaoNfse: false, discriminacaoNfse: '' },
    pathId: row,
    key: row,
    needsKey: false,
    issues: [],
  },
  mode: 'send',
  reason: 'new',
  attempts: 0,
});

describe('a batch of updates (PUT, safe to repeat, read back when the answer is lost)', () => {
  it('tries a failing row at most maxAttempts times (sends and read-backs), then says to run again', () => {
    const clock = { t: 0 };
    const { client, calls, lookups } = scripted([new ServerError(PUT, 500)], clock);
    const out = runBatch(client, op, [item(2), item(3)], { now: () => clock.t, sleep: () => {}, deadline: 60_000, maxAttempts: 3 });
    expect(calls).toEqual([2, 2]);
    expect(lookups).toEqual([2]);
    expect(out.results.get(2)).toMatchObject({ status: 'ERRO' });
    expect(out.results.get(2)?.mensagem).toContain('pode ser repetida');
    expect(out.pending).toEqual([]);
  });

  it('four attempts by default: a send, then rounds of read-back and send until the fourth has passed', () => {
    const clock = { t: 0 };
    const { client, calls, lookups } = scripted([new ServerError(PUT, 503)], clock);
    runBatch(client, op, [item(2)], { now: () => clock.t, sleep: () => {}, deadline: 60_000 });
    expect(calls.length).toBe(3);
    expect(lookups.length).toBe(2);
  });

  it('a 500 then a success: the record read back does not hold the update, so it goes again and is OK', () => {
    const clock = { t: 0 };
    const { client, calls, lookups } = scripted([new ServerError(PUT, 500), 'ok'], clock);
    const out = runBatch(client, op, [item(2)], { now: () => clock.t, sleep: () => {}, deadline: 60_000 });
    expect(calls.length).toBe(2);
    expect(lookups.length).toBe(1);
    expect(out.results.get(2)).toMatchObject({ status: 'OK' });
  });

  it('a 500 whose write did happen: the record read back holds the update, nothing is sent again', () => {
    const clock = { t: 0 };
    const { client, calls, lookups } = scripted([new ServerError(PUT, 500), 'ok'], clock, 1_000, 10);
    const out = runBatch(client, op, [item(2)], { now: () => clock.t, sleep: () => {}, deadline: 60_000 });
    expect(calls.length).toBe(1);
    expect(lookups.length).toBe(1);
    expect(out.results.get(2)?.mensagem).toMatch(/confirmada por consulta/);
  });

  it('stops at the deadline: no round (a read-back and its send) starts after it', () => {
    const clock = { t: 0 };
    const { client, calls, lookups } = scripted([new ServerError(PUT, 500)], clock, 10_000);
    runBatch(client, op, [item(2)], { now: () => clock.t, sleep: () => {}, deadline: 15_000, maxAttempts: 10 });
    expect(calls.length).toBe(2);
    expect(lookups.length).toBe(1);
    expect(clock.t).toBe(30_000);
  });

  it("waits the 429's Retry-After, then sends again", () => {
    const clock = { t: 0 };
    const slept: number[] = [];
    const { client, calls } = scripted([new RateLimitedError(PUT, 3_000), 'ok'], clock);
    const out = runBatch(client, op, [item(2)], {
      now: () => clock.t,
      sleep: (ms) => {
        slept.push(ms);
        clock.t += ms;
      },
      deadline: 60_000,
    });
    expect(slept).toEqual([3_000]);
    expect(calls.length).toBe(2);
    expect(out.rateLimited).toBe(true);
    expect(out.results.get(2)).toMatchObject({ status: 'OK' });
  });

  it('a 429 without Retry-After waits two seconds', () => {
    const clock = { t: 0 };
    const slept: number[] = [];
    const { client } = scripted([new RateLimitedError(PUT, undefined), 'ok'], clock);
    runBatch(client, op, [item(2)], { now: () => clock.t, sleep: (ms) => slept.push(ms), deadline: 60_000 });
    expect(slept).toEqual([2_000]);
  });

  it('a Retry-After longer than half of what is left is not waited for inside this step', () => {
    const clock = { t: 0 };
    const slept: number[] = [];
    const { client, calls } = scripted([new RateLimitedError(PUT, 40_000), 'ok'], clock);
    const out = runBatch(client, op, [item(2)], { now: () => clock.t, sleep: (ms) => slept.push(ms), deadline: 60_000 });
    expect(slept).toEqual([]);
    expect(calls.length).toBe(1);
    expect(out.results.get(2)).toMatchObject({ status: 'ERRO' });
  });
});

describe('a batch in chunks of `width` rows', () => {
  it('sends one chunk per round trip, in row order', () => {
    const clock = { t: 0 };
    const { client, calls } = scripted(['ok'], clock);
    const out = runBatch(client, op, [2, 3, 4, 5, 6].map(item), { now: () => clock.t, sleep: () => {}, deadline: 60_000, width: 2 });
    expect(calls).toEqual([2, 2, 1]);
    expect(out.waves).toBe(3);
    expect([...out.results.keys()]).toEqual([2, 3, 4, 5, 6]);
    expect(out.unsent).toEqual([]);
  });

  it('past the soft deadline no further chunk starts: its rows are left unsent, not PENDENTE', () => {
    const clock = { t: 0 };
    const { client, calls } = scripted(['ok'], clock, 10_000);
    const out = runBatch(client, op, [2, 3, 4, 5, 6].map(item), { now: () => clock.t, sleep: () => {}, deadline: 15_000, width: 2 });
    expect(calls).toEqual([2, 2]);
    expect(out.unsent).toEqual([6]);
    expect(out.results.has(6)).toBe(false);
    expect(out.pending).toEqual([]);
  });

  it('a later chunk starts only if its lookup and its send, each hanging a minute, end before the limit', () => {
    const clock = { t: 0 };
    const { client, calls } = scripted(['ok'], clock, 1_000);
    const out = runBatch(client, op, [2, 3, 4].map(item), { now: () => clock.t, sleep: () => {}, deadline: 600_000, limit: 120_500, width: 1 });
    expect(calls).toEqual([1]);
    expect(out.unsent).toEqual([3, 4]);
  });

  it('a 429 ends the batch: the rest waits for a narrower wave', () => {
    const clock = { t: 0 };
    const { client, calls } = scripted([new RateLimitedError(PUT, 60_000)], clock);
    const out = runBatch(client, op, [2, 3, 4].map(item), { now: () => clock.t, sleep: () => {}, deadline: 30_000, width: 1 });
    expect(calls).toEqual([1]);
    expect(out.rateLimited).toBe(true);
    expect(out.unsent).toEqual([3, 4]);
  });
});
