/**
 * "Filtros na planilha" in the Importar form: conditions on any column of the
 * listing, applied by the add-on after downloading. Each filter is one block
 * whose inputs follow its condition; names carry the block's number so the
 * server's refusal can point at it.
 */
import type { SheetFilter } from '../../core/sheets/sheet-filters';
import { h } from './dom';

export interface ColumnChoice {
  key: string;
  label: string;
  kind: string;
}

type Op = SheetFilter['op'];

const DATE_KINDS = new Set(['date', 'datetime']);
const NUMBER_KINDS = new Set(['integer', 'number', 'money', 'percent']);

function placeholder(kind: string): string {
  if (DATE_KINDS.has(kind)) return 'DD/MM/AAAA';
  if (NUMBER_KINDS.has(kind)) return 'Ex.: 1.500,00';
  return '';
}

export class SheetFilters {
  private columns: ColumnChoice[] = [];
  private blocks: HTMLElement[] = [];

  constructor(
    private readonly box: HTMLElement,
    private readonly ops: Array<{ value: string; label: string }>,
    private readonly onChange: () => void,
  ) {}

  setColumns(columns: ColumnChoice[]): void {
    this.columns = columns;
    this.blocks = [];
    this.box.replaceChildren();
  }

  add(initial?: SheetFilter): void {
    const n = this.blocks.length + 1;
    const name = (s: string) => `sf${n}-${s}`;
    const column = h(
      'select',
      { name: name('campo'), 'aria-label': `Filtro na planilha ${n}: coluna` },
      h('option', { value: '' }, 'Coluna…'),
      ...this.columns.map((c) => h('option', { value: c.key }, c.label)),
    );
    const op = h(
      'select',
      { name: name('condicao'), 'aria-label': `Filtro na planilha ${n}: condição` },
      ...this.ops.map((o) => h('option', { value: o.value }, o.label)),
    );
    const inputs = h('div', { class: 'row' });
    const remove = h('button', { type: 'button', class: 'link' }, 'Remover');
    const block = h('div', { class: 'sheet-filter', 'data-sheet-filter': String(n) }, h('div', { class: 'row' }, column, op), inputs, remove);
    const render = () => {
      const kind = this.columns.find((c) => c.key === column.value)?.kind ?? 'text';
      const o = op.value as Op;
      const text = (suffix: string, label: string, ph = placeholder(kind)) =>
        h('input', { type: 'text', name: name(suffix), 'aria-label': `Filtro na planilha ${n}: ${label}`, placeholder: ph, autocomplete: 'off' });
      if (o === 'igual') inputs.replaceChildren(text('valor', 'valor'));
      else if (o === 'lista') inputs.replaceChildren(text('valores', 'valores separados por ;', 'Ex.: ABERTA; FATURADA'));
      else if (o === 'entre') inputs.replaceChildren(text('de', 'de'), text('ate', 'até'));
      else if (o === 'relativo') {
        const unit = h(
          'select',
          { name: name('unidade'), 'aria-label': `Filtro na planilha ${n}: unidade` },
          h('option', { value: 'meses' }, 'meses (mês inteiro; 0 = mês atual)'),
          h('option', { value: 'dias' }, 'dias a partir de hoje'),
        );
        const num = (suffix: string, label: string) =>
          h('input', { type: 'number', step: '1', value: '0', name: name(suffix), 'aria-label': `Filtro na planilha ${n}: ${label}` });
        const de = num('rel-de', 'de (meses a partir de hoje)');
        const ate = num('rel-ate', 'até (meses a partir de hoje)');
        // The unit shows in the inputs' names, so a bare 0 always says what it counts.
        unit.addEventListener('change', () => {
          const u = unit.value === 'dias' ? 'dias' : 'meses';
          de.setAttribute('aria-label', `Filtro na planilha ${n}: de (${u} a partir de hoje)`);
          ate.setAttribute('aria-label', `Filtro na planilha ${n}: até (${u} a partir de hoje)`);
        });
        inputs.replaceChildren(unit, h('label', { class: 'inline' }, 'de ', de), h('label', { class: 'inline' }, 'até ', ate));
      } else inputs.replaceChildren();
      this.onChange();
    };
    column.addEventListener('change', render);
    op.addEventListener('change', render);
    remove.addEventListener('click', () => {
      block.remove();
      this.blocks = this.blocks.filter((b) => b !== block);
      this.onChange();
    });
    this.box.append(block);
    this.blocks.push(block);
    if (initial) {
      column.value = initial.field;
      op.value = initial.op;
    }
    render();
    if (initial) {
      const set = (suffix: string, v: unknown) => {
        const el = block.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name(suffix)}"]`);
        if (el && v !== undefined) {
          el.value = String(v);
          el.dispatchEvent(new Event('change'));
        }
      };
      set('valor', initial.values?.[0]);
      set('valores', initial.values?.join('; '));
      set('de', initial.from);
      set('ate', initial.to);
      set('unidade', initial.rel?.unit);
      set('rel-de', initial.rel?.de);
      set('rel-ate', initial.rel?.ate);
    }
  }

  collect(): SheetFilter[] {
    return this.blocks.map((block) => {
      const get = (suffix: string) => block.querySelector<HTMLInputElement | HTMLSelectElement>(`[name$="-${suffix}"]`)?.value.trim() ?? '';
      const op = get('condicao') as Op;
      const f: SheetFilter = { field: get('campo'), op };
      if (op === 'igual') f.values = [get('valor')];
      if (op === 'lista') f.values = get('valores').split(';');
      if (op === 'entre') Object.assign(f, { from: get('de') || undefined, to: get('ate') || undefined });
      if (op === 'relativo') f.rel = { unit: get('unidade') === 'dias' ? 'dias' : 'meses', de: Number(get('rel-de') || 0), ate: Number(get('rel-ate') || 0) };
      return f;
    });
  }
}
