/** Response envelopes and the shared route types. */
import type { OrgData } from './generate.js';
import type { SandboxConfig } from './types.js';

/**
 * list: { status, message[], data[], paging }
 * subscription: { data, message, errors[] } (writes, and errors of the subscription listing)
 * emission: { status, message[], data }
 */
export type EnvelopeKind = 'list' | 'subscription' | 'emission';

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface RouteContext {
  org: OrgData;
  query: URLSearchParams;
  body: unknown;
  /** Captures of the route pattern. */
  params: string[];
  config: SandboxConfig;
  /** Fault ignorePage is active for this request. */
  ignorePage: boolean;
}

export interface Route {
  method: string;
  pattern: RegExp;
  envelope: EnvelopeKind;
  /** Whether the body must be application/json. */
  hasBody: boolean;
  handle(ctx: RouteContext): Reply;
}

const SUMMARY: Record<number, string> = {
  400: 'Requisição inválida',
  401: 'Não autorizado',
  404: 'Registro não encontrado',
  405: 'Método não permitido',
  415: 'Content-Type não suportado',
  429: 'Limite de requisições excedido',
  500: 'Erro interno do servidor',
  503: 'Serviço temporariamente indisponível',
};

export function errorReply(kind: EnvelopeKind, status: number, details: string[], headers?: Record<string, string>): Reply {
  const summary = SUMMARY[status] ?? `Erro ${status}`;
  const messages = details.length ? details : [summary];
  let body: unknown;
  if (kind === 'list') body = { status: String(status), message: messages, data: [], paging: {} };
  else if (kind === 'emission') body = { status: String(status), message: messages, data: null };
  else body = { data: null, message: summary, errors: messages };
  return { status, body, headers };
}

export function listReply(data: unknown[], paging: Record<string, number>): Reply {
  return { status: 200, body: { status: '200', message: [], data, paging } };
}

export function subscriptionReply(data: unknown, message: string): Reply {
  return { status: 200, body: { data, message, errors: [] } };
}
