/** Server side of the Conexões sidebar. Nothing returned here carries a key. */
import { checkConnection, type CheckResult } from '../core/connections/connection-check';
import { type ConnectionInput, type ConnectionView, hostProblem, LOCAL_HOSTS, normaliseBaseUrl } from '../core/connections/connections';
import { type FieldRefusal, formOutcome } from './outcome';
import type { Report } from '../core/reports/reports';
import { reportStore } from './deps';
import { allowedBaseUrls, clientFor, connectionStore, currentUser } from './services';
import { showSidebar } from './ui';

export function showConnections(): void {
  showSidebar('Conexoes', 'Conexões');
}

/** The base URLs the form offers: those this build may reach (addon.config.json), and the local hosts it also saves (a sandbox). */
export function getConnectionOptions(): { baseUrls: string[]; localHosts: string[] } {
  return { baseUrls: allowedBaseUrls() ?? [], localHosts: [...LOCAL_HOSTS] };
}

/** A connection as the sidebar lists it: with the names of the running user's reports that read it, for "Remover" to say. */
export type ConnectionCard = ConnectionView & { reports: string[] };

export function listConnections(): ConnectionCard[] {
  return withReports(connectionStore().list());
}

/** Each connection with the running user's reports that read it (a consolidated report of all their connections reads every one). */
function withReports(list: readonly ConnectionView[]): ConnectionCard[] {
  const me = currentUser().id;
  const mine = reportStore()
    .list()
    .filter((r) => r.owner?.id === me);
  const reads = (r: Report, id: string) => (r.companies ? r.companies.all || r.companies.ids.includes(id) : r.connectionId === id);
  return list.map((c) => ({ ...c, reports: mine.filter((r) => reads(r, c.id)).map((r) => r.name) }));
}

export type SaveOutcome = { ok: true; connection: ConnectionView } | FieldRefusal;

export function saveConnection(input: ConnectionInput): SaveOutcome {
  return formOutcome(() => ({ ok: true as const, connection: connectionStore().upsert(input) }));
}

export function removeConnection(id: string): ConnectionCard[] {
  const store = connectionStore();
  store.remove(id);
  return withReports(store.list());
}

export interface TestInput {
  id?: string;
  baseUrl?: string;
  /** A key typed but not saved yet; blank uses the saved one. */
  apiKey?: string;
}

/** What Testar says; testing a saved connection as saved also says when another connection reaches the same organization. */
export type TestOutcome = (CheckResult & { warning?: string }) | FieldRefusal;

export function testConnection(input: TestInput): TestOutcome {
  return formOutcome((): TestOutcome => {
    const store = connectionStore();
    const saved = input.id ? store.get(input.id) : undefined;
    const baseUrl = input.baseUrl ? normaliseBaseUrl(input.baseUrl) : saved?.baseUrl;
    if (!baseUrl) return { ok: false, field: 'baseUrl', message: 'Informe o endereço base.' };
    const blocked = hostProblem(baseUrl, store.allowed);
    if (blocked) return { ok: false, field: 'baseUrl', message: blocked };
    const apiKey = input.apiKey?.trim() || (saved ? store.apiKey(saved.id) : '');
    if (!apiKey) return { ok: false, field: 'apiKey', message: 'Informe a chave de API.' };
    const connection = { id: saved?.id ?? 'teste', name: saved?.name ?? 'teste', baseUrl, isDefault: false };
    // One retry at most: a person is waiting for the answer.
    const client = clientFor(connection, { apiKey, timeoutMs: 15_000, concurrency: 4, retries: 1 });
    const result = checkConnection(client, () => Date.now());
    // Only what the saved key and address answer belongs to the saved connection (a typed key is not saved yet).
    if (!saved || baseUrl !== saved.baseUrl || (input.apiKey?.trim() && input.apiKey.trim() !== store.apiKey(saved.id))) return result;
    store.recordCheck(
      saved.id,
      result.ok ? { organization: result.organization } : { keyProblem: result.code === 'unauthorized' ? 'Chave recusada' : 'Teste falhou' },
    );
    const warning = result.ok ? store.sameOrganization(saved.id) : undefined;
    return warning ? { ...result, warning } : result;
  });
}
