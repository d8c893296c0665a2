/**
 * One batch of note emissions and subscription creations, with the real client
 * over a scripted transport: what the service answers to each request decides
 * each row's status and message. Unknown outcomes are looked up before
 * anything is sent again; a refused emission is checked against the notes the
 * invoice already has; a write that may have happened is never sent twice.
 */
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { BillingClient } from '../../../src/api/client';
import type { HttpOutcome, HttpRequest, Transport } from '../../../src/api/transport';
import { type BatchOptions, type Item, type ItemReason, runBatch, SAFE_RESEND_MS } from '../../../src/core/bulk/batch';
import { bulkOperations } from '../../../src/core/bulk/definitions';
import type { BuiltRow, RowIssue } from '../../../src/core/bulk/rows';

type Answer = HttpOutcome | ((req: HttpRequest) => HttpOutcome);
const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpOutcome => ({
  kind: 'response',
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const lost: HttpOutcome = { kind: 'network-error', message: 'connection reset' };
const note = (idFatura: number, id: number, numero: string | null, status = 'AUTORIZADA') => ({
  idNotaFiscalServico: id,
  idFatura,
  numeroNotaFiscalServico: numero,
  statusNotaFiscalServico: status,
});

/**
 * `emit[idFatura]`: the answers to successive emissions of that invoice;
 * `notes[idFatura]`: the answers to successive look-ups of its notes;
 * `subs[idIntegracao]`: the answers to successive look-ups of that subscription;
 * `put[id]`: the answers to successive updates of subscription `id`.
 */
function service(script: {
  emit?: Record<number, Answer[]>;
  notes?: Record<number, Answer[]>;
  subs?: Record<string, Answer[]>;
  put?: Record<number, Answer[]>;
}) {
  const log: string[] = [];
  const next = (answers: Answer[] | undefined, req: HttpRequest): HttpOutcome => {
    const a = answers?.shift() ?? json(500, { message: 'sem roteiro' });
    return typeof a === 'function' ? a(req) : a;
  };
  const answer = (req: HttpRequest): HttpOutcome => {
    const url = new URL(req.url);
    if (req.method === 'POST' && url.pathname === '/v2/faturamento/nfse/emitir') {
      const id = (JSON.parse(req.body ?? '{}') as { idFatura: number }).idFatura;
      log.push(`emitir ${id}`);
      return next(script.emit?.[id], req);
    }
    if (req.method === 'GET' && url.pathname === '/v2/nfse') {
      const id = Number(url.searchParams.get('idFatura'));
      log.push(`notas ${id}`);
      return next(script.notes?.[id], req);
    }
    if (req.method === 'GET' && url.pathname === '/v2/assinaturascontratos') {
      const key = url.searchParams.get('idIntegracao') ?? `id ${url.searchParams.get('idAssinaturaContrato')}`;
      log.push(`assinatura ${key}`);
      return next(script.subs?.[key], req);
    }
    if (req.method === 'PUT' && url.pathname.startsWith('/v2/assinaturascontratos/personalizado/')) {
      const id = Number(url.pathname.split('/').pop());
      log.push(`atualizar ${id}`);
      return next(script.put?.[id], req);
    }
    throw new Error(`pedido fora do roteiro: ${req.method} ${req.url}`);
  };
  const transport: Transport = { fetch: answer, fetchAll: (reqs) => reqs.map(answer) };
  const client = new BillingClient({
    baseUrl: 'https://api.exemplo.com.br',
    apiKey: 'k',
    transport,
    sleep: () => {},
    zone: intlZone('America/Sao_Paulo'),
    retry: { retries: 0 },
  });
  return { client, log };
}

const emission = bulkOperations.emitirNfse;
const creation = bulkOperations.criarAssinaturaPersonalizada;

function emit(idFatura: number, extra: Partial<Item> = {}, issues: RowIssue[] = []): Item {
  return {
    row: idFatura,
    built: { body: { idFatura }, key: idFatura, needsKey: false, issues },
    mode: 'send',
    reason: 'new',
    attempts: 0,
    ...extra,
  };
}
const lookUp = (idFatura: number, reason: ItemReason, extra: Partial<Item> = {}) => emit(idFatura, { mode: 'lookup', reason, ...extra });
const options = (extra: Partial<BatchOptions> = {}): BatchOptions => ({ now: () => 1_000_000, sleep: () => {}, deadline: 1_060_000, ...extra });

describe('a batch of note emissions', () => {
  it('an emitted note: its id, number and status, the invoice as the key', () => {
    const s = service({
      emit: {
        1: [json(200, { data: note(1, 91, '2026/7') })],
        2: [json(200, { data: note(2, 92, null, 'PROCESSANDO') })],
        3: [json(200, { data: null, message: 'Nota 93 enviada para a prefeitura' })],
        4: [json(200, { data: [] })],
      },
    });
    const out = runBatch(s.client, emission, [emit(1), emit(2), emit(3), emit(4)], options());
    expect(out.results.get(1)).toEqual({ status: 'OK', id: 91, numero: '2026/7', chave: 1, mensagem: 'NFS-e 91 emitida (AUTORIZADA).' });
    expect(out.results.get(2)).toEqual({
      status: 'OK',
      id: 92,
      numero: '',
      chave: 2,
      mensagem: 'NFS-e 92 emitida (PROCESSANDO). A prefeitura ainda não numerou a nota: o número aparece quando ela for autorizada.',
    });
    expect(out.results.get(3)).toEqual({ status: 'OK', id: 93, numero: '', chave: 3, mensagem: 'NFS-e 93 emitida.' });
    expect(out.results.get(4)).toEqual({ status: 'OK', id: undefined, numero: '', chave: 4, mensagem: 'NFS-e emitida.' });
    expect(out).toMatchObject({ pending: [], rateLimited: false });
    expect(s.log).toEqual(['emitir 1', 'emitir 2', 'emitir 3', 'emitir 4']);
  });

  it('an answer lost after sending: looked up, never sent again; found means done', () => {
    const s = service({ emit: { 1: [lost] }, notes: { 1: [json(200, { data: [note(1, 91, '10')] })] } });
    const out = runBatch(s.client, emission, [emit(1)], options());
    expect(out.results.get(1)).toEqual({
      status: 'OK',
      id: 91,
      numero: '10',
      chave: 1,
      mensagem: 'NFS-e 91 emitida (confirmada por consulta depois de uma resposta incerta).',
    });
    expect(s.log).toEqual(['emitir 1', 'notas 1']);
  });

  it('an answer lost and nothing found yet: the row stays PENDENTE, to be looked up again later', () => {
    const s = service({ emit: { 1: [json(502, {})] }, notes: { 1: [json(200, { data: [note(7, 70, '1')] })] } });
    const out = runBatch(s.client, emission, [emit(1)], options());
    expect(out.pending).toEqual([1]);
    expect(out.results.get(1)).toEqual({
      status: 'PENDENTE',
      mensagem: 'Resultado incerto: antes de qualquer nova emissão o complemento confere se a fatura já tem NFS-e.',
    });
    // The note of another invoice (a service that ignored the filter) is not taken for this one's.
    expect(s.log).toEqual(['emitir 1', 'notas 1']);
  });

  it('a refused emission: the invoice already had its note, or the refusal is shown', () => {
    const s = service({
      emit: { 1: [json(400, { message: ['Fatura já possui nota'] })], 2: [json(422, { message: ['Fatura cancelada', 'sem itens'] })], 3: [json(400, {})] },
      notes: { 1: [json(200, { data: [note(1, 91, '10')] })], 2: [json(200, { data: [] })], 3: [json(200, { data: [] })] },
    });
    const out = runBatch(s.client, emission, [emit(1), emit(2), emit(3)], options());
    expect(out.results.get(1)).toEqual({ status: 'JÁ EMITIDA', id: 91, numero: '10', chave: 1, mensagem: 'A fatura já tinha a NFS-e 91: nada foi emitido.' });
    expect(out.results.get(2)).toEqual({
      status: 'ERRO',
      refused: true,
      mensagem: 'O serviço recusou a emissão: Fatura cancelada; sem itens. Confira a fatura.',
    });
    expect(out.results.get(3)).toEqual({ status: 'ERRO', refused: true, mensagem: 'O serviço recusou a emissão: sem detalhes. Confira a fatura.' });
    expect(s.log).toEqual(['emitir 1', 'emitir 2', 'emitir 3', 'notas 1', 'notas 2', 'notas 3']);
  });

  it('rows left PENDENTE by an earlier run: sent only once the service can no longer commit the earlier attempt', () => {
    const now = 1_000_000;
    const s = service({
      notes: { 1: [json(200, { data: [] })], 2: [json(200, { data: [] })], 3: [json(200, { data: [] })], 4: [json(200, { data: [] })] },
      emit: { 2: [json(200, { data: note(2, 92, '5') })], 3: [json(200, { data: note(3, 93, '6') })], 4: [json(200, { data: note(4, 94, '7') })] },
    });
    const items = [
      lookUp(1, 'pendente', { since: now - 29_999 }),
      lookUp(2, 'pendente', { since: now - 30_000 }),
      lookUp(3, 'pendente'),
      lookUp(4, 'pendente', { since: now - 60_000 }),
    ];
    const out = runBatch(s.client, emission, items, options({ now: () => now, safeResendMs: 30_000 }));
    expect(out.pending).toEqual([1]);
    expect(out.results.get(2)).toMatchObject({ status: 'OK', id: 92 });
    expect(out.results.get(3)).toMatchObject({ status: 'OK', id: 93 });
    expect(out.results.get(4)).toMatchObject({ status: 'OK', id: 94 });
    expect(s.log).toEqual(['notas 1', 'notas 2', 'notas 3', 'notas 4', 'emitir 2', 'emitir 3', 'emitir 4']);
    const strict = service({ notes: { 1: [json(200, { data: [] })] } });
    const waiting = runBatch(strict.client, emission, [lookUp(1, 'pendente', { since: now - SAFE_RESEND_MS + 1 })], options({ now: () => now }));
    expect(waiting.pending).toEqual([1]);
    expect(strict.log).toEqual(['notas 1']);
  });

  it('a row whose note is found by a look-up before sending is JÁ EMITIDA; a row with problems is not sent', () => {
    const s = service({
      notes: { 1: [json(200, { data: [note(1, 91, '10')] })], 2: [json(200, { data: [] })] },
    });
    const issue: RowIssue = { sheet: 'Lote', row: 2, column: 1, message: 'Linha 2, coluna "ID da fatura" (A): falta o ID' };
    const out = runBatch(s.client, emission, [lookUp(1, 'precheck'), lookUp(2, 'precheck', { built: emit(2, {}, [issue]).built })], options());
    expect(out.results.get(1)).toMatchObject({ status: 'JÁ EMITIDA', id: 91 });
    expect(out.results.get(2)).toEqual({ status: 'ERRO', mensagem: 'Linha 2, coluna "ID da fatura" (A): falta o ID' });
    expect(s.log).toEqual(['notas 1', 'notas 2']);
  });

  it('a note done earlier without its number: numbered now, it keeps its status; still without one, the row is left as it is', () => {
    const s = service({
      notes: {
        1: [json(200, { data: [note(1, 91, '2026/9')] })],
        2: [json(200, { data: [note(2, 92, null)] })],
        3: [json(200, { data: [note(3, 93, '8')] })],
        4: [json(200, { data: [] })],
      },
      emit: { 5: [json(200, { data: note(5, 95, '9') })] },
    });
    const out = runBatch(
      s.client,
      emission,
      [lookUp(1, 'recheck', { was: 'JÁ EMITIDA' }), lookUp(2, 'recheck', { was: 'OK' }), lookUp(3, 'recheck'), lookUp(4, 'recheck'), emit(5)],
      options(),
    );
    expect(out.results.get(1)).toEqual({
      status: 'JÁ EMITIDA',
      id: 91,
      numero: '2026/9',
      chave: 1,
      mensagem: 'NFS-e 91 numerada pela prefeitura: número 2026/9.',
    });
    expect(out.results.has(2)).toBe(false);
    expect(out.results.get(3)).toMatchObject({ status: 'OK', numero: '8' });
    expect(out.results.has(4)).toBe(false);
    // A row still waiting for its number does not hold back the rows sent beside it.
    expect(out.results.get(5)).toMatchObject({ status: 'OK', id: 95 });
    expect(out.pending).toEqual([]);
    expect(s.log).toEqual(['notas 1', 'notas 2', 'notas 3', 'notas 4', 'emitir 5']);
  });

  it('a refused key stops the batch: rows not sent say so, rows that may exist stay PENDENTE', () => {
    const s = service({ notes: { 1: [json(401, {})], 3: [json(401, {})] }, emit: { 2: [json(401, {})] } });
    const out = runBatch(s.client, emission, [lookUp(1, 'unknown'), emit(2), lookUp(3, 'pendente')], options());
    expect(out.fatal).toMatch(/401/);
    expect(out.pending).toEqual([1, 3]);
    expect(out.results.get(1)).toMatchObject({ status: 'PENDENTE' });
    expect(out.results.get(2)?.mensagem).toBe(`Não enviada: ${out.fatal}`);
    // The send was never tried: the key was refused at the look-up.
    expect(s.log).toEqual(['notas 1', 'notas 3']);
    const sending = service({ emit: { 2: [json(403, {})], 3: [json(200, { data: note(3, 93, '1') })] } });
    const stopped = runBatch(sending.client, emission, [emit(2), emit(3)], options());
    expect(stopped.fatal).toBeDefined();
    expect(stopped.results.get(2)).toMatchObject({ status: 'ERRO', mensagem: `Não enviada: ${stopped.fatal}` });
    expect(stopped.results.get(3)).toMatchObject({ status: 'OK', id: 93 });
  });

  it('a look-up that fails for another reason is tried again in the next wave, within the attempts, without waiting', () => {
    const slept: number[] = [];
    const s = service({
      notes: { 1: [json(500, {}), json(200, { data: [note(1, 91, '3')] })], 2: [json(500, {}), json(500, {}), json(500, {}), json(500, {}), json(500, {})] },
    });
    const out = runBatch(s.client, emission, [lookUp(1, 'unknown'), lookUp(2, 'unknown')], options({ sleep: (ms) => slept.push(ms) }));
    expect(out.results.get(1)).toMatchObject({ status: 'OK', id: 91 });
    expect(out.pending).toEqual([2]);
    expect(s.log).toEqual(['notas 1', 'notas 2', 'notas 1', 'notas 2', 'notas 2', 'notas 2']);
    expect(slept).toEqual([]);
  });

  it('no wave starts once the step deadline is reached', () => {
    const now = 1_000_000;
    const s = service({ emit: { 1: [json(500, {})] }, notes: { 1: [json(200, { data: [note(1, 91, '3')] })] } });
    const out = runBatch(s.client, emission, [emit(1)], options({ now: () => now, deadline: now }));
    expect(s.log).toEqual(['emitir 1']);
    expect(out.pending).toEqual([1]);
  });

  it("a 429's wait is taken when it leaves half of the step, and left for the next step when it does not", () => {
    const now = 1_000_000;
    const slept: number[] = [];
    const answers = (seconds: string) => ({ emit: { 1: [json(429, {}, { 'retry-after': seconds }), json(200, { data: note(1, 91, '3') })] } });
    const half = runBatch(
      service(answers('30')).client,
      emission,
      [emit(1)],
      options({ now: () => now, sleep: (ms) => slept.push(ms), deadline: now + 60_000 }),
    );
    expect(slept).toEqual([30_000]);
    expect(half.results.get(1)).toMatchObject({ status: 'OK' });
    const more = runBatch(
      service(answers('31')).client,
      emission,
      [emit(1)],
      options({ now: () => now, sleep: (ms) => slept.push(ms), deadline: now + 60_000 }),
    );
    expect(slept).toEqual([30_000]);
    expect(more).toMatchObject({ rateLimited: true, pending: [1] });
  });

  it('no round starts that could not end before the execution limit', () => {
    const s = service({ emit: { 1: [json(500, {}), json(200, { data: note(1, 91, '3') })] }, notes: { 1: [json(200, { data: [] })] } });
    const now = 1_000_000;
    // The first send fails; a look-up and a send (two worst round trips) no longer fit.
    const out = runBatch(s.client, emission, [emit(1)], options({ now: () => now, limit: now + 2 * 60_000 - 1 }));
    expect(s.log).toEqual(['emitir 1']);
    expect(out.pending).toEqual([1]);
    const roomy = service({ emit: { 1: [json(500, {})] }, notes: { 1: [json(200, { data: [note(1, 91, '3')] })] } });
    expect(runBatch(roomy.client, emission, [emit(1)], options({ now: () => now, limit: now + 2 * 60_000 })).results.get(1)).toMatchObject({ status: 'OK' });
  });

  it("a 429's wait that would leave no room for the round after it ends the batch", () => {
    const now = 1_000_000;
    const slept: number[] = [];
    const answers = () => ({ emit: { 1: [json(429, {}, { 'retry-after': '5' }), json(200, { data: note(1, 91, '3') })] } });
    const tight = service(answers());
    const out = runBatch(tight.client, emission, [emit(1)], options({ now: () => now, sleep: (ms) => slept.push(ms), limit: now + 5_000 + 2 * 60_000 - 1 }));
    expect(slept).toEqual([]);
    expect(out).toMatchObject({ rateLimited: true, pending: [1] });
    const roomy = service(answers());
    const done = runBatch(roomy.client, emission, [emit(1)], options({ now: () => now, sleep: (ms) => slept.push(ms), limit: now + 5_000 + 2 * 60_000 }));
    expect(slept).toEqual([5_000]);
    expect(done.results.get(1)).toMatchObject({ status: 'OK' });
  });
});

describe('a batch of subscription creations', () => {
  const sub = (key: string, reason: ItemReason, extra: Partial<Item> = {}): Item => ({
    row: 10,
    built: { body: {}, key, needsKey: false, issues: [] },
    mode: 'lookup',
    reason,
    attempts: 0,
    ...extra,
  });

  it('a subscription found under a typed key already existed; one found after an uncertain answer was created', () => {
    const s = service({
      subs: {
        'cli-1': [json(200, { data: [{ idAssinaturaContrato: 31, idIntegracao: 'cli-1' }] })],
        'cli-2': [json(200, { data: [{ idAssinaturaContrato: 32, idIntegracao: 'cli-2' }] })],
        'cli-3': [json(200, { data: [{ idAssinaturaContrato: 33, idIntegracao: 'cli-3' }] })],
      },
    });
    const out = runBatch(
      s.client,
      creation,
      [sub('cli-1', 'precheck', { row: 1 }), sub('cli-2', 'pendente', { row: 2 }), sub('cli-3', 'unknown', { row: 3 })],
      options(),
    );
    expect(out.results.get(1)).toEqual({ status: 'JÁ EXISTE', id: 31, mensagem: 'Já existia a assinatura 31 com este ID de integração: nada foi enviado.' });
    expect(out.results.get(2)).toEqual({
      status: 'OK',
      id: 32,
      mensagem: 'Assinatura criada (ID 32), confirmada por consulta depois de uma resposta incerta.',
    });
    expect(out.results.get(3)).toEqual({
      status: 'OK',
      id: 33,
      mensagem: 'Assinatura criada (ID 33), confirmada por consulta depois de uma resposta incerta.',
    });
  });

  it('an uncertain creation not found yet stays PENDENTE, said in its own words', () => {
    const s = service({ subs: { 'cli-1': [json(200, { data: [{ idAssinaturaContrato: 40, idIntegracao: 'cli-10' }] })] } });
    const out = runBatch(s.client, creation, [sub('cli-1', 'unknown')], options());
    expect(out.results.get(10)).toEqual({
      status: 'PENDENTE',
      mensagem: 'Resultado incerto: antes de qualquer reenvio o complemento confere se a assinatura já existe pelo ID de integração.',
    });
  });
});

describe('a batch of subscription updates', () => {
  const update = bulkOperations.atualizarAssinaturaPersonalizada;
  const body = { valor: 10, descricaoAssinaturaContrato: 'Mensalidade', isAtualizaDiscriminacaoNfse: false, discriminacaoNfse: '' };
  const put = (id: number, extra: Partial<BuiltRow> = {}): Item => ({
    row: id,
    built: { body, pathId: id, key: id, needsKey: false, issues: [], ...extra },
    mode: 'send',
    reason: 'new',
    attempts: 0,
  });

  it('each refusal in its own words; a lost answer is read back, and left PENDENTE when the record lacks the update', () => {
    const s = service({
      put: {
        1: [json(200, { data: { idAssinaturaContrato: 1 } })],
        2: [json(400, { message: ['valor acima do plano', 'revise o desconto'] })],
        3: [json(400, {})],
        4: [json(404, { message: ['não encontrada'] })],
        5: [lost, json(200, { data: { idAssinaturaContrato: 5 } })],
        7: [json(200, { data: null })],
      },
      subs: { 'id 5': [json(200, [{ idAssinaturaContrato: 5, valorUnitario: 9, descricaoAssinaturaContrato: 'Antiga' }])] },
    });
    const out = runBatch(s.client, update, [put(1), put(2), put(3), put(4), put(5), put(6, { body: { ...body, valor: 'dez' } }), put(7)], options());
    expect(out.results.get(1)).toEqual({ status: 'OK', id: undefined, mensagem: 'Assinatura atualizada (ID 1).' });
    expect(out.results.get(2)).toEqual({
      status: 'ERRO',
      refused: true,
      mensagem: 'O serviço recusou a linha: valor acima do plano; revise o desconto. Corrija e execute de novo.',
    });
    expect(out.results.get(3)).toEqual({ status: 'ERRO', refused: true, mensagem: 'O serviço recusou a linha: dados inválidos. Corrija e execute de novo.' });
    expect(out.results.get(4)).toEqual({
      status: 'ERRO',
      refused: true,
      mensagem: 'A assinatura 4 não foi encontrada (ou é de outro tipo de contrato): confira o ID da assinatura.',
    });
    expect(out.results.get(5)).toMatchObject({ status: 'PENDENTE' });
    expect(out.results.get(6)).toMatchObject({ status: 'ERRO', refused: true });
    expect(out.results.get(6)?.mensagem).toMatch(/^valor: /);
    expect(out.results.get(7)).toEqual({ status: 'OK', id: undefined, mensagem: 'Assinatura atualizada.' });
    expect(s.log).toEqual(['atualizar 1', 'atualizar 2', 'atualizar 3', 'atualizar 4', 'atualizar 5', 'atualizar 7', 'assinatura id 5']);
  });

  it('a PENDENTE update is read back: past the safe delay sent again when the service lacks it (a record gone is told by the PUT), never when its row now has a problem; too soon, left as it is', () => {
    const now = 1_000_000;
    const pendente = (id: number, since: number, extra: Partial<BuiltRow> = {}): Item => ({ ...put(id, extra), mode: 'lookup', reason: 'pendente', since });
    const old = now - SAFE_RESEND_MS;
    const held = (id: number) => [json(200, [{ idAssinaturaContrato: id, valorUnitario: 9, descricaoAssinaturaContrato: 'Antiga' }])];
    const s = service({
      put: { 1: [json(200, { data: { idAssinaturaContrato: 1 } })], 2: [json(404, { message: ['não encontrada'] })] },
      subs: { 'id 1': held(1), 'id 2': [json(200, [])], 'id 3': held(3), 'id 4': held(4) },
    });
    const issue: RowIssue = { sheet: 'Lote', row: 3, column: 2, message: 'Linha 3, coluna "Valor" (B): informe um número.' };
    const items = [pendente(1, old), pendente(2, old), pendente(3, old, { issues: [issue] }), pendente(4, now - 1_000)];
    const out = runBatch(s.client, update, items, options({ now: () => now }));
    expect(out.results.get(1)).toEqual({ status: 'OK', id: undefined, mensagem: 'Assinatura atualizada (ID 1).' });
    expect(out.results.get(2)).toMatchObject({ status: 'ERRO', mensagem: expect.stringMatching(/^A assinatura 2 não foi encontrada/) });
    expect(out.results.get(3)).toEqual({ status: 'ERRO', mensagem: issue.message });
    expect(out.results.get(4)).toMatchObject({ status: 'PENDENTE' });
    expect(out.pending).toEqual([4]);
    expect(s.log).toEqual(['assinatura id 1', 'assinatura id 2', 'assinatura id 3', 'assinatura id 4', 'atualizar 1', 'atualizar 2']);
  });

  it('a batch that follows another in the same step (edits of two operations) starts only if it still fits', () => {
    const late = options({ deadline: 999_999 });
    const s = service({ put: { 1: [json(200, { data: { idAssinaturaContrato: 1 } })] } });
    const following = runBatch(s.client, update, [put(1)], { ...late, following: true });
    expect(following.unsent).toEqual([1]);
    expect(s.log).toEqual([]);
    // The first batch of a step always goes: the step planned it.
    expect(runBatch(s.client, update, [put(1)], late).results.get(1)).toMatchObject({ status: 'OK' });
    expect(s.log).toEqual(['atualizar 1']);
  });

  it('a refused key: every row not done says it was not sent', () => {
    const s = service({ put: { 1: [json(401, {})], 2: [json(200, { data: { idAssinaturaContrato: 2 } })] } });
    const out = runBatch(s.client, update, [put(1), put(2)], options());
    expect(out.results.get(1)?.mensagem).toBe(`Não enviada: ${out.fatal}`);
    expect(out.results.get(2)).toMatchObject({ status: 'OK' });
    expect(out.pending).toEqual([]);
  });
});
