/**
 * Passing errors: Google's services fail now and then for a moment, with
 * messages of their own, and the same call succeeds a little later
 * (developers.google.com/apps-script/guides/support/troubleshooting). A
 * document that fails to open once is not a lost document, and a property
 * read that fails once is not an empty store. Off unless a test sets a rate:
 * Google publishes none, and a test must say which calls fail to prove
 * anything about them.
 */
import { seeded } from './random';
import { DOCUMENT_OBJECTS } from './torn-writes';

/** The services whose calls can fail for a moment. */
export type FaultService = 'spreadsheets' | 'openById' | 'urlFetch' | 'properties';

export const FAULT_SERVICES: readonly FaultService[] = ['spreadsheets', 'openById', 'urlFetch', 'properties'];

export interface FaultOptions {
  /** Share of eligible calls that fail, 0 to 1. */
  rate: number;
  /** Seed of the draws (default 1): which calls fail, and with which message. */
  seed?: number;
  /** Which services fail (default all four). */
  services?: readonly FaultService[];
}

export const SERVER_ERROR_MESSAGE = "We're sorry, a server error occurred. Please wait a bit and try again.";
export const spreadsheetsFailedMessage = (documentId: string): string => `Service Spreadsheets failed while accessing document with id ${documentId}.`;
export const tooManyTimesMessage = (service: string): string =>
  `Service invoked too many times in a short time: ${service}. Try Utilities.sleep(1000) between calls.`;

/** SpreadsheetApp's calls that build a value in the script (no round trip), and openById, a service of its own here. */
const LOCAL_APP_CALLS = new Set(['getUi', 'newDataValidation', 'newFilterCriteria', 'openById']);

/** Which service a call belongs to for passing errors; null for calls that cannot fail so (builders, values that never leave the script). */
export function faultService(object: string, method: string): FaultService | null {
  if (object === 'SpreadsheetApp') return method === 'openById' ? 'openById' : LOCAL_APP_CALLS.has(method) ? null : 'spreadsheets';
  if (DOCUMENT_OBJECTS.has(object) || object === 'Selection' || object === 'DeveloperMetadataFinder') return 'spreadsheets';
  if (object === 'UrlFetchApp') return method === 'fetch' || method === 'fetchAll' ? 'urlFetch' : null;
  if (object === 'Properties' || object === 'PropertiesService') return 'properties';
  return null;
}

/** Google's words for a passing failure of `service`, on the document `documentId` (Sheets). */
function messagesOf(service: FaultService, documentId: string): string[] {
  switch (service) {
    case 'spreadsheets':
    case 'openById':
      return [spreadsheetsFailedMessage(documentId), SERVER_ERROR_MESSAGE];
    case 'urlFetch':
      return [SERVER_ERROR_MESSAGE, tooManyTimesMessage('urlfetch')];
    case 'properties':
      return [SERVER_ERROR_MESSAGE, tooManyTimesMessage('properties')];
  }
}

/** The document a Sheets object belongs to, when it says. */
function documentOf(target: object | undefined): string | undefined {
  return (target as { env?: { model?: { id?: string } } } | undefined)?.env?.model?.id;
}

/** Draws, call after call, whether a call fails for a moment and with which message. */
export class Faults {
  private readonly random: () => number;
  private readonly services: ReadonlySet<FaultService>;

  constructor(private readonly options: FaultOptions) {
    this.random = seeded(options.seed ?? 1);
    this.services = new Set(options.services ?? FAULT_SERVICES);
  }

  /**
   * The message a call fails with, or null when it goes through. `target` is the object called and `args` its
   * arguments (openById's id); `activeId` names the document of calls on SpreadsheetApp.
   */
  failure(object: string, method: string, target: object | undefined, args: readonly unknown[], activeId: string | null): string | null {
    const service = faultService(object, method);
    if (service === null || !this.services.has(service) || this.options.rate <= 0) return null;
    if (this.random() >= this.options.rate) return null;
    const documentId = service === 'openById' ? String(args[0]) : (documentOf(target) ?? activeId ?? '');
    const messages = messagesOf(service, documentId);
    return messages[Math.floor(this.random() * messages.length)];
  }
}
