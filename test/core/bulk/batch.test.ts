/**
 * One batch on the wire, against a scripted client: how many times a row may
 * be tried, when the batch stops for the execution's deadline, how a 429's
 * Retry-After is honoured or left for the next step, and how an update whose
 * answer was lost is read back, and sent again only by a later step.
 */
import { describe, expect, it } from 'vitest';
import type { BillingClient } from '../../../src/api/client';
import { RateLimitedError, ServerError } from '../../../src/api/errors';
import { type Item, runBatch } from '../../../src/core/bulk/batch';
import { bulkOperations } from '../../../src/core/bulk/definitions';

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

describe('a batch of updates (PUT, read back when the answer is lost, never sent again in that step)', () => {
  it('a lost answer is read back once and, not found applied, left PENDENTE for a later step: never sent again in this one', () => {
    const clock = { t: 0 };
    const { client, calls, lookups } = scripted([new ServerError(PUT, 500)], clock);
    const out = runBatch(client, op, [item(2), item(3)], { now: () => clock.t, sleep: () => {}, deadline: 60_000, maxAttempts: 3 });
    expect(calls).toEqual([2]);
    expect(lookups).toEqual([2]);
    expect(out.waves).toBe(2);
    expect(out.pending).toEqual([2, 3]);
    expect(out.results.get(2)).toEqual({
      status: 'PENDENTE',
      mensagem: 'Resultado incerto: antes de qualquer reenvio o complemento relê a assinatura e compara com o que foi enviado.',
    });
  });

  it('tries a row the service keeps turning away (429: not processed) at most maxAttempts times, then says to run again', () => {
    const clock = { t: 0 };
    const { client, calls, lookups } = scripted([new RateLimitedError(PUT, 0)], clock);
    const out = runBatch(client, op, [item(2), item(3)], { now: () => clock.t, sleep: () => {}, deadline: 60_000, maxAttempts: 3 });
    expect(calls).toEqual([2, 2, 2]);
    expect(lookups).toEqual([]);
    expect(out.results.get(2)).toMatchObject({ status: 'ERRO' });
    expect(out.results.get(2)?.mensagem).toContain('pode ser repetida');
    expect(out.pending).toEqual([]);
  });

  it('four attempts by default', () => {
    const clock = { t: 0 };
    const { client, calls, lookups } = scripted([new RateLimitedError(PUT, 0)], clock);
    runBatch(client, op, [item(2)], { now: () => clock.t, sleep: () => {}, deadline: 60_000 });
    expect(calls.length).toBe(4);
    expect(lookups.length).toBe(0);
  });

  it('a 500 then a success: the record read back does not hold the update, so it waits for a later step past the safe delay, which reads it back again and sends it', () => {
    const clock = { t: 0 };
    const { client, calls, lookups } = scripted([new ServerError(PUT, 500), 'ok'], clock);
    const options = { now: () => clock.t, sleep: () => {}, deadline: 60_000, safeResendMs: 600_000 };
    const lost = runBatch(client, op, [item(2)], options);
    expect(calls.length).toBe(1);
    expect(lookups.length).toBe(1);
    expect(lost.results.get(2)).toMatchObject({ status: 'PENDENTE' });
    // The row as a later step finds it: PENDENTE since the loss.
    const later = (since: number): Item => ({ ...item(2), mode: 'lookup', reason: 'pendente', since });
    expect(runBatch(client, op, [later(clock.t - 1_000)], options).results.get(2)).toMatchObject({ status: 'PENDENTE' });
    expect(calls.length).toBe(1);
    const out = runBatch(client, op, [later(clock.t - 600_000)], options);
    expect(calls.length).toBe(2);
    expect(lookups.length).toBe(3);
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

  it('stops at the deadline: no round starts after it', () => {
    const clock = { t: 0 };
    const { client, calls, lookups } = scripted([new RateLimitedError(PUT, 0)], clock, 10_000);
    runBatch(client, op, [item(2)], { now: () => clock.t, sleep: () => {}, deadline: 15_000, maxAttempts: 10 });
    expect(calls.length).toBe(2);
    expect(lookups.length).toBe(0);
    expect(clock.t).toBe(20_000);
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

describe('an edit pushed from an imported sheet (its record read before the PUT)', () => {
  const sent: Array<Record<string, unknown>> = [];
  /** What the edit makes of its record: holds when the service has valor 10, a conflict when it has 12, else the service's description kept. */
  const edit = (row: number, reason: Item['reason'], extra: Partial<Item> = {}): Item => ({
    ...item(row),
    mode: 'lookup',
    reason,
    merge: (record) => {
      const valor = record?.valorUnitario;
      if (valor === 10) return { holds: true, body: {} };
      if (valor === 12) return { holds: false, conflict: 'conflito', body: {} };
      return { holds: false, body: { valor: 10, descricaoAssinaturaContrato: `do serviço ${String(record?.descricaoAssinaturaContrato)}` } };
    },
    ...extra,
  });
  const recorded = (client: BillingClient) =>
    ({
      ...client,
      writeMany: (key: string, items: Array<{ body: Record<string, unknown> }>) => {
        sent.push(...items.map((i) => i.body));
        return (client.writeMany as (k: string, i: unknown[]) => unknown)(key, items);
      },
    }) as unknown as BillingClient;
  const options = (clock: { t: number }) => ({ now: () => clock.t, sleep: () => {}, deadline: 600_000, safeResendMs: 600_000 });

  it('reads first and sends the merged body; a record that holds it already, or a conflict, sends nothing', () => {
    for (const [stored, puts, status] of [
      [9, 1, 'OK'],
      [10, 0, 'OK'],
      [12, 0, 'ERRO'],
    ] as const) {
      sent.length = 0;
      const clock = { t: 0 };
      const { client, lookups } = scripted(['ok'], clock, 1_000, stored);
      const out = runBatch(recorded(client), op, [edit(2, 'base')], options(clock));
      expect(lookups).toEqual([1]);
      expect(sent).toHaveLength(puts);
      expect(out.results.get(2)?.status).toBe(status);
      if (puts) expect(sent[0]).toEqual({ valor: 10, descricaoAssinaturaContrato: 'do serviço x' });
      if (status === 'ERRO') expect(out.results.get(2)?.mensagem).toBe('conflito');
    }
  });

  it('says whether the service already had the values when read first, or confirmed them after an uncertain answer', () => {
    for (const [reason, since, said] of [
      ['base', undefined, 'Assinatura atualizada (ID 2): o serviço já tinha estes valores, nada foi enviado.'],
      ['pendente', -1_000, 'Assinatura atualizada (ID 2), confirmada por consulta depois de uma resposta incerta.'],
    ] as const) {
      sent.length = 0;
      const clock = { t: 0 };
      const { client } = scripted(['ok'], clock, 1_000, 10);
      const out = runBatch(recorded(client), op, [edit(2, reason, { since })], options(clock));
      expect(sent).toEqual([]);
      expect(out.results.get(2)).toEqual({ status: 'OK', id: undefined, mensagem: said });
    }
  });

  it('a lost answer is read back and, not found applied, left PENDENTE: never sent again in the same step', () => {
    sent.length = 0;
    const clock = { t: 0 };
    const { client, lookups } = scripted([new ServerError(PUT, 500)], clock, 1_000, 9);
    const out = runBatch(recorded(client), op, [edit(2, 'base')], options(clock));
    expect(sent).toHaveLength(1);
    expect(lookups).toEqual([1, 1]);
    expect(out.pending).toEqual([2]);
    expect(out.results.get(2)).toMatchObject({ status: 'PENDENTE', mensagem: expect.stringMatching(/relê a assinatura/) });
  });

  it('a PENDENTE edit is resent only after the safe delay, and never when its row changed since it was confirmed', () => {
    for (const [since, changed, puts, status] of [
      [-1_000, undefined, 0, 'PENDENTE'],
      [-700_000, undefined, 1, 'OK'],
      [-700_000, 'mudou', 0, 'ERRO'],
    ] as const) {
      sent.length = 0;
      const clock = { t: 0 };
      const { client } = scripted(['ok'], clock, 1_000, 9);
      const out = runBatch(recorded(client), op, [edit(2, 'pendente', { since, changed })], options(clock));
      expect(sent).toHaveLength(puts);
      expect(out.results.get(2)?.status).toBe(status);
      if (changed) expect(out.results.get(2)?.mensagem).toBe('mudou');
    }
  });
});

describe('a creation left PENDENTE whose row changed since it was confirmed', () => {
  it('is looked up and, with nothing found after the safe delay, told instead of sent', () => {
    const clock = { t: 0 };
    const { client, calls, lookups } = scripted(['ok'], clock);
    const creation: Item = { ...item(2), mode: 'lookup', reason: 'pendente', since: -700_000, changed: 'mudou', built: { ...item(2).built, key: 'K-2' } };
    const out = runBatch(client, bulkOperations.criarAssinaturaPersonalizada, [creation], { now: () => clock.t, sleep: () => {}, deadline: 600_000 });
    expect(lookups).toEqual([1]);
    expect(calls).toEqual([]);
    expect(out.results.get(2)).toMatchObject({ status: 'ERRO', mensagem: 'mudou' });
  });
});
