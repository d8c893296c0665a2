/**
 * Runs a person asked for from the Central do escritório ("Atualizar
 * relatórios agora") in the spreadsheets other than the one they are in: per
 * spreadsheet, the companies (connection ids) whose reports there are to run.
 * Kept in the user's properties, so the hourly run that opens the spreadsheet
 * finds them without a second look, and the sidebar's own visit as well; a
 * request goes only once its spreadsheet's runs were started, so a kill
 * between the two runs them again rather than never.
 */
import { UserError } from '../../api/user-error';
import { type KeyValueStore, readJson } from '../ports';
import { utf8Bytes } from '../trust/job-store';

const KEY = 'faturamento.pedidos';

/** One property value. */
export const ASKED_BYTES = 8 * 1024;

type Asked = Record<string, string[]>;

function read(store: KeyValueStore): Asked {
  const stored = readJson<unknown>(store, KEY, {});
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return {};
  const out: Asked = {};
  for (const [doc, ids] of Object.entries(stored)) if (Array.isArray(ids)) out[doc] = ids.filter((id): id is string => typeof id === 'string');
  return out;
}

function write(store: KeyValueStore, asked: Asked): void {
  const kept = Object.fromEntries(Object.entries(asked).filter(([, ids]) => ids.length > 0));
  if (Object.keys(kept).length === 0) {
    store.delete(KEY);
    return;
  }
  const text = JSON.stringify(kept);
  if (utf8Bytes(text) > ASKED_BYTES)
    throw new UserError(
      'O pedido não foi salvo: há pedidos de atualização demais esperando nas suas outras planilhas. Espere a próxima execução automática atender os que já estão lá e peça de novo.',
    );
  store.set(KEY, text);
}

/** The companies whose reports are asked to run in `documentId`. */
export function askedIn(store: KeyValueStore, documentId: string): ReadonlySet<string> {
  return new Set(read(store)[documentId] ?? []);
}

/** Asks for the reports of `connectionId` to run in each of `documents`. */
export function askRuns(store: KeyValueStore, documents: readonly string[], connectionId: string): void {
  const asked = read(store);
  for (const doc of documents) asked[doc] = [...new Set([...(asked[doc] ?? []), connectionId])];
  write(store, asked);
}

/** The requests of `documentId` that were served (`connections`): gone; any asked meanwhile stays. */
export function served(store: KeyValueStore, documentId: string, connections: ReadonlySet<string>): void {
  if (connections.size === 0) return;
  const asked = read(store);
  const left = (asked[documentId] ?? []).filter((id) => !connections.has(id));
  if (left.length === (asked[documentId] ?? []).length) return;
  asked[documentId] = left;
  write(store, asked);
}
