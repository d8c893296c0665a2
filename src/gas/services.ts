/** Wiring of the core to Apps Script's services. */
import { BillingClient } from '../api/client';
import { ConnectionStore, type Connection } from '../core/connections';
import type { KeyValueStore } from '../core/ports';
import { urlFetchTransport } from './urlfetch-transport';
import { gasZone } from './zone';

/** Apps Script's refusals of a property write, in words a person can act on. */
function storageError(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  if (/property storage quota/i.test(message)) {
    return new Error(
      'O espaço que o Google dá a este complemento na planilha (500 KB) está cheio. Exclua relatórios que não usa em Relatórios, ou lotes já concluídos, e tente de novo: nada do que estava salvo foi alterado.',
    );
  }
  if (/argument too large/i.test(message))
    return new Error('Um dado passou do limite de 9 KB por propriedade do Google e não foi salvo; o que estava salvo continua igual.');
  if (/too many times for one day/i.test(message)) {
    return new Error(
      'O Google limitou as gravações de hoje deste complemento (cota diária de propriedades). Tente de novo amanhã: o que estava salvo continua igual.',
    );
  }
  return err instanceof Error ? err : new Error(message);
}

export function propertyStore(props: GoogleAppsScript.Properties.Properties): KeyValueStore {
  return {
    get: (key) => props.getProperty(key),
    set: (key, value) => {
      try {
        props.setProperty(key, value);
      } catch (err) {
        throw storageError(err);
      }
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

/** Written by the build from addon.config.json (see build.ts); absent when this code runs outside the bundle. */
declare const __API_BASE_URLS__: string[] | undefined;

/** The API base URLs this build may reach, or null when not built with a list. */
export function allowedBaseUrls(): string[] | null {
  return typeof __API_BASE_URLS__ === 'undefined' ? null : __API_BASE_URLS__;
}

export function connectionStore(): ConnectionStore {
  return new ConnectionStore(userStore(), () => Utilities.getUuid(), allowedBaseUrls());
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
