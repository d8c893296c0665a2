/** Wiring of the core to Apps Script's services. */
import { BillingClient } from '../api/client';
import { ConnectionStore, type Connection } from '../core/connections';
import type { KeyValueStore } from '../core/ports';
import { urlFetchTransport } from './urlfetch-transport';
import { gasZone } from './zone';

export function propertyStore(props: GoogleAppsScript.Properties.Properties): KeyValueStore {
  return {
    get: (key) => props.getProperty(key),
    set: (key, value) => {
      props.setProperty(key, value);
    },
    delete: (key) => {
      props.deleteProperty(key);
    },
    keys: () => props.getKeys(),
    all: () => props.getProperties(),
  };
}

export const userStore = (): KeyValueStore => propertyStore(PropertiesService.getUserProperties());
export const documentStore = (): KeyValueStore => propertyStore(PropertiesService.getDocumentProperties());

export function connectionStore(): ConnectionStore {
  return new ConnectionStore(userStore(), () => Utilities.getUuid());
}

export function spreadsheetTimeZone(): string {
  return SpreadsheetApp.getActiveSpreadsheet()?.getSpreadsheetTimeZone() || Session.getScriptTimeZone() || 'America/Sao_Paulo';
}

export interface ClientOptions {
  timeoutMs?: number;
  concurrency?: number;
  /** For a key typed in the form and not saved yet. */
  apiKey?: string;
  retries?: number;
}

export function clientFor(connection: Connection, options: ClientOptions = {}): BillingClient {
  const apiKey = options.apiKey ?? connectionStore().apiKey(connection.id);
  return new BillingClient({
    baseUrl: connection.baseUrl,
    apiKey,
    transport: urlFetchTransport,
    sleep: (ms) => Utilities.sleep(ms),
    zone: gasZone(spreadsheetTimeZone()),
    timeoutMs: options.timeoutMs,
    retry: options.retries !== undefined ? { retries: options.retries } : undefined,
    // What fetchAll runs at once (FETCH_ALL_CONCURRENCY in the emulator): a wave is then one round trip, at worst one 60 s time-out.
    concurrency: options.concurrency ?? 10,
    pageSize: 100,
  });
}
