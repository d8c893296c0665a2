/** Server side of the Conexões sidebar. Nothing returned here carries a key. */
import { checkConnection, type CheckResult } from '../core/connection-check';
import { type ConnectionInput, type ConnectionView, hostProblem, normaliseBaseUrl } from '../core/connections';
import { type FieldRefusal, formOutcome } from './outcome';
import { allowedBaseUrls, clientFor, connectionStore } from './services';
import { showSidebar } from './ui';

export function showConnections(): void {
  showSidebar('Conexoes', 'Conexões');
}

/** The base URLs the form offers: those this build may reach (addon.config.json). */
export function getConnectionOptions(): { baseUrls: string[] } {
  return { baseUrls: allowedBaseUrls() ?? [] };
}

export function listConnections(): ConnectionView[] {
  return connectionStore().list();
}

export type SaveOutcome = { ok: true; connection: ConnectionView } | FieldRefusal;

export function saveConnection(input: ConnectionInput): SaveOutcome {
  return formOutcome(() => ({ ok: true as const, connection: connectionStore().upsert(input) }));
}

export function removeConnection(id: string): ConnectionView[] {
  const store = connectionStore();
  store.remove(id);
  return store.list();
}

export interface TestInput {
  id?: string;
  baseUrl?: string;
  /** A key typed but not saved yet; blank uses the saved one. */
  apiKey?: string;
}

export function testConnection(input: TestInput): CheckResult | FieldRefusal {
  return formOutcome((): CheckResult | FieldRefusal => {
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
    return checkConnection(client, () => Date.now());
  });
}
