/**
 * Public types of the sandbox: options, runtime configuration, faults and the
 * request log. Record shapes live in records.ts.
 */

export type ListingName = 'clientes' | 'faturas' | 'nfse' | 'cobrancas' | 'transacoes' | 'assinaturas';
export const LISTING_NAMES: readonly ListingName[] = ['clientes', 'faturas', 'nfse', 'cobrancas', 'transacoes', 'assinaturas'];

/** Resources that /__sandbox/dump can return (planos/produtos are catalogs the API never lists). */
export type DumpResource = ListingName | 'planos' | 'produtos';

/**
 * - full:   { page, totalRows, totalPages, itemsPerPage }
 * - totals: { totalRows, totalPages }
 * - page:   { page, itemsPerPage }
 * - empty:  {}
 */
export type PagingStyle = 'full' | 'totals' | 'page' | 'empty';

/**
 * - array:    bare JSON array of records
 * - record:   bare record when exactly one matches the filters, else a bare array
 * - envelope: list envelope { status, message, data, paging }
 */
export type SubscriptionListShape = 'array' | 'record' | 'envelope';

/** record: data is one NFS-e record; array: data is [record] with paging { totalRows, totalPages }. */
export type EmissionShape = 'record' | 'array';

export interface SizeCounts {
  clientes: number;
  faturas: number;
  cobrancas: number;
  transacoes: number;
  assinaturas: number;
}
export type SizeName = 'small' | 'medium' | 'large';
export type SandboxSize = SizeName | Partial<SizeCounts>;

/** Which requests a fault applies to. Unset fields match everything under /v2. */
export interface FaultMatch {
  /** GET, POST, PUT; any when unset. */
  method?: string;
  /** e.g. '/v2/faturamento'; '/v2' when unset. */
  pathPrefix?: string;
  /** Only requests made with this organization's key (its name); any when unset. */
  org?: string;
  /** Applies to the next N matching requests, then disappears; the whole run when unset. */
  times?: number;
  /** Probability 0..1 that a matching request is hit (seeded RNG); 1 when unset. */
  rate?: number;
}

export type FaultRule = FaultMatch &
  (
    | { kind: 'latency'; ms: number; jitterMs?: number }
    /** Replies with this status before the operation runs (e.g. 429, 500, 503). */
    | { kind: 'status'; status: number; retryAfterSeconds?: number }
    /** Never answers; the socket stays open until the client gives up. */
    | { kind: 'hang' }
    /** Destroys the socket (TCP reset) without answering. */
    | { kind: 'reset' }
    /** Runs the operation (writes are applied) and then answers 500 or drops the connection. */
    | { kind: 'commitThenFail'; failWith: 'status500' | 'reset' }
    /**
     * Fails the request now (500, 503, a dropped connection or no answer) and runs the operation
     * later: when `afterRequests` more /v2 requests have arrived (the last of them already sees it)
     * or after `afterMs`, whichever comes first; 3 requests when neither is set.
     */
    | { kind: 'lateCommit'; failWith: 'status500' | 'status503' | 'reset' | 'hang'; afterRequests?: number; afterMs?: number }
    /** The listing ignores page/pagina and always returns the first page. */
    | { kind: 'ignorePage' }
    /** Replies with this status and an error message that quotes the request's x-api-key (a careless gateway). */
    | { kind: 'echoKey'; status: number }
  );

export type DuplicateIntegrationIdPolicy = 'accept' | 'reject';

export interface SandboxConfig {
  /** First page number: 0 or 1. */
  pageBase: 0 | 1;
  pagingStyles: Record<ListingName, PagingStyle>;
  subscriptionListShape: SubscriptionListShape;
  emissionShape: EmissionShape;
  duplicateIntegrationId: DuplicateIntegrationIdPolicy;
  faults: FaultRule[];
}

/** Patch accepted by configure(): objects are merged one level deep; `faults` replaces, `addFaults` appends. */
export interface ConfigPatch {
  pageBase?: 0 | 1;
  pagingStyles?: Partial<Record<ListingName, PagingStyle>>;
  subscriptionListShape?: SubscriptionListShape;
  emissionShape?: EmissionShape;
  duplicateIntegrationId?: DuplicateIntegrationIdPolicy;
  faults?: FaultRule[];
  addFaults?: FaultRule[];
}

export interface SandboxOptions {
  /** Seed of the data and of the fault RNG. Default 1. */
  seed?: number;
  /** Per-organization record counts. Default 'small'. */
  size?: SandboxSize;
  /** Initial configuration (also what reset() returns to). */
  config?: ConfigPatch;
  /** Generate every organization's data at start (true) or on first use (false). Default true. */
  eager?: boolean;
  /** An accounting office's client companies beside the demo organizations (office.ts): a count, or the office's sizes. None by default. */
  office?: number | OfficeOptions;
}

/** The statuses the Central do escritório shows, one per office company (README: "An office of companies"). */
export type OfficeStatus =
  | 'sem-pendencias'
  | 'notas-a-emitir'
  | 'vencidas'
  | 'valor-diferente'
  | 'cobranca-sem-fatura'
  | 'nota-sem-numero'
  | 'sem-movimento'
  | 'falha-conexao';

export interface OfficeOptions {
  /** How many companies. */
  companies: number;
  /** Invoices of the office's competência per company (each with its note and charge as the status says). Default 8. */
  invoices?: number;
  /** Each company's other records (drawn as any organization's). Default 40 clients, 40 invoices, 40 charges, 30 transactions, 10 subscriptions. */
  size?: Partial<SizeCounts>;
}

export interface OrgInfo {
  name: string;
  apiKey: string;
  /** Further keys of the same organization: the same data, answered alike. */
  otherKeys?: string[];
  hasCityHallIntegration: boolean;
  /** An office company's key the service refuses (401, "Chave de API revogada"): its status is "Falha na conexão". */
  revoked?: boolean;
  /** An office company: its place in the office, the status its month holds, its CNPJ. */
  office?: { number: number; status: OfficeStatus; cnpj: string };
}

/** What /__sandbox/touch changes in an office company's month (office.ts). */
export interface TouchRequest {
  /** The company's name or key. */
  org: string;
  kind: 'addInvoice' | 'alterInvoice' | 'payCharge' | 'cancelCharge' | 'addNote' | 'alterClient';
  /** The change's dataHoraAtualizacao, service local time YYYY-MM-DDTHH:MM:SS; now (UTC-3) when absent. */
  at?: string;
}

export interface TouchResult {
  org: string;
  kind: TouchRequest['kind'];
  /** The record added or changed: an invoice's, a charge's or a note's id. */
  id: number;
  /** Its new dataHoraAtualizacao (service local time), for an invoice or a charge. */
  at?: string;
}

export type RequestOutcome =
  | 'response'
  /** Fault hang: no answer; the client closed the connection (or it is still open). */
  | 'hang'
  /** Fault reset: socket destroyed before answering. */
  | 'reset'
  /** commitThenFail: the operation ran, then the client got a 500. */
  | 'commit-then-500'
  /** commitThenFail: the operation ran, then the socket was destroyed. */
  | 'commit-then-reset'
  /** lateCommit: the client got a 500 or 503 (or a reset, or no answer) and the operation runs later. */
  | 'late-commit-500'
  | 'late-commit-503'
  | 'late-commit-reset'
  | 'late-commit-hang'
  /** Still being handled when the log was read. */
  | 'pending';

export interface RequestLogEntry {
  /** 1, 2, 3... in arrival order since the last reset. */
  seq: number;
  method: string;
  path: string;
  /** Parsed query; repeated parameters become arrays. */
  query: Record<string, string | string[]>;
  /** Parsed JSON body, the raw text when it was not JSON, null when absent. */
  body: unknown;
  /** Organization name; null when the key was missing or unknown. Never the key itself. */
  org: string | null;
  /** HTTP status sent; null when nothing was sent (hang, reset). */
  status: number | null;
  outcome: RequestOutcome;
  /** Wall clock at arrival, ms since epoch. */
  arrivedAt: number;
  /** Monotonic ms (performance.now() of the server process) at arrival and at end. */
  arrivedAtMono: number;
  finishedAtMono: number | null;
  /** /v2 requests being handled at arrival, this one included (1 = it was alone). */
  inFlight: number;
  /** Kinds of the faults applied, e.g. ['latency', 'status']. */
  faults: string[];
  /** lateCommit only: whether the operation has run yet, at the arrival of which request (null: by time), and its status. */
  lateCommit?: { committed: boolean; atSeq: number | null; status: number | null };
}

export interface RequestLogFilter {
  method?: string;
  pathPrefix?: string;
  org?: string;
  /** Only entries with seq greater than this. */
  afterSeq?: number;
}

export interface ResetOptions {
  seed?: number;
  size?: SandboxSize;
  /** Configuration after the reset; defaults to the start-up configuration. */
  config?: ConfigPatch;
}
