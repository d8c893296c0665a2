/**
 * The Central against the sandbox: one company per organization the sandbox
 * has (each its own connection), the Central's deps over a memory work store
 * and sheet, and each company's month worked out again from the sandbox's
 * own records (its dump), independently of the code under test.
 */
import { nodeTransport } from '../../../dev/http/node-transport';
import type { SandboxHandle } from '../../../dev/sandbox/harness';
import { BillingClient } from '../../../src/api/client';
import type { Transport } from '../../../src/api/transport';
import { identifyOrganization } from '../../../src/core/connections/organizations';
import type { CentralDeps } from '../../../src/core/central/refresh';
import type { CentralCompany } from '../../../src/core/central/store';
import { MemoryStore, trusted, zone } from '../bulk/fixtures';
import { DashBook, type DashSheet } from '../dashboards/book';

export { zone };
export type Rec = Record<string, any>;

/** 22/11/2026 23:50 in São Paulo: the sandbox's today, after every record's last update of the day. */
export const NOW = zone.instant({ year: 2026, month: 11, day: 22, hour: 23, minute: 50 }).getTime();
export const TODAY = '2026-11-22';
export const user = { id: 'u1', email: 'contadora@example.com' };

export const connectionId = (i: number): string => `c${i}`;

export function clientOf(sb: SandboxHandle, key: string, transport: Transport = nodeTransport): BillingClient {
  return new BillingClient({ baseUrl: sb.baseUrl, apiKey: key, transport, sleep: () => {}, zone, timeoutMs: 10_000 });
}

/** One company per sandbox organization, each known by its organization as "Testar conexão" finds it. */
export function companiesOf(sb: SandboxHandle): CentralCompany[] {
  return sb.orgs.map((o, i) => {
    // A company whose key the service refuses was never identified: a connection whose test failed.
    const organization = o.revoked ? undefined : identifyOrganization(clientOf(sb, o.apiKey));
    return { connectionId: connectionId(i), name: o.name, ...(organization ? { organization } : {}) };
  });
}

export interface Office {
  deps: CentralDeps;
  doc: MemoryStore;
  book: DashBook;
  sheet: () => DashSheet;
  clock: { now: number };
  keys: Map<string, string>;
}

/** The Central's deps: each connection's client by its key (`keys`, changeable), a clock, a memory work store and book. */
export function office(sb: SandboxHandle, opts: { doc?: MemoryStore; transport?: Transport } = {}): Office {
  const doc = opts.doc ?? new MemoryStore();
  const book = new DashBook();
  const clock = { now: NOW };
  const keys = new Map(sb.orgs.map((o, i) => [connectionId(i), o.apiKey]));
  let sheet: DashSheet | undefined;
  const getSheet = () => (sheet ??= book.create('Central'));
  const deps: CentralDeps = {
    store: trusted(doc),
    clientFor: (id) => {
      const key = keys.get(id);
      if (!key) throw new Error(`A conexão ${id} não tem chave.`);
      return clientOf(sb, key, opts.transport);
    },
    now: () => clock.now,
    zone,
    user,
    sheet: getSheet,
  };
  return { deps, doc, book, sheet: getSheet, clock, keys };
}

const cents = (v: unknown): number => Math.round(Number(v ?? 0) * 100);

export interface Tally {
  count: number;
  cents: number;
}

export interface Expected {
  invoices: Tally;
  notesIssued: Tally;
  notesMissing: Tally;
  issRetido: number;
  issDue: number;
  chargesOpen: Tally;
  chargesOverdue: Tally;
  divergences: number;
  empty: boolean;
}

const tally = (rows: Rec[], value: (r: Rec) => unknown): Tally => ({ count: rows.length, cents: rows.reduce((n, r) => n + cents(value(r)), 0) });

/** The first and last due days of the charges a competência's month is read with: its first day to the end of the second month after. */
export function windowOf(competencia: string): [string, string] {
  const [m, y] = competencia.split('/').map(Number);
  const end = new Date(Date.UTC(y, m + 2, 0));
  return [`${y}-${String(m).padStart(2, '0')}-01`, end.toISOString().slice(0, 10)];
}

/** One organization's month from its dump, worked out without the code under test. */
export async function expectedMonth(sb: SandboxHandle, org: string, competencia: string): Promise<Expected> {
  const [faturas, nfse, cobrancas] = await Promise.all([sb.dump<Rec>(org, 'faturas'), sb.dump<Rec>(org, 'nfse'), sb.dump<Rec>(org, 'cobrancas')]);
  const [from, to] = windowOf(competencia);
  const invoices = faturas.filter((f) => f.competencia === competencia);
  const live = invoices.filter((f) => f.statusFatura !== 'CANCELADA');
  const issued = (n: Rec) => n.statusNotaFiscalServico === 'AUTORIZADA' || n.statusNotaFiscalServico === 'EMITIDA';
  const notes = nfse.filter((n) => n.competencia === competencia);
  const issuedNotes = notes.filter(issued);
  const noted = new Set(notes.filter(issued).map((n) => n.idFatura));
  const missing = live.filter((f) => !noted.has(f.idFatura));
  const byId = new Map(invoices.map((f) => [f.idFatura, f]));
  const differ = issuedNotes.filter((n) => byId.has(n.idFatura) && cents(n.valorServico) !== cents(byId.get(n.idFatura)!.valorTotal));
  const unnumbered = issuedNotes.filter((n) => !n.numeroNotaFiscalServico);
  const charges = cobrancas.filter((c) => c.competencia === competencia && c.dataVencimento >= from && c.dataVencimento <= to);
  const closed = (c: Rec) => ['CANCELADA', 'CANCELADO', 'BAIXA_POR_PERDA', 'BAIXADO'].includes(String(c.situacao).toUpperCase());
  const liveCharges = charges.filter((c) => c.isQuitado || !closed(c));
  const open = liveCharges.filter((c) => !c.isQuitado);
  const overdue = open.filter((c) => c.dataVencimento < TODAY);
  // Every invoice of a client takes one charge of that client while any is left, so only the counts per client matter.
  const perClient = new Map<number, [number, number]>();
  for (const f of live) perClient.set(f.idCliente, [(perClient.get(f.idCliente)?.[0] ?? 0) + 1, perClient.get(f.idCliente)?.[1] ?? 0]);
  for (const c of liveCharges) perClient.set(c.idCliente, [perClient.get(c.idCliente)?.[0] ?? 0, (perClient.get(c.idCliente)?.[1] ?? 0) + 1]);
  let unpaired = 0;
  for (const [i, c] of perClient.values()) unpaired += Math.abs(i - c);
  return {
    invoices: tally(live, (f) => f.valorTotal),
    notesIssued: tally(issuedNotes, (n) => n.valorServico),
    notesMissing: tally(missing, (f) => f.valorTotal),
    issRetido: issuedNotes.filter((n) => n.issRetido === 2).reduce((t, n) => t + cents(n.valorIss), 0),
    issDue: issuedNotes.filter((n) => n.issRetido !== 2).reduce((t, n) => t + cents(n.valorIss), 0),
    chargesOpen: tally(
      open.filter((c) => c.dataVencimento >= TODAY),
      (c) => c.valor,
    ),
    chargesOverdue: tally(overdue, (c) => c.valor),
    divergences: missing.length + differ.length + unnumbered.length + unpaired,
    empty: invoices.length === 0 && notes.length === 0 && charges.length === 0,
  };
}
