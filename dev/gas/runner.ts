/**
 * The emulator: persistent state (spreadsheet, properties, cache, locks,
 * triggers, UI records) shared by executions that each get a FRESH vm context
 * with the bundle loaded as a classic script, like consecutive Apps Script
 * executions. Functions are called by name as menus, triggers and
 * google.script.run call them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import type { Transport } from '../../src/api/transport';
import { nodeTransport } from '../http/node-transport';
import { sourceBundleParts } from './bundle';
import type { AuthModeName } from './auth';
import { CacheServiceImpl, CacheStores } from './cache';
import { type CallCosts, DEFAULT_BUDGET_MS, DEFAULT_COSTS, ExecutionClock, FETCH_ALL_CONCURRENCY } from './clock';
import { addCounters, type Counters, emptyCounters, Execution, type InvocationKind, KILL_MESSAGE, type ServiceCall } from './execution';
import { type FaultOptions, Faults } from './faults';
import { HtmlServiceImpl } from './html-service';
import { expose } from './instrument';
import { lockKey, LockServiceImpl, LockTable } from './lock';
import { ConsoleImpl, type LogEntry, LoggerImpl } from './logger';
import { MailAppImpl, type SentMail } from './mail';
import { ChartsImpl } from './charts';
import { PropertiesServiceImpl, PropertyStores } from './properties';
import { DailyQuota } from './quota';
import { isDate, Realm, toHost } from './realm';
import { ScriptAppImpl, TriggerStore, nextRunAfter, type TriggerRecord } from './script-app';
import { SessionImpl } from './session';
import { serializeForScriptRun } from './serialization';
import { SpreadsheetAppImpl } from './spreadsheet-app';
import { SpreadsheetModel } from './spreadsheet-model';
import { Office, spreadsheetId } from './office';
import { hashed, seeded } from './random';
import type { Landed } from './torn-writes';
import { type Firing, type TriggerFaults, triggerFirings } from './trigger-timing';
import { wallClock } from './tz';
import { UiState } from './ui';
import { UrlFetchAppImpl } from './url-fetch';
import { UtilitiesImpl } from './utilities';
import { displayValue } from './number-format';
import { computedValue } from './formula';
import { isFormula, serialToMs, type Stored } from './values';
import { isDateFormat } from './number-format';
import { parseA1 } from './a1';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DEFAULT_CODE_PATH = join(repoRoot, 'dist/Code.js');

export interface EmulatorOptions {
  /** The bundle to load; default: built in memory from the current src/ (dev/gas/bundle.ts), like dist/Code.js but never stale. */
  codePath?: string;
  /** Script source to load instead of a file (fixtures). */
  code?: string;
  /** Where createHtmlOutputFromFile looks (default: the bundle's folder). */
  htmlDir?: string;
  /**
   * Files of the project HtmlService serves before htmlDir's, by name (`chunk-bulk.html`): the in-memory bundle's
   * lazy-chunk files come with it; a test may replace one (a file pushed broken).
   */
  files?: Record<string, string>;
  /** Editor add-on rules for triggers (default true). */
  addon?: boolean;
  /** Caption createAddonMenu() gets (default "Faturamento"). */
  addonName?: string;
  /** Default user of executions (default "contador@example.com.br"). */
  user?: string;
  spreadsheet?: { id?: string; name?: string; timeZone?: string; locale?: string };
  /** appsscript.json timeZone; default read from the manifest next to the bundle, else America/Sao_Paulo. */
  scriptTimeZone?: string;
  /**
   * Apps Script evaluates local-time Date methods (getHours, new Date(y, m, d))
   * in the script's time zone. Node only has a process-wide zone, so during each
   * execution the emulator sets process.env.TZ to the script's zone and restores
   * it afterwards (default true).
   */
  setProcessTimeZone?: boolean;
  userLocale?: string;
  /** Virtual wall-clock time of the first execution (default 2026-03-02T09:00:00-03:00). */
  startAt?: Date;
  costs?: Partial<CallCosts>;
  /** Execution time limit (default 6 minutes). */
  budgetMs?: number;
  /** Add real elapsed time to virtual time (default true). */
  countRealTime?: boolean;
  transport?: Transport;
  /**
   * Real time the emulator waits for a server before it calls the request hung
   * (default 10 s). Whatever it is, a hung request costs URL_FETCH_DEADLINE_MS
   * (60 s) of virtual time and fails with "Timeout: <url>", as in Apps Script,
   * which takes no time-out option.
   */
  urlFetchTimeoutMs?: number;
  /** Requests of one fetchAll in flight at once (default FETCH_ALL_CONCURRENCY). */
  fetchAllConcurrency?: number;
  /** Virtual latency added to every UrlFetch round trip: `ms` plus up to `jitterMs`, from a seeded generator. */
  latency?: { ms?: number; jitterMs?: number; seed?: number };
  /**
   * Refuse URLs outside the manifest's urlFetchWhitelist (default true, with
   * Google's matching rules; a manifest without the field allows any URL, as a
   * test deployment does).
   */
  enforceUrlWhitelist?: boolean;
  /** Prefixes allowed on top of the manifest's: local test servers (LOCAL_TEST_SERVERS in allow-list.ts). */
  urlFetchWhitelist?: string[];
  /**
   * The users' kind of Google account, which sets the default daily quotas
   * (ACCOUNT_QUOTAS): 'consumer' (gmail.com and the like, the default) or
   * 'workspace'.
   */
  account?: AccountKind;
  /** Daily quotas per user, over the account's (`account`). */
  quotas?: Partial<DailyQuotas>;
  /** Real-time safety net for a script that loops without calling services (default 120 s). */
  realTimeoutMs?: number;
  /**
   * Google picks the minute within the hour at which an hourly trigger fires.
   * With a seed, each recurring trigger gets its own minute (drawn from the
   * seed and the trigger's id) instead of the minute it was created at.
   */
  triggerMinuteSeed?: number;
  /**
   * Whether time-driven triggers run with the document as their active
   * spreadsheet (default true). Not settled for editor add-ons: without it
   * getActiveSpreadsheet() is null and there are no document properties and no
   * document lock. runDueTriggers can override it per call.
   */
  triggerDocumentContext?: boolean;
  /**
   * 'installed' (default): the add-on as a user installs it. 'test': a test
   * deployment, in which Google runs no installable trigger (they can be
   * created, and never fire).
   */
  deployment?: 'installed' | 'test';
  /**
   * What a kill lands of an execution's sheet writes since its last flush
   * (torn-writes.ts): default 'random', any prefix drawn from `seed`, as on
   * Google; RunOptions.kill overrides it per execution.
   */
  kill?: { landed?: Landed; seed?: number };
  /** Passing errors of Sheets, openById, UrlFetchApp and PropertiesService at a rate (faults.ts); none by default. */
  faults?: FaultOptions;
  /** Runs of recurring triggers that come late (in the next hour) or not at all (trigger-timing.ts); none by default. */
  triggerFaults?: TriggerFaults;
  /**
   * A trigger whose time comes while another execution of the same call of
   * runDueTriggers is running starts inside it, at that execution's first
   * service call at or after its time, as two executions of one user overlap on
   * Google (default true; false runs them one after another).
   */
  overlappingTriggers?: boolean;
}

/** How a test kills an execution: at its n-th service call, and what of its unflushed sheet writes lands. */
export interface KillOptions {
  /** The n-th service call (1-based, as ServiceCall.index counts them) dies and does not run. */
  atCall?: number;
  /** None, all, the first n writes, or a prefix of seeded random length (default: the emulator's). */
  landed?: Landed;
  /** Seed of the random prefix (default: the next draw of the emulator's kill seed). */
  seed?: number;
}

/** A further spreadsheet of the office (EmulatorOptions.spreadsheet is the first). */
export interface SpreadsheetOptions {
  /** Default: a 44-character id drawn from the name (spreadsheetId). */
  id?: string;
  name?: string;
  timeZone?: string;
  locale?: string;
  /** Who may open it; default anyone (the first document's rule). */
  editors?: string[];
}

export interface RunOptions {
  /** Default FULL (menu click, sidebar call). */
  authMode?: AuthModeName;
  user?: string;
  /** 'ui' (menu, sidebar), 'trigger' (time-driven) or 'simple-trigger' (onOpen). Default 'ui'. */
  kind?: InvocationKind;
  budgetMs?: number;
  costs?: Partial<CallCosts>;
  countRealTime?: boolean;
  /** Virtual start time (default: the emulator's current virtual time). */
  at?: Date;
  /**
   * Run with the document as the active spreadsheet (default true). False: as a
   * script's time-driven trigger, with no active spreadsheet, no document
   * properties and no document lock; SpreadsheetApp.openById still works when
   * the manifest grants the `spreadsheets` scope.
   */
  documentContext?: boolean;
  /** The active document's id (default: the first spreadsheet). */
  documentId?: string;
  /** Called at every service call, before the call runs: lets a test start an overlapping run. */
  onServiceCall?: (call: ServiceCall) => void;
  /** Kills the execution at a service call, and says what its unflushed sheet writes leave (KillOptions). */
  kill?: KillOptions;
  /** Passing errors in this execution (null: none), instead of the emulator's. */
  faults?: FaultOptions | null;
  /**
   * Apply google.script.run's rules to arguments and return value (default true).
   * Off for events built by the emulator (onOpen, triggers).
   */
  scriptRun?: boolean;
}

export type ExecutionStatus = 'ok' | 'error' | 'killed';

export interface ExecutionReport {
  id: number;
  functionName: string;
  status: ExecutionStatus;
  /** Return value as plain host data. */
  value?: unknown;
  error?: { name: string; message: string; stack?: string };
  authMode: AuthModeName;
  kind: InvocationKind;
  user: string;
  startedAt: Date;
  endedAt: Date;
  counters: Counters;
  logs: LogEntry[];
}

export class GasRunError extends Error {
  constructor(readonly report: ExecutionReport) {
    super(`${report.functionName}: ${report.status === 'killed' ? KILL_MESSAGE : report.error?.message}`);
    this.name = 'GasRunError';
  }
  get killed(): boolean {
    return this.report.status === 'killed';
  }
}

export type LockKind = 'script' | 'user' | 'document';

export type AccountKind = 'consumer' | 'workspace';

export interface DailyQuotas {
  urlFetchPerDay: number;
  propertyOpsPerDay: number;
  emailsPerDay: number;
  triggerMinutesPerDay: number;
}

/** Daily quotas per user by kind of account (developers.google.com/apps-script/guides/services/quotas). */
export const ACCOUNT_QUOTAS: Record<AccountKind, DailyQuotas> = {
  consumer: { urlFetchPerDay: 20_000, propertyOpsPerDay: 50_000, emailsPerDay: 100, triggerMinutesPerDay: 90 },
  workspace: { urlFetchPerDay: 100_000, propertyOpsPerDay: 500_000, emailsPerDay: 1_500, triggerMinutesPerDay: 360 },
};

/** What Apps Script says once a user's daily trigger runtime is spent. */
export const TRIGGER_QUOTA_MESSAGE = 'Service using too much computer time for one day';
/** Executions of one user at once (developers.google.com/apps-script/guides/services/quotas, "Simultaneous executions"). */
export const MAX_SIMULTANEOUS_EXECUTIONS = 30;
export const TOO_MANY_SCRIPTS_MESSAGE = 'There are too many scripts running simultaneously for this Google user account.';

const CALL = Symbol.for('gas-emulator.call');
const INVOKE = new vm.Script('globalThis[Symbol.for("gas-emulator.call")]()', { filename: 'gas-emulator-invoke.js' });

const DATE_PATCH = `(function (nowFn) {
  var RealDate = Date;
  var VirtualDate = new Proxy(RealDate, {
    construct: function (t, args, nt) { return Reflect.construct(t, args.length === 0 ? [nowFn()] : args, nt); },
    apply: function (t) { return new t(nowFn()).toString(); },
    get: function (t, p, r) { return p === 'now' ? function now() { return nowFn(); } : Reflect.get(t, p, r); }
  });
  Object.defineProperty(globalThis, 'Date', { value: VirtualDate, writable: true, configurable: true, enumerable: false });
})`;

/** Counts the code an execution compiles with `Function` (the bundle's lazy chunks): it behaves as before, observed. */
const COMPILE_COUNTER = `(function (count) {
  var RealFunction = Function;
  var size = function (args) { return args.length ? String(args[args.length - 1]).length : 0; };
  var CountedFunction = new Proxy(RealFunction, {
    construct: function (t, args, nt) { count(size(args)); return Reflect.construct(t, args, nt); },
    apply: function (t, self, args) { count(size(args)); return Reflect.apply(t, self, args); }
  });
  Object.defineProperty(globalThis, 'Function', { value: CountedFunction, writable: true, configurable: true, enumerable: false });
})`;

export interface Services {
  SpreadsheetApp: GoogleAppsScript.Spreadsheet.SpreadsheetApp;
  UrlFetchApp: GoogleAppsScript.URL_Fetch.UrlFetchApp;
  PropertiesService: GoogleAppsScript.Properties.PropertiesService;
  CacheService: GoogleAppsScript.Cache.CacheService;
  LockService: GoogleAppsScript.Lock.LockService;
  ScriptApp: GoogleAppsScript.Script.ScriptApp;
  HtmlService: GoogleAppsScript.HTML.HtmlService;
  Session: GoogleAppsScript.Base.Session;
  Utilities: GoogleAppsScript.Utilities.Utilities;
  Logger: GoogleAppsScript.Base.Logger;
  MailApp: GoogleAppsScript.Mail.MailApp;
  Charts: GoogleAppsScript.Charts.Charts;
  console: Pick<Console, 'log' | 'info' | 'warn' | 'error'>;
}

export const SERVICE_NAMES: (keyof Services)[] = [
  'SpreadsheetApp',
  'UrlFetchApp',
  'PropertiesService',
  'CacheService',
  'LockService',
  'ScriptApp',
  'HtmlService',
  'Session',
  'Utilities',
  'Logger',
  'MailApp',
  'Charts',
  'console',
];

interface Manifest {
  timeZone?: string;
  urlFetchWhitelist?: string[];
  oauthScopes?: string[];
}

function readManifest(codePath: string): Manifest | undefined {
  const manifest = join(dirname(codePath), 'appsscript.json');
  if (!existsSync(manifest)) return undefined;
  return JSON.parse(readFileSync(manifest, 'utf8')) as Manifest;
}

const FULL_SPREADSHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';

/** A trigger's minute within the hour, from the seed and its id (FNV-1a). */
export function ownMinute(seed: number, triggerId: string): number {
  return hashed(seed, triggerId) % 60;
}

export class GasEmulator {
  readonly options: EmulatorOptions;
  /** The first spreadsheet: the one every execution has active unless told otherwise. */
  readonly spreadsheet: SpreadsheetModel;
  /** Every spreadsheet, with its editors and what executions have not flushed yet. */
  readonly office = new Office();
  readonly properties = new PropertyStores();
  readonly cache = new CacheStores();
  readonly locks = new LockTable();
  readonly triggers = new TriggerStore();
  readonly ui: UiState;
  readonly logs: LogEntry[] = [];
  readonly mail: SentMail[] = [];
  readonly history: ExecutionReport[] = [];
  /** Sums of every execution's counters. */
  readonly totals: Counters = emptyCounters();
  readonly scriptTimeZone: string;
  /** Virtual wall clock between executions, epoch ms. */
  now: number;
  private readonly script: vm.Script;
  private readonly codePath: string;
  private readonly urlQuota: DailyQuota;
  private readonly propertyQuota: DailyQuota;
  private readonly mailQuota: DailyQuota;
  /** Trigger runtime per user per day, in virtual ms. */
  readonly triggerQuota: DailyQuota;
  private readonly whitelist: string[] | null;
  private readonly random: () => number;
  /** Draws each execution's seed for the prefix its kill lands. */
  private readonly killSeeds: () => number;
  private readonly faults: Faults | null;
  /** Executions running now, per user. */
  private readonly running = new Map<string, number>();
  private nextExecutionId = 1;
  private readonly canOpenById: boolean;
  private readonly projectFiles: Record<string, string>;

  constructor(options: EmulatorOptions = {}) {
    this.options = options;
    this.codePath = options.codePath ?? DEFAULT_CODE_PATH;
    const built = options.code === undefined && !options.codePath ? sourceBundleParts() : undefined;
    const code = options.code ?? (options.codePath ? readFileSync(options.codePath, 'utf8') : (built?.code ?? ''));
    this.projectFiles = { ...built?.files, ...options.files };
    // Apps Script shows file names like Code.gs in stack traces.
    this.script = new vm.Script(code, { filename: options.code ? 'fixture.gs' : 'Code.gs' });
    const manifest = options.code ? undefined : readManifest(this.codePath);
    this.scriptTimeZone = options.scriptTimeZone ?? manifest?.timeZone ?? 'America/Sao_Paulo';
    // Fixtures have no manifest: they may open by id.
    this.canOpenById = !manifest?.oauthScopes || manifest.oauthScopes.includes(FULL_SPREADSHEETS_SCOPE);
    const ss = options.spreadsheet ?? {};
    this.spreadsheet = this.office.add(
      new SpreadsheetModel(
        ss.id ?? '1EmuLaToRsPrEaDsHeEtIdAbCdEfGhIjKlMnOpQrStUv',
        ss.name ?? 'Faturamento (emulador)',
        ss.timeZone ?? 'America/Sao_Paulo',
        ss.locale ?? 'pt_BR',
      ),
    );
    this.ui = new UiState(options.addonName ?? 'Faturamento');
    this.now = (options.startAt ?? new Date('2026-03-02T09:00:00-03:00')).getTime();
    const q = { ...ACCOUNT_QUOTAS[options.account ?? 'consumer'], ...options.quotas };
    this.urlQuota = new DailyQuota(q.urlFetchPerDay, 'Service invoked too many times for one day: urlfetch.');
    this.propertyQuota = new DailyQuota(q.propertyOpsPerDay, 'Service invoked too many times for one day: properties.');
    this.mailQuota = new DailyQuota(q.emailsPerDay, 'Service invoked too many times for one day: email.');
    this.triggerQuota = new DailyQuota(q.triggerMinutesPerDay * 60_000, TRIGGER_QUOTA_MESSAGE);
    this.whitelist = options.enforceUrlWhitelist === false ? null : this.manifestWhitelist(options.urlFetchWhitelist ?? []);
    // The same jitter on every run of a test.
    this.random = seeded(options.latency?.seed ?? 1);
    this.killSeeds = seeded(options.kill?.seed ?? 1);
    this.faults = options.faults ? new Faults(options.faults) : null;
  }

  /** The manifest's allow-list plus `extra`; null when neither lists anything (no allow-list at all). */
  private manifestWhitelist(extra: string[]): string[] | null {
    const manifest = join(dirname(this.codePath), 'appsscript.json');
    const listed =
      !this.options.code && existsSync(manifest)
        ? (JSON.parse(readFileSync(manifest, 'utf8')) as { urlFetchWhitelist?: string[] }).urlFetchWhitelist
        : undefined;
    if (!listed && extra.length === 0) return null;
    return [...(listed ?? []), ...extra];
  }

  /**
   * What the user's other scripts spent: quotas are per user across all their
   * scripts, so this add-on's runs can meet a quota it did not spend itself.
   */
  otherScripts(user: string, use: { urlFetch?: number; triggerMinutes?: number; properties?: number }): void {
    if (use.urlFetch) this.urlQuota.record(user, this.now, use.urlFetch);
    if (use.triggerMinutes) this.triggerQuota.record(user, this.now, use.triggerMinutes * 60_000);
    if (use.properties) this.propertyQuota.record(user, this.now, use.properties);
  }

  /** Trigger runtime `user` has spent today, in virtual ms. */
  triggerMsToday(user: string): number {
    return this.triggerQuota.usedBy(user, this.now);
  }

  // ---- executions -------------------------------------------------------

  private createExecution(context: vm.Context, opts: RunOptions): Execution {
    const realm = new Realm(context);
    const clock = new ExecutionClock({
      startMs: opts.at?.getTime() ?? this.now,
      budgetMs: opts.budgetMs ?? this.options.budgetMs ?? DEFAULT_BUDGET_MS,
      countRealTime: opts.countRealTime ?? this.options.countRealTime ?? true,
    });
    const user = opts.user ?? this.options.user ?? 'contador@example.com.br';
    const killSeed = opts.kill?.seed ?? Math.floor(this.killSeeds() * 2 ** 31);
    return new Execution({
      id: this.nextExecutionId++,
      clock,
      realm,
      authMode: opts.authMode ?? 'FULL',
      user,
      authorizationRequired: this.triggers.authorizationRequired.has(user) && (this.triggers.scopesToGrant.get(user) ?? true),
      kind: opts.kind ?? 'ui',
      costs: { ...DEFAULT_COSTS, ...this.options.costs, ...opts.costs },
      onServiceCall: opts.onServiceCall,
      killAtCall: opts.kill?.atCall,
      landing: { landed: opts.kill?.landed ?? this.options.kill?.landed ?? 'random', random: seeded(killSeed) },
      faults: opts.faults === null ? null : opts.faults ? new Faults(opts.faults) : this.faults,
      activeDocumentId: (opts.documentContext ?? true) ? (opts.documentId ?? this.spreadsheet.id) : null,
    });
  }

  private wrapQuota(exec: Execution, quota: DailyQuota): () => void {
    return () => {
      try {
        quota.spend(exec.user, exec.clock.now());
      } catch (err) {
        throw exec.error((err as Error).message);
      }
    };
  }

  private services(exec: Execution, documentContext: boolean, activeId = this.spreadsheet.id): Services {
    const documentId = documentContext ? activeId : null;
    const propertyOp = this.wrapQuota(exec, this.propertyQuota);
    const office = this.office;
    exec.onSpreadsheetCall = () => office.catchUp(exec);
    exec.beforeCall = (object, method) => office.beforeCall(exec, object, method);
    const raw = {
      SpreadsheetApp: new SpreadsheetAppImpl(exec, this.ui, {
        activeId: documentId,
        openById: this.canOpenById,
        refusal: (id) => office.refusal(id, exec.user),
        working: (id) => office.working(exec, id),
        flush: () => office.commit(exec),
      }),
      UrlFetchApp: new UrlFetchAppImpl(
        {
          transport: this.options.transport ?? nodeTransport,
          realWaitMs: this.options.urlFetchTimeoutMs ?? 10_000,
          concurrency: this.options.fetchAllConcurrency ?? FETCH_ALL_CONCURRENCY,
          latency: { ms: this.options.latency?.ms ?? 0, jitterMs: this.options.latency?.jitterMs ?? 0, random: this.random },
          quota: { request: this.wrapQuota(exec, this.urlQuota) },
          whitelist: this.whitelist,
        },
        exec,
      ),
      PropertiesService: new PropertiesServiceImpl(this.properties, exec, documentId, { read: propertyOp, write: propertyOp }),
      CacheService: new CacheServiceImpl(this.cache, exec, documentId),
      LockService: new LockServiceImpl(this.locks, exec, documentId),
      ScriptApp: new ScriptAppImpl(
        this.triggers,
        exec,
        { addon: this.options.addon ?? true, documentId, scriptTimeZone: this.scriptTimeZone },
        'emulated-script-id',
      ),
      HtmlService: new HtmlServiceImpl(this.options.htmlDir ?? dirname(this.codePath), exec, this.projectFiles),
      Session: new SessionImpl(exec, this.scriptTimeZone, this.options.userLocale ?? 'pt_BR'),
      Utilities: new UtilitiesImpl(exec),
      Logger: new LoggerImpl(this.logs, exec),
      MailApp: new MailAppImpl(
        this.mail,
        {
          remaining: () => this.mailQuota.remaining(exec.user, exec.clock.now()),
          spend: (n) => this.mailQuota.spend(exec.user, exec.clock.now(), n),
        },
        exec,
      ),
      console: new ConsoleImpl(this.logs, exec),
      Charts: new ChartsImpl(),
    };
    const out = {} as Record<string, unknown>;
    for (const [name, impl] of Object.entries(raw)) out[name] = expose(exec, impl);
    return out as unknown as Services;
  }

  /** A fresh context with the services installed and the bundle loaded, as at the start of every execution. */
  private prepareContext(opts: RunOptions): { context: vm.Context; exec: Execution; services: Services } {
    const context = vm.createContext({});
    const exec = this.createExecution(context, opts);
    const services = this.services(exec, opts.documentContext ?? true, opts.documentId);
    for (const name of SERVICE_NAMES) context[name] = services[name];
    // Under mutation testing the bundle is built from instrumented src/: it must see the runner's active mutant.
    const stryker = (globalThis as { __stryker__?: unknown }).__stryker__;
    if (stryker) context.__stryker__ = stryker;
    // Script code sees virtual time, in whole milliseconds like a real Date.
    (vm.runInContext(DATE_PATCH, context) as (now: () => number) => void)(() => Math.floor(exec.clock.now()));
    (vm.runInContext(COMPILE_COUNTER, context) as (count: (chars: number) => void) => void)((chars) => {
      exec.counters.compiledChars += chars;
    });
    return { context, exec, services };
  }

  /**
   * Loads the bundle in a fresh context and returns the global names it added
   * (what Apps Script would expose to menus, triggers and google.script.run).
   */
  loadedGlobals(): { before: string[]; after: string[]; added: string[]; types: Record<string, string> } {
    const { context } = this.prepareContext({});
    const before = vm.runInContext('Object.getOwnPropertyNames(globalThis)', context) as string[];
    this.script.runInContext(context);
    const after = vm.runInContext('Object.getOwnPropertyNames(globalThis)', context) as string[];
    const added = after.filter((n) => !before.includes(n));
    const types: Record<string, string> = {};
    for (const name of added) types[name] = typeof Object.getOwnPropertyDescriptor(context, name)?.value;
    return { before: [...before], after: [...after], added, types };
  }

  /** Runs `fn` with process.env.TZ set to the script's zone (see EmulatorOptions.setProcessTimeZone). */
  private inScriptZone<T>(fn: () => T): T {
    if (this.options.setProcessTimeZone === false) return fn();
    const saved = process.env.TZ;
    process.env.TZ = this.scriptTimeZone;
    try {
      return fn();
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  }

  /** Runs a top-level function and reports how it went; never throws for script failures. */
  execute(functionName: string, args: unknown[] = [], opts: RunOptions = {}, event?: (s: Services, exec: Execution) => unknown): ExecutionReport {
    return this.inScriptZone(() => this.executeInZone(functionName, args, opts, event));
  }

  private executeInZone(functionName: string, args: unknown[], opts: RunOptions, event?: (s: Services, exec: Execution) => unknown): ExecutionReport {
    const scriptRun = opts.scriptRun ?? event === undefined;
    const hostArgs = scriptRun ? (serializeForScriptRun(args, 'argument') as unknown[]) : args;
    const { context, exec, services } = this.prepareContext(opts);
    const startedAt = exec.clock.now();
    let status: ExecutionStatus = 'ok';
    let value: unknown;
    let error: ExecutionReport['error'];
    const realTimeout = this.options.realTimeoutMs ?? 120_000;
    const running = (this.running.get(exec.user) ?? 0) + 1;
    this.running.set(exec.user, running);
    try {
      if (running > MAX_SIMULTANEOUS_EXECUTIONS) throw exec.error(TOO_MANY_SCRIPTS_MESSAGE);
      // Google loads the project before its first line runs: every execution pays it, whatever it then does.
      exec.charge(exec.costs.startupMs);
      this.script.runInContext(context, { timeout: realTimeout });
      const fn = Object.getOwnPropertyDescriptor(context, functionName)?.value as unknown;
      if (typeof fn !== 'function') throw exec.error(`Script function not found: ${functionName}`);
      const callArgs = event ? [event(services, exec)] : (exec.realm.toContext(hostArgs) as unknown[]);
      (context as Record<PropertyKey, unknown>)[CALL] = () => (fn as (...a: unknown[]) => unknown).apply(undefined, callArgs);
      const result = INVOKE.runInContext(context, { timeout: realTimeout });
      if (result === undefined) {
        value = undefined;
      } else if (scriptRun) {
        value = serializeForScriptRun(result, 'return value');
      } else {
        value = isDate(result) ? new Date(result.getTime()) : toHost(result);
      }
    } catch (err) {
      status = 'error';
      const e = err as { name?: string; message?: string; stack?: string };
      error = { name: e?.name ?? 'Error', message: e?.message ?? String(err), stack: e?.stack };
    } finally {
      delete (context as Record<PropertyKey, unknown>)[CALL];
      // Unflushed writes reach the document when the execution ends (at a flush's cost), and die with it when it is killed.
      if (!exec.killed && exec.counters.cellsWritten > exec.cellsAtFlush) exec.charge(exec.costs.flushMs);
      this.office.end(exec, exec.killed);
      this.locks.releaseAll(exec.id);
      this.running.set(exec.user, running - 1);
    }
    if (exec.killed) {
      status = 'killed';
      error = { name: 'Error', message: KILL_MESSAGE };
      value = undefined;
    }
    const endedAt = exec.clock.now();
    exec.counters.virtualMs = endedAt - startedAt;
    addCounters(this.totals, exec.counters);
    this.now = Math.max(this.now, endedAt);
    const report: ExecutionReport = {
      id: exec.id,
      functionName,
      status,
      value,
      error,
      authMode: exec.authMode,
      kind: exec.kind,
      user: exec.user,
      startedAt: new Date(startedAt),
      endedAt: new Date(endedAt),
      counters: { ...exec.counters },
      logs: this.logs.filter((l) => l.execution === exec.id),
    };
    this.history.push(report);
    return report;
  }

  /** Runs a top-level function as google.script.run or a menu click would; throws GasRunError if it fails or is killed. */
  run(functionName: string, args: unknown[] = [], opts: RunOptions = {}): unknown {
    const report = this.execute(functionName, args, opts);
    if (report.status !== 'ok') throw new GasRunError(report);
    return report.value;
  }

  /**
   * Opens the document: runs onOpen(e) as the simple trigger it is. NONE before
   * the add-on is enabled in the file, LIMITED after.
   */
  open(authMode: AuthModeName = 'LIMITED', opts: RunOptions = {}): ExecutionReport {
    return this.execute('onOpen', [], { kind: 'simple-trigger', ...opts, authMode }, (s, exec) => {
      const e = exec.realm.object();
      e.authMode = authMode;
      if (authMode !== 'NONE') {
        e.source = s.SpreadsheetApp.getActiveSpreadsheet();
        e.user = s.Session.getActiveUser();
      }
      return e;
    });
  }

  /** Installs the add-on: onInstall(e) in FULL. */
  install(opts: RunOptions = {}): ExecutionReport {
    return this.execute('onInstall', [], { kind: 'ui', ...opts, authMode: 'FULL' }, (s, exec) => {
      const e = exec.realm.object();
      e.authMode = 'FULL';
      e.source = s.SpreadsheetApp.getActiveSpreadsheet();
      return e;
    });
  }

  /**
   * Fires every time-driven trigger due at or before `at`, oldest first, each
   * in its own execution as its owner in FULL mode. Like Apps Script, a missed
   * schedule fires once, not once per missed slot. One-shot triggers (after/at)
   * stay listed once fired, so they keep counting against the add-on limit
   * until deleted. A trigger whose time comes while another of these
   * executions runs starts inside it (EmulatorOptions.overlappingTriggers):
   * the reports are in the order the executions started.
   */
  runDueTriggers(at: Date, opts: Omit<RunOptions, 'at' | 'user' | 'authMode' | 'kind'> = {}): ExecutionReport[] {
    const limit = at.getTime();
    const reports: ExecutionReport[] = [];
    // "Installable triggers aren't supported when testing": a test deployment's triggers never fire.
    if (this.options.deployment === 'test') {
      this.now = Math.max(this.now, limit);
      return reports;
    }
    const queue = triggerFirings(this.triggers.triggers, limit, {
      place: (t) => this.placed(t),
      after: (t, from) => this.atOwnMinute(t, nextRunAfter(t.spec, from)),
      faults: this.options.triggerFaults,
    });
    const overlapping = this.options.overlappingTriggers ?? true;
    // Before each service call of a running trigger: any trigger whose time has come starts now, inside it.
    const startDue = (call: ServiceCall) => {
      opts.onServiceCall?.(call);
      while (overlapping && queue.length > 0 && queue[0].at <= call.execution.clock.now()) {
        const next = queue.shift() as Firing;
        this.fire(next, next.at, { ...opts, onServiceCall: startDue }, reports);
      }
    };
    while (queue.length > 0) {
      const next = queue.shift() as Firing;
      this.fire(next, Math.max(next.at, this.now), { ...opts, onServiceCall: startDue }, reports);
    }
    this.now = Math.max(this.now, limit);
    return reports;
  }

  /** One run of a trigger from `start`, its report put in `reports` where it started. */
  private fire({ trigger: t }: Firing, start: number, opts: Omit<RunOptions, 'at' | 'user' | 'authMode' | 'kind'>, reports: ExecutionReport[]): void {
    const documentContext = opts.documentContext ?? this.options.triggerDocumentContext ?? true;
    // Once a user's trigger runtime for the day is spent, their triggers fail at start until the next day.
    const event = (_s: Services, exec: Execution) => {
      if (this.triggerQuota.remaining(t.owner, exec.clock.now()) <= 0) throw exec.error(TRIGGER_QUOTA_MESSAGE);
      return this.triggerEvent(t, exec);
    };
    // A trigger runs in its own document; one whose owner can no longer open it runs without one.
    const own = t.documentId ?? this.spreadsheet.id;
    const inDocument = documentContext && this.office.refusal(own, t.owner) === null;
    const slot = reports.length;
    reports.push(undefined as unknown as ExecutionReport);
    const report = this.execute(
      t.handler,
      [],
      { ...opts, documentContext: inDocument, documentId: own, at: new Date(start), user: t.owner, authMode: 'FULL', kind: 'trigger' },
      event,
    );
    this.triggerQuota.record(t.owner, start, report.counters.virtualMs);
    reports[slot] = report;
  }

  /** With triggerMinuteSeed, a new recurring trigger's first run moves to its own minute. */
  private placed(t: TriggerRecord): TriggerRecord {
    if (this.options.triggerMinuteSeed === undefined || t.oneShot || t.spec.nearMinute !== undefined || this.seededMinute.has(t.id)) return t;
    this.seededMinute.set(t.id, ownMinute(this.options.triggerMinuteSeed, t.id));
    t.nextRun = this.atOwnMinute(t, t.nextRun);
    return t;
  }

  private atOwnMinute(t: TriggerRecord, at: number): number {
    const minute = this.seededMinute.get(t.id);
    if (minute === undefined || at === Number.POSITIVE_INFINITY) return at;
    const hour = Math.floor(at / 3_600_000) * 3_600_000;
    return hour + minute * 60_000;
  }

  /** The minute each seeded trigger fires at, by trigger id. */
  readonly seededMinute = new Map<string, number>();

  /** The event of a time-driven trigger: when it fired (the execution's start, before its start-up), to the second. */
  private triggerEvent(t: TriggerRecord, exec: Execution): unknown {
    const w = wallClock(exec.clock.options.startMs, 'UTC');
    return exec.realm.toContext({
      authMode: 'FULL',
      triggerUid: t.id,
      year: w.year,
      month: w.month,
      'day-of-month': w.day,
      'day-of-week': w.weekday === 0 ? 7 : w.weekday,
      'week-of-year': 0,
      hour: w.hour,
      minute: w.minute,
      second: w.second,
      timezone: 'UTC',
    });
  }

  /**
   * Runs host code against the services of a fresh FULL execution without
   * loading the bundle: for seeding and inspecting state in tests. Counted like
   * any execution.
   */
  withServices<T>(fn: (services: Services, exec: Execution) => T, opts: RunOptions = {}): T {
    return this.inScriptZone(() => {
      const { exec, services } = this.prepareContext({ countRealTime: false, ...opts });
      try {
        return fn(services, exec);
      } finally {
        this.office.end(exec, exec.killed);
        this.locks.releaseAll(exec.id);
        exec.counters.virtualMs = exec.clock.elapsed();
        this.now = Math.max(this.now, exec.clock.now());
      }
    });
  }

  // ---- test controls ----------------------------------------------------

  /** Sets what the user has selected (A1 ranges on one sheet; the last is the active range). */
  select(sheetName: string, ...ranges: string[]): void {
    const sheet = this.spreadsheet.byName(sheetName);
    if (!sheet) throw new Error(`emulator.select: no sheet named ${sheetName}`);
    this.spreadsheet.activeSheetId = sheet.id;
    this.spreadsheet.selection = { sheetId: sheet.id, ranges: ranges.length ? ranges : ['A1'] };
  }

  /** Queues answers for Ui.alert/prompt, consumed in order. */
  answer(...answers: UiState['answers']): void {
    this.ui.answers.push(...answers);
  }

  /** Adds a spreadsheet to the office. */
  addSpreadsheet(options: SpreadsheetOptions = {}): SpreadsheetModel {
    const id = options.id ?? spreadsheetId(options.name ?? this.office.documents.size);
    if (this.office.documents.has(id)) throw new Error(`emulator: document ${id} exists`);
    const model = new SpreadsheetModel(id, options.name ?? id, options.timeZone ?? 'America/Sao_Paulo', options.locale ?? 'pt_BR');
    return this.office.add(model, options.editors ?? null);
  }

  /** A spreadsheet of the office by id (committed state). */
  document(id: string): SpreadsheetModel {
    const model = this.office.documents.get(id);
    if (!model) throw new Error(`emulator: no document ${id}`);
    return model;
  }

  /** Shares a document with `user`, or (false) takes it away from them, as its owner would. */
  share(id: string, user: string, shared = true): void {
    this.document(id);
    this.office.share(id, user, shared);
  }

  /** The document is deleted: opening it by id fails from now on. */
  deleteSpreadsheet(id: string): void {
    this.office.documents.delete(id);
  }

  /** A simulated other execution holds a lock until virtual time `until`. */
  holdLock(kind: LockKind, until: Date, opts: { user?: string; label?: string; documentId?: string } = {}): void {
    const key =
      kind === 'script'
        ? lockKey.script()
        : kind === 'document'
          ? lockKey.document(opts.documentId ?? this.spreadsheet.id)
          : lockKey.user(opts.user ?? this.options.user ?? 'contador@example.com.br');
    this.locks.holdForOther(key, until.getTime(), opts.label);
  }

  // ---- reading state (host values) -------------------------------------

  private sheetModel(name: string, documentId = this.spreadsheet.id) {
    const sheet = this.document(documentId).byName(name);
    if (!sheet) throw new Error(`emulator: no sheet named ${name}`);
    return sheet;
  }

  private grid<T>(
    sheetName: string,
    a1: string | undefined,
    fn: (cell: ReturnType<SpreadsheetModel['sheets'][number]['cell']>, shown: () => Stored) => T,
    documentId?: string,
  ): T[][] {
    const sheet = this.sheetModel(sheetName, documentId);
    const ref = a1
      ? parseA1(
          a1,
          () => sheet.maxRows,
          () => sheet.maxColumns,
        )
      : { row: 1, column: 1, numRows: Math.max(1, sheet.lastRow()), numColumns: Math.max(1, sheet.lastColumn()) };
    if (!ref) throw new Error(`emulator: bad A1 ${a1}`);
    const out: T[][] = [];
    for (let r = 0; r < ref.numRows; r++) {
      const row: T[] = [];
      for (let c = 0; c < ref.numColumns; c++) {
        const [at, col] = [ref.row + r, ref.column + c];
        const cell = sheet.cell(at, col);
        row.push(fn(cell, () => (cell && isFormula(cell.value) ? computedValue(sheet, at, col) : (cell?.value ?? null))));
      }
      out.push(row);
    }
    return out;
  }

  /** What getValues() would return, as host values (data range by default), of the first spreadsheet or the one named. */
  values(sheetName: string, a1?: string, documentId = this.spreadsheet.id): unknown[][] {
    const zone = this.document(documentId).timeZone;
    return this.grid(
      sheetName,
      a1,
      (cell, shown) => {
        const v = shown();
        if (!cell || v === null) return '';
        if (typeof v === 'number' && isDateFormat(cell.format)) return new Date(serialToMs(v, zone));
        return v;
      },
      documentId,
    );
  }

  displayValues(sheetName: string, a1?: string): string[][] {
    return this.grid(sheetName, a1, (cell, shown) => (cell ? displayValue(shown(), cell.format, this.spreadsheet.locale) : ''));
  }

  formulas(sheetName: string, a1?: string): string[][] {
    return this.grid(sheetName, a1, (cell) => (cell && isFormula(cell.value) ? cell.value.formula : ''));
  }

  numberFormats(sheetName: string, a1?: string): string[][] {
    return this.grid(sheetName, a1, (cell) => cell?.format ?? 'General');
  }

  sheetNames(documentId = this.spreadsheet.id): string[] {
    return this.document(documentId).sheets.map((s) => s.name);
  }

  /** Every menu item, flattened, with its path of captions. */
  menuItems(): { path: string[]; functionName: string }[] {
    const out: { path: string[]; functionName: string }[] = [];
    const walk = (items: UiState['menus'][number]['items'], path: string[]): void => {
      for (const item of items) {
        if (item.kind === 'item') out.push({ path: [...path, item.caption], functionName: item.functionName });
        else if (item.kind === 'submenu') walk(item.items, [...path, item.caption]);
      }
    };
    for (const menu of this.ui.menus) walk(menu.items, [menu.caption]);
    return out;
  }
}
