/**
 * ScriptApp's time-driven triggers. In add-on mode Apps Script allows one
 * time-driven trigger per user per document, no more often than hourly; the
 * emulator enforces that so a design with a trigger per report fails here, not
 * in production.
 */
import type { Execution } from './execution';
import { GasObject } from './instrument';
import { fromWallClock, wallClock } from './tz';

type GTrigger = GoogleAppsScript.Script.Trigger;
type GClockBuilder = GoogleAppsScript.Script.ClockTriggerBuilder;
type GTriggerBuilder = GoogleAppsScript.Script.TriggerBuilder;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const MAX_TRIGGERS_PER_USER = 20;
export const ADDON_TRIGGER_LIMIT_MESSAGE = 'This add-on has created too many time-based triggers in this document for this Google user account.';
export const ADDON_FREQUENCY_MESSAGE = 'Add-ons may not create time-based triggers that run more than once per hour.';

export const AUTH_MODE = { NONE: 'NONE', CUSTOM_FUNCTION: 'CUSTOM_FUNCTION', LIMITED: 'LIMITED', FULL: 'FULL' } as const;
export const WEEK_DAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'] as const;

export interface ClockSpec {
  everyMinutes?: number;
  everyHours?: number;
  everyDays?: number;
  everyWeeks?: number;
  atHour?: number;
  nearMinute?: number;
  onWeekDay?: number;
  onMonthDay?: number;
  afterMs?: number;
  at?: number;
  timeZone: string;
}

export interface TriggerRecord {
  id: string;
  handler: string;
  owner: string;
  documentId: string | null;
  spec: ClockSpec;
  createdAt: number;
  nextRun: number;
  oneShot: boolean;
  /** A run that came late (trigger-timing.ts): when it fires, past its own hour. */
  lateRun?: number;
}

export class TriggerStore {
  triggers: TriggerRecord[] = [];
  /** Users who must authorize the script again (after a scope change): getAuthorizationInfo says REQUIRED for them. */
  readonly authorizationRequired = new Set<string>();
  /**
   * For a user in `authorizationRequired`, the scopes a new version added that
   * they have not granted: only calls needing those are refused. Without an
   * entry every call needing a granted scope is (auth.ts).
   */
  readonly scopesToGrant = new Map<string, readonly string[]>();
  private seq = 0;
  nextId(): string {
    this.seq += 1;
    return String(4_000_000_000 + this.seq * 7_919);
  }
  remove(id: string): void {
    this.triggers = this.triggers.filter((t) => t.id !== id);
  }
}

/** The first run after `from`, on the trigger's own schedule. */
export function nextRunAfter(spec: ClockSpec, from: number): number {
  if (spec.at !== undefined) return spec.at;
  if (spec.afterMs !== undefined) return from + spec.afterMs;
  if (spec.everyMinutes) return from + spec.everyMinutes * 60_000;
  if (spec.everyHours) {
    if (spec.nearMinute === undefined) return from + spec.everyHours * HOUR;
    const w = wallClock(from + spec.everyHours * HOUR, spec.timeZone);
    return fromWallClock(spec.timeZone, w.year, w.month, w.day, w.hour, spec.nearMinute);
  }
  const w = wallClock(from, spec.timeZone);
  const hour = spec.atHour ?? w.hour;
  const minute = spec.nearMinute ?? (spec.atHour === undefined ? w.minute : 0);
  const at = (y: number, m: number, d: number): number => fromWallClock(spec.timeZone, y, m, d, hour, minute);
  if (spec.onMonthDay !== undefined) {
    for (let k = 0; k < 24; k++) {
      const t = at(w.year, w.month + k, spec.onMonthDay);
      if (t > from) return t;
    }
  }
  if (spec.onWeekDay !== undefined) {
    const step = spec.everyWeeks ?? 1;
    for (let k = 0; k < 8; k++) {
      const t = at(w.year, w.month, w.day + k);
      if (t > from && wallClock(t, spec.timeZone).weekday === spec.onWeekDay) return t + (step - 1) * 7 * DAY;
    }
  }
  const days = spec.everyDays ?? (spec.everyWeeks ? spec.everyWeeks * 7 : 1);
  const today = at(w.year, w.month, w.day);
  return today > from ? today : at(w.year, w.month, w.day + days);
}

export class TriggerImpl
  extends GasObject
  implements Pick<GTrigger, 'getEventType' | 'getHandlerFunction' | 'getTriggerSource' | 'getTriggerSourceId' | 'getUniqueId'>
{
  readonly gasName = 'Trigger';
  constructor(readonly record: TriggerRecord) {
    super();
  }
  getEventType(): GoogleAppsScript.Script.EventType {
    return 'CLOCK' as unknown as GoogleAppsScript.Script.EventType;
  }
  getHandlerFunction(): string {
    return this.record.handler;
  }
  getTriggerSource(): GoogleAppsScript.Script.TriggerSource {
    return 'CLOCK' as unknown as GoogleAppsScript.Script.TriggerSource;
  }
  getTriggerSourceId(): string {
    return '';
  }
  getUniqueId(): string {
    return this.record.id;
  }
}

export interface TriggerPolicy {
  addon: boolean;
  documentId: string | null;
  scriptTimeZone: string;
}

const VALID_MINUTES = [1, 5, 10, 15, 30];
const VALID_HOURS = [1, 2, 4, 6, 8, 12];

class ClockTriggerBuilderImpl
  extends GasObject
  implements
    Pick<
      GClockBuilder,
      | 'after'
      | 'at'
      | 'atHour'
      | 'create'
      | 'everyDays'
      | 'everyHours'
      | 'everyMinutes'
      | 'everyWeeks'
      | 'inTimezone'
      | 'nearMinute'
      | 'onMonthDay'
      | 'onWeekDay'
    >
{
  readonly gasName = 'ClockTriggerBuilder';
  private readonly spec: ClockSpec;
  constructor(
    private readonly store: TriggerStore,
    private readonly exec: Execution,
    private readonly handler: string,
    private readonly policy: TriggerPolicy,
  ) {
    super();
    this.spec = { timeZone: policy.scriptTimeZone };
  }
  private self(): GClockBuilder {
    return this as unknown as GClockBuilder;
  }
  everyMinutes(n: number): GClockBuilder {
    if (!VALID_MINUTES.includes(n)) throw this.exec.error('The value passed to everyMinutes must be 1, 5, 10, 15 or 30.');
    this.spec.everyMinutes = n;
    return this.self();
  }
  everyHours(n: number): GClockBuilder {
    if (!VALID_HOURS.includes(n)) throw this.exec.error('The value passed to everyHours must be 1, 2, 4, 6, 8 or 12.');
    this.spec.everyHours = n;
    return this.self();
  }
  everyDays(n: number): GClockBuilder {
    if (!(n >= 1)) throw this.exec.error('Invalid argument: n');
    this.spec.everyDays = n;
    return this.self();
  }
  everyWeeks(n: number): GClockBuilder {
    if (!(n >= 1)) throw this.exec.error('Invalid argument: n');
    this.spec.everyWeeks = n;
    return this.self();
  }
  atHour(hour: number): GClockBuilder {
    if (!(hour >= 0 && hour <= 23)) throw this.exec.error('Invalid argument: hour');
    this.spec.atHour = hour;
    return this.self();
  }
  nearMinute(minute: number): GClockBuilder {
    if (!(minute >= 0 && minute <= 59)) throw this.exec.error('Invalid argument: minute');
    // Apps Script rounds to the nearest 15 minutes.
    this.spec.nearMinute = (Math.round(minute / 15) * 15) % 60;
    return this.self();
  }
  onWeekDay(day: GoogleAppsScript.Base.Weekday): GClockBuilder {
    const index = WEEK_DAYS.indexOf(String(day) as (typeof WEEK_DAYS)[number]);
    if (index < 0) throw this.exec.error('Invalid argument: day');
    this.spec.onWeekDay = index;
    this.spec.everyWeeks ??= 1;
    return this.self();
  }
  onMonthDay(day: number): GClockBuilder {
    if (!(day >= 1 && day <= 31)) throw this.exec.error('Invalid argument: day');
    this.spec.onMonthDay = day;
    return this.self();
  }
  after(durationMilliseconds: number): GClockBuilder {
    this.spec.afterMs = Math.max(0, durationMilliseconds);
    return this.self();
  }
  at(date: GoogleAppsScript.Base.Date): GClockBuilder {
    this.spec.at = (date as unknown as Date).getTime();
    return this.self();
  }
  inTimezone(timezone: string): GClockBuilder {
    this.spec.timeZone = timezone;
    return this.self();
  }
  create(): GTrigger {
    const s = this.spec;
    const recurring = s.everyMinutes ?? s.everyHours ?? s.everyDays ?? s.everyWeeks ?? s.onMonthDay;
    if (recurring === undefined && s.afterMs === undefined && s.at === undefined) {
      throw this.exec.error('The trigger must have a time-based schedule: call everyHours(), everyDays(), after(), at(), ...');
    }
    const mine = this.store.triggers.filter((t) => t.owner === this.exec.user);
    if (mine.length >= MAX_TRIGGERS_PER_USER) {
      throw this.exec.error('This script has too many triggers. Triggers must be deleted from the script before more can be added.');
    }
    if (this.policy.addon) {
      if (s.everyMinutes !== undefined) throw this.exec.error(ADDON_FREQUENCY_MESSAGE);
      if (mine.some((t) => t.documentId === this.policy.documentId)) throw this.exec.error(ADDON_TRIGGER_LIMIT_MESSAGE);
    }
    const now = this.exec.clock.now();
    const record: TriggerRecord = {
      id: this.store.nextId(),
      handler: this.handler,
      owner: this.exec.user,
      documentId: this.policy.documentId,
      spec: { ...s },
      createdAt: now,
      nextRun: nextRunAfter(s, now),
      oneShot: recurring === undefined,
    };
    this.store.triggers.push(record);
    return new TriggerImpl(record) as unknown as GTrigger;
  }
}

class TriggerBuilderImpl extends GasObject implements Pick<GTriggerBuilder, 'timeBased'> {
  readonly gasName = 'TriggerBuilder';
  constructor(private readonly make: () => ClockTriggerBuilderImpl) {
    super();
  }
  timeBased(): GClockBuilder {
    return this.make() as unknown as GClockBuilder;
  }
}

class AuthorizationInfoImpl extends GasObject {
  readonly gasName = 'AuthorizationInfo';
  constructor(private readonly required: boolean) {
    super();
  }
  getAuthorizationStatus(): string {
    return this.required ? 'REQUIRED' : 'NOT_REQUIRED';
  }
  getAuthorizationUrl(): string | null {
    return this.required ? 'https://script.google.com/macros/d/emulated-script-id/authorize' : null;
  }
}

export class ScriptAppImpl
  extends GasObject
  implements
    Pick<GoogleAppsScript.Script.ScriptApp, 'deleteTrigger' | 'getProjectTriggers' | 'getUserTriggers' | 'newTrigger' | 'getScriptId' | 'getAuthorizationInfo'>
{
  readonly gasName = 'ScriptApp';
  readonly AuthMode = AUTH_MODE;
  readonly WeekDay = Object.fromEntries(WEEK_DAYS.map((d) => [d, d]));
  readonly TriggerSource = { CLOCK: 'CLOCK', SPREADSHEETS: 'SPREADSHEETS' };
  readonly EventType = { CLOCK: 'CLOCK', ON_OPEN: 'ON_OPEN', ON_EDIT: 'ON_EDIT' };
  readonly AuthorizationStatus = { REQUIRED: 'REQUIRED', NOT_REQUIRED: 'NOT_REQUIRED' };

  constructor(
    private readonly store: TriggerStore,
    private readonly exec: Execution,
    private readonly policy: TriggerPolicy,
    private readonly scriptId: string,
  ) {
    super();
  }

  getScriptId(): string {
    return this.scriptId;
  }

  getAuthorizationInfo(_authMode: GoogleAppsScript.Script.AuthMode): GoogleAppsScript.Script.AuthorizationInfo {
    return new AuthorizationInfoImpl(this.store.authorizationRequired.has(this.exec.user)) as unknown as GoogleAppsScript.Script.AuthorizationInfo;
  }

  newTrigger(functionName: string): GTriggerBuilder {
    return new TriggerBuilderImpl(() => new ClockTriggerBuilderImpl(this.store, this.exec, String(functionName), this.policy)) as unknown as GTriggerBuilder;
  }

  getProjectTriggers(): GTrigger[] {
    const mine = this.store.triggers.filter((t) => t.owner === this.exec.user);
    return this.exec.realm.array(mine.map((t) => new TriggerImpl(t))) as unknown as GTrigger[];
  }

  getUserTriggers(document: unknown): GTrigger[] {
    // The document passed in decides, so a run without an active document can still list a document's triggers.
    const id = (document as { getId?: () => string } | null)?.getId?.() ?? this.policy.documentId;
    const mine = this.store.triggers.filter((t) => t.owner === this.exec.user && t.documentId === id);
    return this.exec.realm.array(mine.map((t) => new TriggerImpl(t))) as unknown as GTrigger[];
  }

  deleteTrigger(trigger: GTrigger): void {
    if (!(trigger instanceof TriggerImpl)) throw this.exec.error('Invalid argument: trigger');
    this.store.remove(trigger.record.id);
  }
}
