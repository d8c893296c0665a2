/** Virtual time as the page shows it: the spreadsheet's zone, Brazilian style. */
import type { ClockSpec } from '../gas/script-app';

export function formatInZone(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('pt-BR', {
    timeZone,
    weekday: 'short',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('weekday').replace('.', '')} ${get('day')}/${get('month')}/${get('year')} ${get('hour')}:${get('minute')}`;
}

/** "a cada 1 h", "diário às 9 h"...: how a time-driven trigger repeats. */
export function describeSpec(spec: ClockSpec): string {
  if (spec.at !== undefined || spec.afterMs !== undefined) return 'uma vez';
  if (spec.everyMinutes) return `a cada ${spec.everyMinutes} min`;
  if (spec.everyHours) return `a cada ${spec.everyHours} h`;
  if (spec.onWeekDay !== undefined) return `semanal${spec.atHour !== undefined ? ` às ${spec.atHour} h` : ''}`;
  if (spec.onMonthDay !== undefined) return `mensal, dia ${spec.onMonthDay}`;
  return `diário${spec.atHour !== undefined ? ` às ${spec.atHour} h` : ''}`;
}

/** "23/11 10:00": a trigger's next run, short enough for the playground bar. */
export function formatShort(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('pt-BR', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('day')}/${get('month')} ${get('hour')}:${get('minute')}`;
}
