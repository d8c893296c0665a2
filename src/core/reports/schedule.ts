/**
 * Report schedules, in the spreadsheet's time zone. Editor add-ons get one
 * time-driven trigger per user per document, at most hourly, so schedules are
 * not triggers: one hourly dispatcher asks `isDue` for every report.
 */
import { addDays, type Day, type Zone } from '../../api/calendar';
import { plural } from '../../api/words';

export type Schedule =
  | { kind: 'hourly' }
  | { kind: 'everyHours'; hours: number }
  | { kind: 'daily'; hour: number }
  | { kind: 'weekly'; weekday: number; hour: number }
  | { kind: 'monthly'; day: number; hour: number };

const WEEKDAYS = ['domingo', 'segunda-feira', 'terça-feira', 'quarta-feira', 'quinta-feira', 'sexta-feira', 'sábado'];

export function describeSchedule(s: Schedule): string {
  const at = (h: number) => `às ${String(h).padStart(2, '0')}h`;
  switch (s.kind) {
    case 'hourly':
      return 'a cada hora';
    case 'everyHours':
      return `a cada ${plural(s.hours, 'hora', 'horas')}`;
    case 'daily':
      return `todo dia ${at(s.hour)}`;
    case 'weekly':
      // Domingo and sábado are masculine in Portuguese: "todo domingo", "toda segunda-feira".
      return `${s.weekday === 0 || s.weekday === 6 ? 'todo' : 'toda'} ${WEEKDAYS[s.weekday]} ${at(s.hour)}`;
    case 'monthly':
      return `todo dia ${s.day} do mês ${at(s.hour)}`;
  }
}

/** Problems with a schedule, in Portuguese; empty when it is valid. */
export function scheduleProblems(s: Schedule): string[] {
  const out: string[] = [];
  const hourOk = (h: number) => Number.isInteger(h) && h >= 0 && h <= 23;
  if (s.kind === 'everyHours' && !(Number.isInteger(s.hours) && s.hours >= 1 && s.hours <= 24)) out.push('O intervalo vai de 1 a 24 horas.');
  if ((s.kind === 'daily' || s.kind === 'weekly' || s.kind === 'monthly') && !hourOk(s.hour)) out.push('A hora vai de 0 a 23.');
  if (s.kind === 'weekly' && !(Number.isInteger(s.weekday) && s.weekday >= 0 && s.weekday <= 6)) out.push('Escolha um dia da semana.');
  if (s.kind === 'monthly' && !(Number.isInteger(s.day) && s.day >= 1 && s.day <= 31)) out.push('O dia do mês vai de 1 a 31.');
  return out;
}

function weekday(d: Day): number {
  return new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The days a schedule of whole days runs on. A monthly day past the month's end runs on its last day (31 → 30 April, 28/29 February). */
function runsOn(s: Exclude<Schedule, { kind: 'hourly' | 'everyHours' }>): (d: Day) => boolean {
  switch (s.kind) {
    case 'daily':
      return () => true;
    case 'weekly':
      return (d) => weekday(d) === s.weekday;
    case 'monthly':
      return (d) => d.day === Math.min(s.day, daysInMonth(d.year, d.month));
  }
}

/** The first run time strictly after `after`. */
export function nextRun(s: Schedule, after: Date, zone: Zone): Date {
  if (s.kind === 'hourly' || s.kind === 'everyHours') {
    const hours = s.kind === 'hourly' ? 1 : s.hours;
    const w = zone.wall(after);
    const top = zone.instant({ year: w.year, month: w.month, day: w.day, hour: w.hour });
    return new Date(top.getTime() + hours * 3_600_000);
  }
  const runs = runsOn(s);
  const w = zone.wall(after);
  let day: Day = { year: w.year, month: w.month, day: w.day };
  // The longest wait is a monthly run's 31 days (28 February → 31 March); past it, the schedule never comes.
  for (let i = 0; i <= 31; i++) {
    if (runs(day)) {
      const at = zone.instant({ ...day, hour: s.hour });
      if (at.getTime() > after.getTime()) return at;
    }
    day = addDays(day, 1);
  }
  throw new Error('agenda sem próxima execução');
}

/** Due when the run planned after the last one (or after the schedule was set) has come. */
export function isDue(s: Schedule, since: Date, now: Date, zone: Zone): boolean {
  return nextRun(s, since, zone).getTime() <= now.getTime();
}
