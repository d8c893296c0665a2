/**
 * One Apps Script execution: its virtual clock, its realm, who runs it and in
 * which auth mode, and the counters benchmarks read. Every call a script makes
 * on an emulated service passes through `enter`, which is where the 6-minute
 * kill, the auth-mode checks and the per-call costs live.
 */
import { authDenial, type AuthModeName } from './auth';
import type { CallCosts, ExecutionClock } from './clock';
import type { Faults } from './faults';
import type { Realm } from './realm';
import type { Landed } from './torn-writes';

export type InvocationKind = 'ui' | 'trigger' | 'simple-trigger';

export interface Counters {
  /** Calls on SpreadsheetApp, Spreadsheet, Sheet, Range and their helpers. */
  spreadsheetCalls: number;
  cellsWritten: number;
  cellsRead: number;
  /** Individual HTTP requests sent through UrlFetchApp. */
  urlFetchRequests: number;
  /** fetch calls plus fetchAll calls: each is one round of concurrent requests. */
  urlFetchWaves: number;
  propertyReads: number;
  propertyWrites: number;
  /** Every emulated service call, of any kind. */
  serviceCalls: number;
  /** Virtual milliseconds this execution spent. */
  virtualMs: number;
  /** Characters of code compiled with `Function` during the execution: the bundle's lazy chunks it loaded. */
  compiledChars: number;
  /** Files of the project read through HtmlService: a sidebar's page, a lazy chunk's code. */
  filesRead: number;
}

export const emptyCounters = (): Counters => ({
  spreadsheetCalls: 0,
  cellsWritten: 0,
  cellsRead: 0,
  urlFetchRequests: 0,
  urlFetchWaves: 0,
  propertyReads: 0,
  propertyWrites: 0,
  serviceCalls: 0,
  virtualMs: 0,
  compiledChars: 0,
  filesRead: 0,
});

export function addCounters(into: Counters, from: Counters): void {
  for (const key of Object.keys(into) as (keyof Counters)[]) into[key] += from[key];
}

/**
 * Objects whose calls cost no round trip of their own: UrlFetchApp charges per
 * wave itself, an HTTPResponse holds what that wave already brought back (its
 * code, headers and text), and logging is free in Apps Script too.
 */
const UNCHARGED = new Set(['UrlFetchApp', 'HTTPResponse', 'Logger', 'console']);

export interface ServiceCall {
  object: string;
  method: string;
  /** 1-based index of this call in the execution. */
  index: number;
  execution: Execution;
  /** What the script passed (host values, the emulator's objects unwrapped). */
  args: readonly unknown[];
}

export const KILL_MESSAGE = 'Exceeded maximum execution time';

const SPREADSHEET_OBJECTS = new Set([
  'SpreadsheetApp',
  'Spreadsheet',
  'Sheet',
  'Range',
  'RangeList',
  'Selection',
  'DataValidationBuilder',
  'DataValidation',
  'Filter',
  'FilterCriteria',
  'FilterCriteriaBuilder',
  'EmbeddedChart',
  'EmbeddedChartBuilder',
  'ContainerInfo',
  'ChartOptions',
  'PivotTable',
  'PivotGroup',
  'PivotValue',
  'PivotFilter',
  'Protection',
]);

/** Calls on other objects that are a round trip to the spreadsheet all the same: a metadata search reads the document. */
const SPREADSHEET_CALLS = new Set(['DeveloperMetadataFinder.find']);

const isSpreadsheetCall = (object: string, method: string) => SPREADSHEET_OBJECTS.has(object) || SPREADSHEET_CALLS.has(`${object}.${method}`);

export interface ExecutionInit {
  id: number;
  clock: ExecutionClock;
  realm: Realm;
  authMode: AuthModeName;
  user: string;
  kind: InvocationKind;
  costs: CallCosts;
  /** The user must authorize the script again (TriggerStore.authorizationRequired): true, or the scopes still to grant. */
  authorizationRequired?: boolean | readonly string[];
  onServiceCall?: (call: ServiceCall) => void;
  /** Kill the execution at this service call (1-based): the call does not run. */
  killAtCall?: number;
  /** What of its unflushed sheet writes a kill lands (torn-writes.ts), and the draws of `random`. */
  landing?: { landed: Landed; random: () => number };
  /** Passing errors of Google's services (faults.ts), or none. */
  faults?: Faults | null;
  /** The active document's id, named by a passing error of a call on SpreadsheetApp. */
  activeDocumentId?: string | null;
}

export class Execution {
  readonly id: number;
  readonly clock: ExecutionClock;
  readonly realm: Realm;
  readonly authMode: AuthModeName;
  readonly user: string;
  readonly kind: InvocationKind;
  readonly costs: CallCosts;
  readonly authorizationRequired: boolean | readonly string[];
  readonly landing: { landed: Landed; random: () => number };
  readonly counters = emptyCounters();
  killed = false;
  /** Cells written when the execution last flushed: writes after it are applied, at their cost, when it ends. */
  cellsAtFlush = 0;
  /** Before each Spreadsheet call: brings in what other executions committed meanwhile (office.ts). */
  onSpreadsheetCall?: () => void;
  /** Before every call that passes the gate: where a kill's torn writes are counted (office.ts). */
  beforeCall?: (object: string, method: string) => void;
  private calls = 0;
  private readonly onServiceCall?: (call: ServiceCall) => void;
  private readonly killAtCall?: number;
  private readonly faults: Faults | null;
  private readonly activeDocumentId: string | null;

  constructor(init: ExecutionInit) {
    this.id = init.id;
    this.clock = init.clock;
    this.realm = init.realm;
    this.authMode = init.authMode;
    this.user = init.user;
    this.kind = init.kind;
    this.costs = init.costs;
    this.authorizationRequired = init.authorizationRequired ?? false;
    this.onServiceCall = init.onServiceCall;
    this.killAtCall = init.killAtCall;
    this.landing = init.landing ?? { landed: 'none', random: Math.random };
    this.faults = init.faults ?? null;
    this.activeDocumentId = init.activeDocumentId ?? null;
  }

  /** Charges the size-dependent part of a call (cells, formats), which `enter` cannot know. */
  charge(ms: number): void {
    this.clock.advance(ms);
  }

  /** An Error from the script's own realm, as Apps Script's exceptions are. */
  error(message: string): Error {
    return this.realm.error(message, 'Exception');
  }

  /**
   * Gate for every service call. The kill is sticky: a script that catches it
   * dies again at its next call, and the run is reported as killed whatever it
   * does afterwards, because Apps Script gives it no second chance. A passing
   * error fails the call after its round trip, as Google's do. `target` is the
   * object called and `args` its arguments, which a passing error may name.
   */
  enter(object: string, method: string, target?: object, args: readonly unknown[] = []): void {
    if (this.killed || this.clock.pastDeadline() || this.calls + 1 === this.killAtCall) {
      this.killed = true;
      throw this.realm.error(KILL_MESSAGE, 'Error');
    }
    const denial = authDenial(object, method, this.authMode, this.authorizationRequired);
    if (denial) throw this.error(denial);
    this.calls += 1;
    this.counters.serviceCalls += 1;
    if (isSpreadsheetCall(object, method)) {
      this.counters.spreadsheetCalls += 1;
      this.clock.advance(this.costs.spreadsheetCallMs);
    } else if (object === 'Properties') {
      this.clock.advance(this.costs.propertyCallMs);
    } else if (!UNCHARGED.has(object)) {
      this.clock.advance(this.costs.otherCallMs);
    }
    this.beforeCall?.(object, method);
    this.onServiceCall?.({ object, method, index: this.calls, execution: this, args });
    if (isSpreadsheetCall(object, method)) this.onSpreadsheetCall?.();
    const failure = this.faults?.failure(object, method, target, args, this.activeDocumentId);
    if (failure) throw this.error(failure);
  }
}
