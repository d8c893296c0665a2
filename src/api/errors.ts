/**
 * Typed failures of the billing client. Each carries the request's method and
 * path (never the query's secrets, never the API key) and a message in
 * Portuguese that a user can act on.
 */
export interface RequestInfo {
  method: string;
  /** Path relative to the base URL, without the query string. */
  path: string;
}

export abstract class BillingError extends Error {
  abstract readonly code: string;
  readonly method: string;
  readonly path: string;
  readonly status?: number;

  constructor(request: RequestInfo, message: string, status?: number) {
    super(`${message} (${request.method} ${request.path}${status ? `, HTTP ${status}` : ''})`);
    this.method = request.method;
    this.path = request.path;
    this.status = status;
  }
}

export class UnauthorizedError extends BillingError {
  override name = 'UnauthorizedError';
  readonly code = 'unauthorized';
  constructor(request: RequestInfo, status = 401) {
    super(request, 'A chave de API foi recusada pelo serviço: confira a chave da conexão', status);
  }
}

export class BadRequestError extends BillingError {
  override name = 'BadRequestError';
  readonly code = 'bad-request';
  constructor(
    request: RequestInfo,
    readonly messages: string[],
    status = 400,
  ) {
    super(request, `O serviço recusou o pedido: ${messages.length ? messages.join('; ') : 'dados inválidos'}`, status);
  }
}

export class NotFoundError extends BillingError {
  override name = 'NotFoundError';
  readonly code = 'not-found';
  constructor(
    request: RequestInfo,
    readonly messages: string[] = [],
  ) {
    super(request, `Não encontrado${messages.length ? `: ${messages.join('; ')}` : ''}`, 404);
  }
}

export class ServerError extends BillingError {
  override name = 'ServerError';
  readonly code = 'server-error';
  constructor(
    request: RequestInfo,
    status: number,
    readonly messages: string[] = [],
  ) {
    super(request, `Erro no serviço de faturamento${messages.length ? `: ${messages.join('; ')}` : ''}`, status);
  }
}

export class RateLimitedError extends BillingError {
  override name = 'RateLimitedError';
  readonly code = 'rate-limited';
  constructor(
    request: RequestInfo,
    /** How long the service asked us to wait, when it said. */
    readonly retryAfterMs: number | undefined,
  ) {
    super(request, 'O serviço pediu para esperar antes de novos pedidos (limite de requisições)', 429);
  }
}

export class NetworkError extends BillingError {
  override name = 'NetworkError';
  readonly code = 'network';
  constructor(
    request: RequestInfo,
    detail: string,
    readonly timedOut = false,
  ) {
    super(request, timedOut ? 'O serviço não respondeu a tempo' : `Sem resposta do serviço: ${detail}`);
  }
}

/** A response that is not the interface's JSON at all: usually a wrong base URL. */
export class UnexpectedResponseError extends BillingError {
  override name = 'UnexpectedResponseError';
  readonly code = 'unexpected-response';
  constructor(request: RequestInfo, status: number, detail: string) {
    super(request, `Resposta inesperada: ${detail}. Confira o endereço base da conexão`, status);
  }
}

/** The JSON arrived but breaks the documented shape. */
export class SchemaError extends BillingError {
  override name = 'SchemaError';
  readonly code = 'schema';
  constructor(
    request: RequestInfo,
    readonly operation: string,
    readonly detail: string,
  ) {
    super(request, `Resposta fora do formato documentado em ${operation}: ${detail}`);
  }
}

/** A request the client refused to send (bad filter, bad body). */
export class ValidationError extends Error {
  override name = 'ValidationError';
  readonly code = 'validation';
  constructor(
    readonly operation: string,
    readonly issues: Array<{ field: string; message: string }>,
  ) {
    super(`${operation}: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`);
  }
}
