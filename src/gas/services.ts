/** Wiring of the core to Apps Script's services. */
import { BillingClient } from '../api/client';
import { UserError } from '../api/user-error';
import { ConnectionStore, type Connection } from '../core/connections/connections';
import { type KeyValueStore, readOnce } from '../core/ports';
import { type Identity, OwnerStore } from '../core/trust/owners';
import { SERVICE_TIME_ZONE } from '../core/reports/reports';
import { scrubbingTransport, urlFetchTransport } from './urlfetch-transport';
import { workStore } from './work-store';
import { lazySeal, type Seal, SignedStore } from '../core/trust/seal';
import { base64Of } from '../core/trust/base64';
import type { Zone } from '../api/calendar';
import { gasZone } from './zone';

/** Apps Script's refusals of a property write, in words a person can act on. */
function storageError(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  if (/property storage quota/i.test(message)) {
    return new UserError(
      'O espaço que o Google dá a este complemento (500 KB, nas suas propriedades ou nas da planilha) está cheio. Exclua relatórios que não usa em Relatórios, ou lotes já concluídos, e tente de novo: nada do que estava salvo foi alterado.',
    );
  }
  if (/argument too large/i.test(message))
    return new UserError('Um dado passou do limite de 9 KB por propriedade do Google e não foi salvo; o que estava salvo continua igual.');
  if (/too many times for one day/i.test(message)) {
    return new UserError(
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
    setMany: (values) => {
      try {
        props.setProperties(values);
      } catch (err) {
        throw storageError(err);
      }
    },
  };
}

/** The user's properties, asked for once per execution (each ask is a service call): they are read live through it. */
let userProperties: GoogleAppsScript.Properties.Properties | undefined;

/**
 * What only the person changes by hand, in a sidebar (their identity, their
 * connections and keys), is read once per execution: a run asks it at every
 * request it builds, each a property call. Everything else (the agenda, the
 * day's usage, signatures) is read live, as other executions write it, but
 * while this execution holds the user's lock (below).
 */
const STEADY = /^faturamento\.(usuario$|conexoes$|conexao\.)/;
const steady = new Map<string, string | null>();

/** The day's usage, which every execution adds to after its work without the user lock: always read live. */
const UNLOCKED = /^faturamento\.uso$/;

/**
 * The user's properties as this execution holds them while it holds their
 * user lock: every other of their executions that writes them waits for the
 * lock, so one read of all of them serves every read until it is released.
 */
let held: KeyValueStore | null = null;

/** Taken with the user lock: the next read of the user's properties reads them all, once. */
export function holdUserProperties(): void {
  held = readOnce(propertyStore((userProperties ??= PropertiesService.getUserProperties())));
}

/** Dropped with the user lock: from then on other executions may change them. */
export function releaseUserProperties(): void {
  held = null;
}

export const userStore = (): KeyValueStore => {
  const live = propertyStore((userProperties ??= PropertiesService.getUserProperties()));
  const now = (key?: string): KeyValueStore => (held && !(key && UNLOCKED.test(key)) ? held : live);
  return {
    get(key) {
      if (!STEADY.test(key)) return now(key).get(key);
      if (!steady.has(key)) steady.set(key, now(key).get(key));
      return steady.get(key) ?? null;
    },
    set(key, value) {
      now(key).set(key, value);
      if (STEADY.test(key)) steady.set(key, value);
    },
    delete(key) {
      now(key).delete(key);
      steady.delete(key);
    },
    keys: () => now().keys(),
    all: () => now().all?.() ?? {},
    setMany(values) {
      now().setMany?.(values);
      for (const [key, value] of Object.entries(values)) if (STEADY.test(key)) steady.set(key, value);
    },
  };
};
/**
 * The document's stored work (a hidden sheet: see work-store.ts), of the active document unless another is given.
 * Every value saved there is signed as the running user's, and can be checked against their signatures (core/trust/seal.ts).
 */
export function documentStore(
  ss: GoogleAppsScript.Spreadsheet.Spreadsheet = SpreadsheetApp.getActiveSpreadsheet(),
  sheet: KeyValueStore = workStore(ss),
): SignedStore {
  const id = documentId(ss);
  let seal = seals.get(id);
  if (!seal) {
    seal = lazySeal(() => {
      const owners = ownerStore();
      return owners.seal(currentUser(owners), id);
    });
    seals.set(id, seal);
  }
  return SignedStore.over(sheet, seal);
}

/** The document's stored work read whole at its first read, then from memory (see `readOnce`): for a caller under the document lock that reads much of it. */
export function documentView(ss: GoogleAppsScript.Spreadsheet.Spreadsheet = SpreadsheetApp.getActiveSpreadsheet()): SignedStore {
  return documentStore(ss, readOnce(workStore(ss)));
}

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** What a spreadsheet answers that does not change during an execution, asked of it once per spreadsheet object (each ask is a round trip). */
function askedOnce<T>(ask: (ss: Spreadsheet) => T): ((ss: Spreadsheet) => T) & { known: (ss: Spreadsheet, answer: T) => void } {
  const answers = new WeakMap<Spreadsheet, T>();
  const asked = (ss: Spreadsheet): T => {
    if (!answers.has(ss)) answers.set(ss, ask(ss));
    return answers.get(ss) as T;
  };
  return Object.assign(asked, { known: (ss: Spreadsheet, answer: T) => void answers.set(ss, answer) });
}

/** A document's id. */
export const documentId = askedOnce((ss) => ss.getId());

/** The document with this id, opened by it: its id is known, not asked again. */
export function openDocument(id: string): Spreadsheet {
  const ss = SpreadsheetApp.openById(id);
  documentId.known(ss, id);
  return ss;
}

/** The running user's e-mail, asked once per execution. */
let email: string | undefined;
export function userEmail(): string {
  email ??= Session.getEffectiveUser().getEmail();
  return email;
}

/** One seal per document for the whole execution: a store made later sees the signatures an earlier one wrote. */
const seals = new Map<string, Seal>();

/**
 * Applies this execution's pending writes to every spreadsheet (Sheets keeps
 * them until a flush), then drops the signatures of the values they replaced:
 * only once the new values are in the document may the old ones stop counting.
 */
export function flushWrites(): void {
  SpreadsheetApp.flush();
  for (const seal of seals.values()) seal.commit();
}

/** One per execution: the running user's signatures are read once, and every store of the execution sees the ones it writes. */
let owners: OwnerStore | undefined;

/** A signature depends on its text and secret alone: an item read twice in an execution (the run, then the trigger's upkeep) is checked once. */
const signatures = new Map<string, string>();

export function ownerStore(): OwnerStore {
  owners ??= new OwnerStore(
    userStore(),
    () => Utilities.getUuid(),
    (text, secret) => {
      const asked = `${secret}\u0000${text}`;
      let signature = signatures.get(asked);
      if (signature === undefined) signatures.set(asked, (signature = base64Of(Utilities.computeHmacSha256Signature(text, secret))));
      return signature;
    },
  );
  return owners;
}

/** The running user (a trigger's owner in a trigger run), with their stable id. */
export function currentUser(owners: OwnerStore = ownerStore()): Identity {
  return owners.identity(userEmail());
}

/** Written by the build from addon.config.json (see build.ts); absent when this code runs outside the bundle. */
declare const __API_BASE_URLS__: string[] | undefined;

/** The API base URLs this build may reach, or null when not built with a list. */
export function allowedBaseUrls(): string[] | null {
  return typeof __API_BASE_URLS__ === 'undefined' ? null : __API_BASE_URLS__;
}

export function connectionStore(): ConnectionStore {
  return new ConnectionStore(userStore(), () => Utilities.getUuid(), allowedBaseUrls());
}

const zoneOf = askedOnce((ss) => ss.getSpreadsheetTimeZone());

export function spreadsheetTimeZone(ss: GoogleAppsScript.Spreadsheet.Spreadsheet | null = SpreadsheetApp.getActiveSpreadsheet()): string {
  return (ss && zoneOf(ss)) || Session.getScriptTimeZone() || 'America/Sao_Paulo';
}

/** The zone a connection's service keeps its clock in; a missing connection fails later, where its key is asked for. */
export function serviceTimeZone(connectionName: string): string {
  try {
    return connectionStore().get(connectionName).timeZone || SERVICE_TIME_ZONE;
  } catch {
    return SERVICE_TIME_ZONE;
  }
}

export interface ClientOptions {
  timeoutMs?: number;
  concurrency?: number;
  /** For a key typed in the form and not saved yet. */
  apiKey?: string;
  retries?: number;
  /** The document's zone (default: the active document's). */
  zone?: Zone;
}

export function clientFor(connection: Connection, options: ClientOptions = {}): BillingClient {
  const store = connectionStore();
  const apiKey = options.apiKey ?? store.apiKey(connection.id);
  return new BillingClient({
    baseUrl: connection.baseUrl,
    apiKey,
    transport: scrubbingTransport(urlFetchTransport, [apiKey, ...store.secrets()]),
    sleep: (ms) => Utilities.sleep(ms),
    zone: options.zone ?? gasZone(spreadsheetTimeZone()),
    serviceZone: gasZone(connection.timeZone || SERVICE_TIME_ZONE),
    timeoutMs: options.timeoutMs,
    retry: options.retries !== undefined ? { retries: options.retries } : undefined,
    // What fetchAll runs at once (FETCH_ALL_CONCURRENCY in the emulator): a wave is then one round trip, at worst one 60 s time-out.
    concurrency: options.concurrency ?? 10,
    pageSize: 100,
  });
}
