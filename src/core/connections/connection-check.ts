/**
 * "Testar conexão": one listing call that tells apart the problems a user can
 * fix: a wrong key, a host that does not answer, a wrong base URL, a slow service.
 */
import type { BillingClient } from '../../api/client';
import { BillingError, NetworkError, NotFoundError, UnauthorizedError, UnexpectedResponseError } from '../../api/errors';
import { plural } from '../../api/words';
import { describeOrganization, type Organization, organizationFrom } from './organizations';

export type CheckCode = 'ok' | 'slow' | 'unauthorized' | 'unreachable' | 'timeout' | 'wrong-url' | 'error';

export interface CheckResult {
  ok: boolean;
  code: CheckCode;
  message: string;
  customers?: number;
  /** The organization the key reaches, when it has customers to tell it by. */
  organization?: Organization;
  elapsedMs: number;
}

const SLOW_MS = 5_000;
const COUNT_PAGE_LIMIT = 40;

export function checkConnection(client: BillingClient, now: () => number): CheckResult {
  const started = now();
  try {
    const pager = client.pager('clientes', {}, { maxPages: COUNT_PAGE_LIMIT });
    let count = 0;
    let total: number | undefined;
    let organization: Organization | undefined;
    let first = true;
    while (!pager.done) {
      const wave = pager.nextWave();
      // The first wave, as a consolidated run reads it to tell the organization (organizations.ts).
      if (first) organization = organizationFrom(wave.flatMap((page) => page.records));
      first = false;
      for (const page of wave) {
        count += page.records.length;
        if (page.paging.totalRows !== undefined) total = page.paging.totalRows;
      }
      if (total !== undefined) break;
    }
    const limited = total === undefined && pager.warnings.some((w) => w.startsWith('Limite'));
    const customers = total ?? count;
    const elapsedMs = now() - started;
    const counted = limited ? `mais de ${plural(customers, 'cliente', 'clientes')}` : plural(customers, 'cliente', 'clientes');
    // Returned even without a name: it is what the consolidated run keys on, and dropping it here would erase the one that run stored.
    const known = organization ? { organization } : {};
    // Only a name reads well in the sentence: a bare record id would not tell the user anything.
    const named = organization?.name ? organization : undefined;
    const where = named ? ` na organização ${describeOrganization(named)}` : ' na organização';
    if (elapsedMs > SLOW_MS) {
      return {
        ok: true,
        code: 'slow',
        customers,
        ...known,
        elapsedMs,
        message: `Conectado (${counted}${named ? where : ''}), mas o serviço demorou ${(elapsedMs / 1000).toFixed(1).replace('.', ',')} s para responder.`,
      };
    }
    return { ok: true, code: 'ok', customers, ...known, elapsedMs, message: `Conexão funcionando: ${counted}${where}.` };
  } catch (err) {
    const elapsedMs = now() - started;
    if (err instanceof UnauthorizedError)
      return {
        ok: false,
        code: 'unauthorized',
        elapsedMs,
        message: 'Chave de API recusada (HTTP 401): confira se a chave foi copiada inteira e se pertence a esta organização.',
      };
    if (err instanceof NetworkError && err.timedOut)
      return {
        ok: false,
        code: 'timeout',
        elapsedMs,
        message: 'O serviço não respondeu a tempo. Tente de novo em alguns minutos; se persistir, confira o endereço base.',
      };
    if (err instanceof NetworkError)
      return { ok: false, code: 'unreachable', elapsedMs, message: 'Não foi possível alcançar o endereço informado. Confira o endereço base e a sua conexão.' };
    if (err instanceof UnexpectedResponseError || err instanceof NotFoundError) {
      return {
        ok: false,
        code: 'wrong-url',
        elapsedMs,
        message: `O endereço respondeu, mas não como o serviço de faturamento (${err.status === 404 ? 'HTTP 404' : 'resposta não é JSON'}). Confira o endereço base.`,
      };
    }
    if (err instanceof BillingError) return { ok: false, code: 'error', elapsedMs, message: err.message };
    return { ok: false, code: 'error', elapsedMs, message: `Erro inesperado: ${(err as Error).message}` };
  }
}
