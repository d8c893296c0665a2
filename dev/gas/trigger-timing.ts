/**
 * When time-driven triggers fire. Google runs a recurring trigger at a time
 * it picks within the hour the schedule names ("the time might be slightly
 * randomized", developers.google.com/apps-script/guides/triggers/installable:
 * a 9 a.m. trigger runs between 9 and 10; `triggerMinuteSeed` gives each
 * trigger its own minute). It promises no more than that: no run at a set
 * minute, nor a run in every hour. People who run hourly jobs report runs that
 * come late, past their hour, and hours with no run at all. `TriggerFaults`
 * draws, per trigger and per due run, which runs come late and which never
 * come, from a seed, so a test meets the same ones every time. Off by default:
 * Google publishes no rate, and the suite's tests count runs hour by hour.
 */
import { chance } from './random';
import type { TriggerRecord } from './script-app';

const HOUR = 3_600_000;

export interface TriggerFaults {
  /** Seed of the draws (default 1). */
  seed?: number;
  /** Share of due runs that come in the next hour, at a minute of their own. */
  late?: number;
  /** Share of due runs that never come (the schedule goes on from the next one). */
  skipped?: number;
}

/** One run of a trigger, at the time it starts. */
export interface Firing {
  trigger: TriggerRecord;
  at: number;
}

/** What becomes of a recurring trigger's run due at `slot`. */
export function fate(
  faults: TriggerFaults | undefined,
  t: TriggerRecord,
  slot: number,
): { kind: 'on-time' } | { kind: 'skipped' } | { kind: 'late'; at: number } {
  if (!faults || t.oneShot) return { kind: 'on-time' };
  const seed = faults.seed ?? 1;
  const draw = chance(seed, t.id, String(slot));
  const skipped = faults.skipped ?? 0;
  if (draw < skipped) return { kind: 'skipped' };
  if (draw >= skipped + (faults.late ?? 0)) return { kind: 'on-time' };
  const nextHour = Math.floor(slot / HOUR) * HOUR + HOUR;
  return { kind: 'late', at: nextHour + Math.floor(chance(seed, t.id, String(slot), 'late') * 60) * 60_000 };
}

export interface Schedule {
  /** The trigger with its first run moved to its own minute, when the emulator draws minutes. */
  place(t: TriggerRecord): TriggerRecord;
  /** The trigger's next run after `from`. */
  after(t: TriggerRecord, from: number): number;
  faults?: TriggerFaults;
}

/**
 * The runs due at or before `limit`, soonest first, with each trigger's next
 * run moved past `limit`: a trigger whose runs were missed fires once, as on
 * Google, not once per missed slot. A late run past `limit` waits on its
 * trigger for a later call.
 */
export function triggerFirings(triggers: readonly TriggerRecord[], limit: number, schedule: Schedule): Firing[] {
  const out: Firing[] = [];
  for (const t of triggers) {
    schedule.place(t);
    if (t.lateRun !== undefined && t.lateRun <= limit) {
      out.push({ trigger: t, at: t.lateRun });
      t.lateRun = undefined;
    }
    if (t.nextRun > limit) continue;
    const slot = t.nextRun;
    t.nextRun = t.oneShot ? Number.POSITIVE_INFINITY : schedule.after(t, Math.max(slot, limit));
    const f = fate(schedule.faults, t, slot);
    if (f.kind === 'on-time') out.push({ trigger: t, at: slot });
    else if (f.kind === 'late' && f.at <= limit) out.push({ trigger: t, at: f.at });
    else if (f.kind === 'late') t.lateRun = f.at;
  }
  return out.sort((a, b) => a.at - b.at);
}
