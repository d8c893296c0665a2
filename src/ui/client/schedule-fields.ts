/** A report's schedule as form fields: only those its frequency needs are shown, and read back as a Schedule. */
import type { Schedule } from '../../core/reports/schedule';
import { h } from './dom';

const WEEKDAYS = ['Domingo', 'Segunda', 'Terça', 'Quarta', 'Quinta', 'Sexta', 'Sábado'];

export function scheduleFields(s: Schedule | null | undefined): { elements: HTMLElement[]; read: () => Schedule | null } {
  const kind = h(
    'select',
    { name: 'kind', 'aria-label': 'Frequência' },
    h('option', { value: '' }, 'Sem agendamento'),
    h('option', { value: 'hourly' }, 'A cada hora'),
    h('option', { value: 'everyHours' }, 'A cada N horas'),
    h('option', { value: 'daily' }, 'Diariamente'),
    h('option', { value: 'weekly' }, 'Semanalmente'),
    h('option', { value: 'monthly' }, 'Mensalmente'),
  );
  kind.value = s?.kind ?? '';
  const hours = h('input', {
    type: 'number',
    min: '1',
    max: '24',
    name: 'hours',
    'aria-label': 'Intervalo em horas',
    value: String(s?.kind === 'everyHours' ? s.hours : 6),
  });
  const hour = h('input', {
    type: 'number',
    min: '0',
    max: '23',
    name: 'hour',
    'aria-label': 'Hora do dia (0 a 23)',
    value: String(s && 'hour' in s ? s.hour : 7),
  });
  const weekday = h('select', { name: 'weekday', 'aria-label': 'Dia da semana' }, ...WEEKDAYS.map((d, i) => h('option', { value: String(i) }, d)));
  weekday.value = String(s?.kind === 'weekly' ? s.weekday : 1);
  const day = h('input', { type: 'number', min: '1', max: '31', name: 'day', 'aria-label': 'Dia do mês', value: String(s?.kind === 'monthly' ? s.day : 1) });
  const labelled = (text: string, el: HTMLElement) => h('label', {}, text, el);
  const parts = {
    hours: labelled('A cada (horas)', hours),
    hour: labelled('Hora (0–23)', hour),
    weekday: labelled('Dia da semana', weekday),
    day: labelled('Dia do mês', day),
  };
  const sync = () => {
    parts.hours.hidden = kind.value !== 'everyHours';
    parts.hour.hidden = !['daily', 'weekly', 'monthly'].includes(kind.value);
    parts.weekday.hidden = kind.value !== 'weekly';
    parts.day.hidden = kind.value !== 'monthly';
  };
  kind.addEventListener('change', sync);
  sync();
  const n = (el: HTMLInputElement | HTMLSelectElement) => Number(el.value);
  const read = (): Schedule | null => {
    switch (kind.value) {
      case '':
        return null;
      case 'hourly':
        return { kind: 'hourly' };
      case 'everyHours':
        return { kind: 'everyHours', hours: n(hours) };
      case 'daily':
        return { kind: 'daily', hour: n(hour) };
      case 'weekly':
        return { kind: 'weekly', weekday: n(weekday), hour: n(hour) };
      default:
        return { kind: 'monthly', day: n(day), hour: n(hour) };
    }
  };
  return { elements: [h('label', {}, 'Frequência', kind), parts.hours, parts.weekday, parts.day, parts.hour], read };
}
