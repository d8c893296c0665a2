/**
 * One batch of rows on the wire, exactly once. Rows whose earlier attempt has
 * an unknown outcome are looked up before anything is sent; a write whose
 * answer is lost (a POST or a PUT) is looked up, never blindly repeated: an
 * update is read back and compared with what was sent, as api/http.ts leaves
 * it to us, and goes again only from a later execution, once the service's
 * late writes have had their time and it still holds the values from before.
 * A 429 means "not processed", so those rows wait and go again.
 */
import { StepBudget, WORST_ROUND_TRIP_MS } from '../deadline';
import type { BillingClient, EmissionResult, SubscriptionResult } from '../../api/client';
import type { Nfse, Subscription } from '../../api/writes';
import { BadRequestError, NotFoundError, RateLimitedError, UnauthorizedError, ValidationError } from '../../api/errors';
import { type BulkOperation, STATUS } from './definitions';
import { asSent, type Existing, lookupMany, type Merge } from './reconcile';
import { type BuiltRow, issueText } from './rows';
import type { RowResult } from './sheet-io';

export type ItemReason =
  /** Left PENDENTE by an earlier run (maybe killed after sending). */
  | 'pendente'
  /** An idIntegracao typed by the user: it may already exist in the service. */
  | 'precheck'
  /** Sent in this batch; the answer was lost. */
  | 'unknown'
  /** Emission refused: the invoice may already have its note. */
  | 'rejected'
  /** A note done earlier without its number yet (EMITIDA): looked up again until the number exists; never sent. */
  | 'recheck'
  /** An edit from an imported sheet: its record is read first, and what the service holds now decides what goes. */
  | 'base'
  | 'new';

export interface Item {
  row: number;
  built: BuiltRow;
  mode: 'send' | 'lookup';
  reason: ItemReason;
  attempts: number;
  rejection?: string[];
  /** When a 'pendente' row's outcome became unknown (its Processado em), if known. */
  since?: number;
  /** The status a 'recheck' row had (OK or JÁ EMITIDA): it keeps it. */
  was?: string;
  /** The row changed since its owner confirmed it (what to tell): settled by a lookup, never sent again. */
  changed?: string;
  /** An edit from an imported sheet: what it makes of its record as read (reconcile.ts). */
  merge?: Merge;
  /** What goes out instead of the built body: the edit merged with the record as read. */
  sendBody?: Record<string, unknown>;
}

/**
 * How long after an unknown outcome the service may still commit the write
 * (a request that failed on our side may be processed later on its side).
 * Until then a lookup that finds nothing proves nothing: the row stays
 * PENDENTE and is never sent again.
 */
export const SAFE_RESEND_MS = 10 * 60_000;

export interface BatchOptions {
  now: () => number;
  sleep: (ms: number) => void;
  deadline: number;
  /** Epoch ms the execution must never pass: another round (a lookup and a send, each up to a minute) starts only if it fits. */
  limit?: number;
  /** Rows sent at once (one fetchAll round trip); a batch goes out in chunks of this many. Default: all at once. */
  width?: number;
  /** Waves a row may take part in before it is left for later. */
  maxAttempts?: number;
  /** How long an unknown outcome stays unsent however often it is looked up (default SAFE_RESEND_MS). */
  safeResendMs?: number;
  /** This batch follows another in the same step (rows of another operation): its first chunk must fit too. */
  following?: boolean;
}

export interface BatchOutcome {
  results: Map<number, RowResult>;
  /** Rows left PENDENTE: to be looked up by a later pass or run. */
  pending: number[];
  /**
   * Rows of chunks that never started: their lookup and send would not have
   * ended in time. Nothing was sent for them; the caller puts them back as they were.
   */
  unsent: number[];
  /** Round trips made (each lookup or send of a chunk). */
  waves: number;
  rateLimited: boolean;
  /** A problem that stops the whole job (the key was refused). */
  fatal?: string;
}

const MAX_ATTEMPTS = 4;
const DEFAULT_WAIT_MS = 2_000;

function subscriptionOk(op: BulkOperation, record: Subscription | null, how: string): RowResult {
  const id = record?.idAssinaturaContrato;
  const what = op.identity === 'idempotent' ? 'Assinatura atualizada' : 'Assinatura criada';
  return { status: STATUS.ok, id: op.identity === 'idempotent' ? undefined : id, mensagem: `${what}${id !== undefined ? ` (ID ${id})` : ''}${how}.` };
}

function noteResult(status: string, note: Nfse | null, idFatura: number | string | undefined, text: string, mentionedId?: number): RowResult {
  const id = note?.idNotaFiscalServico ?? mentionedId;
  const numero = note?.numeroNotaFiscalServico;
  const waiting = note && !numero ? ' A prefeitura ainda não numerou a nota: o número aparece quando ela for autorizada.' : '';
  return { status, id, numero: typeof numero === 'string' ? numero : '', chave: idFatura, mensagem: `${text}${waiting}` };
}

function foundResult(op: BulkOperation, item: Item, existing: Existing): RowResult {
  const fresh = item.reason === 'pendente' || item.reason === 'unknown';
  if (existing.kind === 'note') {
    const note = existing.record;
    return fresh
      ? noteResult(STATUS.ok, note, item.built.key, `NFS-e ${note.idNotaFiscalServico} emitida (confirmada por consulta depois de uma resposta incerta).`)
      : noteResult(STATUS.jaEmitida, note, item.built.key, `A fatura já tinha a NFS-e ${note.idNotaFiscalServico}: nada foi emitido.`);
  }
  const record = existing.record;
  if (fresh) return subscriptionOk(op, record, ', confirmada por consulta depois de uma resposta incerta');
  return {
    status: STATUS.jaExiste,
    id: record.idAssinaturaContrato,
    mensagem: `Já existia a assinatura ${record.idAssinaturaContrato} com este ID de integração: nada foi enviado.`,
  };
}

function successResult(op: BulkOperation, item: Item, result: SubscriptionResult | EmissionResult): RowResult {
  if ('notes' in result) {
    const note = result.notes[0] ?? null;
    const id = note?.idNotaFiscalServico ?? result.mentionedId;
    const what = id === undefined ? 'NFS-e emitida' : `NFS-e ${id} emitida`;
    return noteResult(STATUS.ok, note, item.built.key, `${what}${note ? ` (${String(note.statusNotaFiscalServico)})` : ''}.`, result.mentionedId);
  }
  return subscriptionOk(op, result.record, '');
}

const error = (mensagem: string): RowResult => ({ status: STATUS.erro, mensagem });
/** The service said no to this row's data: coloured like a validation error. */
const refused = (mensagem: string): RowResult => ({ status: STATUS.erro, mensagem, refused: true });

/** Another round (a lookup and a send, each hanging a minute at worst, after `waitMs`) may start: the soft deadline has not come and it ends before the limit. */
const roundFits = (budget: StepBudget, waitMs = 0): boolean => !budget.pastDeadline() && budget.fits(waitMs + 2 * WORST_ROUND_TRIP_MS);

/**
 * A batch goes out in chunks of `width` rows, each settled as far as it can be
 * (looked up, sent, looked up again) before the next starts. The first chunk
 * always goes, as the caller planned it; a later one only if another round
 * still fits. A 429 or a refused key ends the batch too.
 */
export function runBatch(client: BillingClient, op: BulkOperation, items: Item[], options: BatchOptions): BatchOutcome {
  const out: BatchOutcome = { results: new Map(), pending: [], unsent: [], rateLimited: false, waves: 0 };
  const budget = new StepBudget(options.now, { deadline: options.deadline, limit: options.limit });
  const width = Math.max(1, Math.floor(options.width ?? items.length));
  for (let at = 0; at < items.length; at += width) {
    if ((at > 0 || options.following) && (out.fatal || out.rateLimited || !roundFits(budget))) {
      out.unsent = items.slice(at).map((i) => i.row);
      break;
    }
    const chunk = new Chunk(client, op, items.slice(at, at + width), options, out);
    chunk.run(budget);
  }
  return out;
}

/** One chunk's rows, until each is settled, out of attempts, or out of time. */
class Chunk {
  private open: Item[];
  private readonly maxAttempts: number;

  constructor(
    private readonly client: BillingClient,
    private readonly op: BulkOperation,
    private readonly items: Item[],
    private readonly options: BatchOptions,
    private readonly out: BatchOutcome,
  ) {
    this.open = items;
    this.maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  }

  run(budget: StepBudget): void {
    // A chunk has rows, and starts only while no key was refused.
    for (;;) {
      this.lookUp();
      if (this.out.fatal) break;
      const wait = this.send();
      this.open = this.open.filter((i) => i.attempts < this.maxAttempts);
      if (this.open.length === 0 || this.out.fatal) break;
      if (wait > 0) {
        // A wait that would not leave room for the round after it ends the batch: its rows stay PENDENTE for the next step.
        if (wait > (budget.deadline - this.options.now()) / 2 || !budget.fits(wait + 2 * WORST_ROUND_TRIP_MS)) break;
        this.options.sleep(wait);
      }
      if (!roundFits(budget)) break;
    }
    this.leave();
  }

  private settle(item: Item, result: RowResult): void {
    this.out.results.set(item.row, result);
    this.drop(item);
  }

  private drop(item: Item): void {
    this.open = this.open.filter((i) => i !== item);
  }

  /** One wave of lookups for the rows that need one. */
  private lookUp(): void {
    const lookups = this.open.filter((i) => i.mode === 'lookup');
    if (lookups.length === 0) return;
    this.out.waves++;
    const found = lookupMany(
      this.client,
      this.op,
      lookups.map((i) => i.built.key!),
    );
    lookups.forEach((item, k) => {
      const f = found[k];
      item.attempts++;
      if (!f.ok) {
        if (f.error instanceof UnauthorizedError) this.out.fatal = f.error.message;
      } else if (item.reason === 'recheck') this.numbered(item, f.existing);
      else if (this.op.identity === 'idempotent') this.readBack(item, f.existing);
      else this.found(item, f.existing);
    });
  }

  /** A done note looked up for its number: still without one (or not found), the row stays as it is, for a later run. */
  private numbered(item: Item, existing: Existing | null): void {
    const note = existing?.kind === 'note' ? existing.record : null;
    const numero = note?.numeroNotaFiscalServico;
    if (note && numero)
      this.settle(
        item,
        noteResult(item.was ?? STATUS.ok, note, item.built.key, `NFS-e ${note.idNotaFiscalServico} numerada pela prefeitura: número ${numero}.`),
      );
    else this.drop(item);
  }

  /**
   * An update read back: an edit before it is sent, or any update after its
   * answer was lost (in this execution, or left PENDENTE by an earlier one).
   * Done when the record holds what was sent. Otherwise never sent again in
   * the execution whose answer was lost, nor before the service's late writes
   * have had their time: only then does the record show the values the PUT
   * would replace. An edit tells them from its base (a change made in the
   * service is a conflict, told and never sent); a template row, which has no
   * base, from the record as read just now, nothing of ours being in flight.
   */
  private readBack(item: Item, existing: Existing | null): void {
    const record = (existing?.record ?? null) as Subscription | null;
    const merged = (item.merge ?? asSent(this.op, item.built.body))(record);
    const fresh = item.reason === 'base';
    if (item.built.issues.length > 0) this.settle(item, error(issueText(item.built.issues)));
    else if (merged.holds)
      this.settle(
        item,
        subscriptionOk(
          this.op,
          record,
          fresh ? ': o serviço já tinha estes valores, nada foi enviado' : ', confirmada por consulta depois de uma resposta incerta',
        ),
      );
    else if (this.tooSoon(item)) item.attempts = this.maxAttempts;
    else if (merged.conflict) this.settle(item, error(merged.conflict));
    else {
      item.sendBody = merged.body;
      this.resend(item);
    }
  }

  /**
   * Whether a write whose outcome is unknown could still be made by the
   * service: lost in this execution, or PENDENTE (the rows that know `since`)
   * for less than the safe delay. Until then what a lookup finds proves
   * nothing, and nothing is sent.
   */
  private tooSoon(item: Item): boolean {
    if (item.reason === 'unknown') return true;
    return item.since !== undefined && this.options.now() - item.since < (this.options.safeResendMs ?? SAFE_RESEND_MS);
  }

  /** A row whose lookup found nothing goes out again, unless it changed since its owner confirmed it. */
  private resend(item: Item): void {
    if (item.changed) this.settle(item, error(item.changed));
    else item.mode = 'send';
  }

  /** A creation or an emission looked up by its key. */
  private found(item: Item, existing: Existing | null): void {
    if (existing) this.settle(item, foundResult(this.op, item, existing));
    else if (item.reason === 'rejected')
      this.settle(item, refused(`O serviço recusou a emissão: ${(item.rejection ?? []).join('; ') || 'sem detalhes'}. Confira a fatura.`));
    else if (item.built.issues.length > 0) this.settle(item, error(issueText(item.built.issues)));
    else if (this.tooSoon(item)) {
      // Nothing found yet proves nothing this soon: never resent in this execution; a later one looks again.
      item.attempts = this.maxAttempts;
    } else this.resend(item);
  }

  /** One wave of sends; the wait a 429 asked for. */
  private send(): number {
    const sends = this.open.filter((i) => i.mode === 'send');
    if (sends.length === 0) return 0;
    this.out.waves++;
    const outcomes = this.client.writeMany(
      this.op.key,
      sends.map((i) => ({ body: i.sendBody ?? i.built.body, id: i.built.pathId })),
    );
    let wait = 0;
    sends.forEach((item, k) => {
      const o = outcomes[k];
      item.attempts++;
      if (o.ok) this.settle(item, successResult(this.op, item, o.result));
      else if (o.error instanceof RateLimitedError) {
        // Not processed: it goes again after the wait the service asked for.
        this.out.rateLimited = true;
        wait = Math.max(wait, o.error.retryAfterMs ?? DEFAULT_WAIT_MS);
      } else this.failed(item, o.error);
    });
    return wait;
  }

  private failed(item: Item, e: Error): void {
    const op = this.op;
    if (e instanceof UnauthorizedError) {
      this.out.fatal = e.message;
    } else if (e instanceof BadRequestError && op.identity === 'idFatura') {
      item.mode = 'lookup';
      item.reason = 'rejected';
      item.rejection = e.messages;
    } else if (e instanceof BadRequestError) {
      this.settle(item, refused(`O serviço recusou a linha: ${e.messages.join('; ') || 'dados inválidos'}. Corrija e execute de novo.`));
    } else if (e instanceof NotFoundError) {
      this.settle(item, refused(`A assinatura ${item.built.pathId} não foi encontrada (ou é de outro tipo de contrato): confira o ID da assinatura.`));
    } else if (e instanceof ValidationError) {
      this.settle(item, refused(e.issues.map((i) => `${i.field}: ${i.message}`).join('; ')));
    } else {
      // Time-out, 5xx, dropped connection: the write may have happened, or happen late. Look before sending again.
      item.mode = 'lookup';
      item.reason = 'unknown';
    }
  }

  /** Rows the chunk could not settle: not sent after a refused key, never processed (turned away by 429s, or not read before sending), or PENDENTE. */
  private leave(): void {
    const { op, out } = this;
    for (const item of this.items) {
      if (out.results.has(item.row) || item.reason === 'recheck') continue;
      // A write whose answer was lost is looked up before any resend: a late write must not be repeated over a newer one.
      const settledLater = item.reason === 'unknown' || item.reason === 'pendente';
      if (out.fatal && !settledLater) {
        out.results.set(item.row, error(`Não enviada: ${out.fatal}`));
      } else if (op.identity === 'idempotent' && !settledLater) {
        out.results.set(item.row, error('O serviço não respondeu depois de várias tentativas. Execute de novo: a alteração pode ser repetida sem risco.'));
      } else {
        out.pending.push(item.row);
        out.results.set(item.row, {
          status: STATUS.pendente,
          mensagem:
            op.identity === 'idFatura'
              ? 'Resultado incerto: antes de qualquer nova emissão o complemento confere se a fatura já tem NFS-e.'
              : op.identity === 'idempotent'
                ? 'Resultado incerto: antes de qualquer reenvio o complemento relê a assinatura e compara com o que foi enviado.'
                : 'Resultado incerto: antes de qualquer reenvio o complemento confere se a assinatura já existe pelo ID de integração.',
        });
      }
    }
  }
}
