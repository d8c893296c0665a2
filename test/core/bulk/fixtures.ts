/** Shared set-up of the bulk core tests: the sandbox over HTTP, an in-memory book and work store. */
import { nodeTransport } from '../../../dev/http/node-transport';
import type { SandboxHandle } from '../../../dev/sandbox/harness';
import { BillingClient } from '../../../src/api/client';
import type { BulkDeps } from '../../../src/core/bulk/state';
import { bulkJobStore } from '../../../src/core/bulk/stored-job';
import { intlZone } from '../../../src/api/calendar';
import type { KeyValueStore } from '../../../src/core/ports';
import { type Seal, SignedStore } from '../../../src/core/trust/seal';
import type { Transport } from '../../../src/api/transport';
import { MemoryBook } from './memory-book';

export type Rec = Record<string, any>;
export const zone = intlZone('America/Sao_Paulo');

/** The 9 KB a stored job's value is kept under (job-store.ts), enforced so a job that grows too big fails the test. */
export class MemoryStore implements KeyValueStore {
  readonly map = new Map<string, string>();
  frozen = false;
  get(key: string) {
    return this.map.get(key) ?? null;
  }
  set(key: string, value: string) {
    if (this.frozen) throw new Error('killed');
    if (value.length > 9 * 1024) throw new Error(`property ${key} is ${value.length} bytes, over 9 KB`);
    this.map.set(key, value);
  }
  delete(key: string) {
    this.map.delete(key);
  }
  keys() {
    return [...this.map.keys()];
  }
}

/** A seal that signs nothing, and finds every value as the running user saved it (`vouches`) or none. */
const sealThat = (vouches: boolean): Seal => ({ sign: () => () => undefined, forget: () => undefined, verify: () => vouches, commit: () => undefined });

/** `store` as the document's work store of an editor who saved all it holds (what a test of anything but the signatures reads through). */
export function trusted(store: KeyValueStore = new MemoryStore()): SignedStore {
  return SignedStore.over(store, sealThat(true));
}

/** `store` as a work store whose every value someone else changed since the running user saved it: nothing read from it is sealed. */
export function altered(store: KeyValueStore = new MemoryStore()): SignedStore {
  return SignedStore.over(store, sealThat(false));
}

/** `transport`: what the client (and every client derived from it) sends through. */
export function client(sb: SandboxHandle, org = 0, transport: Transport = nodeTransport): BillingClient {
  return new BillingClient({ baseUrl: sb.baseUrl, apiKey: sb.orgs[org].apiKey, transport, sleep: () => {}, zone, timeoutMs: 10_000 });
}

/**
 * A connection's own client that sends nothing: it only derives `derived`,
 * recording each limit asked. A caller that sent through the client it
 * derived from, instead of the one it got, would fail.
 */
export function deriveOnly(derived: BillingClient, limits: Array<number | undefined>): BillingClient {
  const own = {
    withLimit(limit: number | undefined): BillingClient {
      limits.push(limit);
      return derived;
    },
  };
  return own as unknown as BillingClient;
}

let generated = 0;
export function deps(sb: SandboxHandle, book = new MemoryBook(), overrides: Partial<BulkDeps> = {}): BulkDeps & { book: MemoryBook } {
  const c = client(sb);
  return {
    book,
    jobs: bulkJobStore(trusted()),
    zone,
    now: () => Date.now(),
    sleep: () => {},
    newId: () => `gen-${process.pid}-${++generated}`,
    clientFor: () => c,
    ...overrides,
  } as BulkDeps & { book: MemoryBook };
}

/** Data of the sandbox that valid rows can point at. */
export async function catalog(sb: SandboxHandle, org = 0) {
  const name = sb.orgs[org].name;
  const [clientes, produtos, planos, faturas, nfse, assinaturas] = await Promise.all([
    sb.dump<Rec>(name, 'clientes'),
    sb.dump<Rec>(name, 'produtos'),
    sb.dump<Rec>(name, 'planos'),
    sb.dump<Rec>(name, 'faturas'),
    sb.dump<Rec>(name, 'nfse'),
    sb.dump<Rec>(name, 'assinaturas'),
  ]);
  const noted = new Set(nfse.map((n) => n.idFatura));
  return {
    clientes: clientes.filter((c) => c.isAtivo).map((c) => c.idCliente as number),
    produtos: produtos.map((p) => p.idProduto as number),
    planos: planos.map((p) => p.idPlano as number),
    /** Invoices that can get a note. */
    emitiveis: faturas.filter((f) => !noted.has(f.idFatura) && f.statusFatura !== 'CANCELADA').map((f) => f.idFatura as number),
    comNota: nfse.map((n) => ({ idFatura: n.idFatura as number, idNotaFiscalServico: n.idNotaFiscalServico as number })),
    assinaturas,
  };
}

export const CUSTOM_HEADER = [
  'ID de integração',
  'ID do cliente',
  'Data de adesão',
  'Competência inicial',
  'Periodicidade',
  'ID do produto',
  'Descrição',
  'Valor',
  'Forma de faturamento',
  'Dia de vencimento',
];

/** A valid custom-subscription row as getValues would hand it over. */
export function customRow(key: string, idCliente: number, idProduto: number, i = 0): Array<string | number | Date> {
  return [
    key,
    idCliente,
    zone.instant({ year: 2026, month: 11, day: 1 + (i % 28) }),
    '11/2026',
    'MENSAL',
    idProduto,
    `Honorários ${i}`,
    100 + i,
    'AGRUPADA',
    10,
  ];
}
