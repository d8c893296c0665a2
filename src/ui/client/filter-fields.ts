/**
 * The Importar form's filter fields, built from the listing's table as the
 * server describes it, and read back into the values a report saves.
 */
import { h } from './dom';
import type { Args, Reply } from './rpc';

type FilterForm = Reply<'getImportForm'>['listings'][number]['filters'][number];
type FilterValue = Args<'startImportRun'>[0]['filters'][string];

const byName = (form: HTMLFormElement, name: string) => form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`);

function errorSlot(name: string) {
  return h('div', { class: 'field-error', 'data-error-for': name });
}

function triState(name: string, label: string): HTMLElement {
  const id = `f-${name}`;
  const opt = (value: string, text: string, checked = false) => h('label', {}, h('input', { type: 'radio', name, value, checked }), h('span', {}, text));
  return h(
    'div',
    {},
    h('label', { id }, label),
    h('div', { class: 'tri', role: 'radiogroup', 'aria-labelledby': id }, opt('', 'Tanto faz', true), opt('true', 'Sim'), opt('false', 'Não')),
    errorSlot(name),
  );
}

/** A date filter: a fixed date, or a date relative to the run's day. */
function dateFilter(f: FilterForm): HTMLElement {
  const mode = h(
    'select',
    { name: `${f.name}__modo`, 'aria-label': `${f.label}: tipo` },
    h('option', { value: '' }, '—'),
    h('option', { value: 'fixa' }, 'Data fixa'),
    h('option', { value: 'rel' }, 'Relativa a hoje'),
  );
  const fixed = h('input', { type: f.kind === 'datetime' ? 'datetime-local' : 'date', name: f.name, id: `f-${f.name}`, hidden: true });
  const days = h('input', {
    type: 'number',
    name: `${f.name}__dias`,
    'aria-label': `${f.label}: dias a partir de hoje (negativo para o passado)`,
    value: '0',
    hidden: true,
    step: '1',
  });
  const sync = () => {
    fixed.hidden = mode.value !== 'fixa';
    days.hidden = mode.value !== 'rel';
  };
  mode.addEventListener('change', sync);
  // The unit is on screen, not only in the input's name: a bare 0 says nothing.
  const unit = h('span', { class: 'unit', hidden: true }, 'dias a partir de hoje (negativo: passado)');
  mode.addEventListener('change', () => (unit.hidden = mode.value !== 'rel'));
  const wrap = h('div', {}, h('label', { for: `f-${f.name}` }, f.label), h('div', { class: 'row' }, mode, fixed, days, unit), errorSlot(f.name));
  if (f.kind === 'datetime') {
    // The service filters update times; relative days make little sense there.
    mode.querySelector('option[value=rel]')!.remove();
  }
  return wrap;
}

function competenciaFilter(f: FilterForm): HTMLElement {
  const mode = h(
    'select',
    { name: `${f.name}__modo`, 'aria-label': `${f.label}: tipo` },
    h('option', { value: '' }, '—'),
    h('option', { value: 'fixa' }, 'Mês/ano'),
    h('option', { value: 'atual' }, 'Mês atual'),
    h('option', { value: 'anterior' }, 'Mês anterior'),
  );
  const month = h('input', { type: 'month', name: f.name, id: `f-${f.name}`, hidden: true });
  mode.addEventListener('change', () => (month.hidden = mode.value !== 'fixa'));
  return h('div', {}, h('label', { for: `f-${f.name}` }, f.label), h('div', { class: 'row' }, mode, month), errorSlot(f.name));
}

export function filterField(f: FilterForm, sortLabel: (key: string) => string): HTMLElement {
  const id = `f-${f.name}`;
  switch (f.kind) {
    case 'boolean':
      return triState(f.name, f.label);
    case 'date':
    case 'datetime':
      return dateFilter(f);
    case 'competencia':
      return competenciaFilter(f);
    case 'sortField':
      return h(
        'div',
        {},
        h('label', { for: id }, f.label),
        h('select', { id, name: f.name }, h('option', { value: '' }, 'Padrão do serviço'), ...f.choices.map((c) => h('option', { value: c }, sortLabel(c)))),
        errorSlot(f.name),
      );
    case 'sortOrder':
      return h(
        'div',
        {},
        h('label', { for: id }, f.label),
        h(
          'select',
          { id, name: f.name },
          h('option', { value: '' }, 'Padrão'),
          h('option', { value: 'asc' }, 'Crescente'),
          h('option', { value: 'desc' }, 'Decrescente'),
        ),
        errorSlot(f.name),
      );
    default: {
      const hint =
        f.kind === 'idList' ? 'Ex.: 101, 102, 205' : f.kind === 'cpfCnpj' ? 'Só números ou com pontuação' : f.name === 'competenciaReferencia' ? 'MM/AAAA' : '';
      return h(
        'div',
        {},
        h('label', { for: id }, f.label, ' ', h('span', { class: 'opt' }, `(${f.name})`)),
        h('input', {
          type: 'text',
          id,
          name: f.name,
          placeholder: hint,
          inputmode: f.kind === 'integer' || f.kind === 'idList' ? 'numeric' : undefined,
          autocomplete: 'off',
        }),
        errorSlot(f.name),
      );
    }
  }
}

export function formValue(form: HTMLFormElement, name: string): string {
  const el = byName(form, name);
  if (!el) return '';
  if (el instanceof HTMLInputElement && el.type === 'radio') return form.querySelector<HTMLInputElement>(`[name="${name}"]:checked`)?.value ?? '';
  if (el instanceof HTMLInputElement && el.type === 'checkbox') return el.checked ? 'true' : '';
  return el.value.trim();
}

/** The filters as the server takes them: fixed values, or dates and months relative to the run. */
export function readFilters(form: HTMLFormElement, filters: readonly FilterForm[]): Record<string, FilterValue> {
  const value = (name: string) => formValue(form, name);
  const out: Record<string, FilterValue> = {};
  for (const f of filters) {
    if (f.option) {
      if (value(f.name)) out[f.name] = true;
      continue;
    }
    if (f.kind === 'boolean') {
      const v = value(f.name);
      if (v) out[f.name] = v === 'true';
    } else if (f.kind === 'date' || f.kind === 'datetime') {
      const mode = value(`${f.name}__modo`);
      if (mode === 'fixa' && value(f.name)) out[f.name] = value(f.name);
      if (mode === 'rel') out[f.name] = { rel: 'hoje', dias: Number(value(`${f.name}__dias`) || 0) };
    } else if (f.kind === 'competencia') {
      const mode = value(`${f.name}__modo`);
      if (mode === 'fixa' && value(f.name)) out[f.name] = value(f.name);
      if (mode === 'atual') out[f.name] = { rel: 'mes', meses: 0 };
      if (mode === 'anterior') out[f.name] = { rel: 'mes', meses: -1 };
    } else if (value(f.name)) out[f.name] = value(f.name);
  }
  return out;
}

export function setFormField(form: HTMLFormElement, name: string, v: unknown): void {
  const el = byName(form, name);
  if (!el) return;
  if (el instanceof HTMLInputElement && el.type === 'radio') {
    const radio = form.querySelector<HTMLInputElement>(`[name="${name}"][value="${String(v)}"]`);
    if (radio) radio.checked = true;
  } else if (el instanceof HTMLInputElement && el.type === 'checkbox') el.checked = v === true;
  else el.value = String(v);
}
