/**
 * A cell's dropdown list, as Sheets opens it from the arrow of a cell with a
 * data-validation list (or Alt+↓): the choices under the cell, narrowed as one
 * types; a click or Enter picks, Escape or a click elsewhere closes it.
 */
import { h } from './dom';

export interface DropdownPlace {
  parent: HTMLElement;
  left: number;
  top: number;
  width: number;
}

let current: HTMLElement | null = null;

export function closeDropdown(): void {
  const box = current;
  current = null;
  box?.remove();
  document.removeEventListener('mousedown', closeOutside, true);
}

function closeOutside(ev: MouseEvent): void {
  if (current && !current.contains(ev.target as Node)) closeDropdown();
}

export function openDropdown(place: DropdownPlace, at: string, choices: string[], value: string, pick: (choice: string) => void): void {
  closeDropdown();
  const filter = h('input', { type: 'text', class: 'dd-filter', 'aria-label': `Filtrar opções de ${at}`, placeholder: 'Pesquisar' }) as HTMLInputElement;
  const list = h('div', { class: 'dd-options', role: 'listbox', 'aria-label': `Opções de ${at}` });
  const box = h('div', { class: 'dd-list' }, filter, list);
  box.style.left = `${place.left}px`;
  box.style.top = `${place.top}px`;
  box.style.minWidth = `${Math.max(place.width, 160)}px`;
  let shown: string[] = [];
  let active = Math.max(0, choices.indexOf(value));
  const choose = (choice: string) => {
    closeDropdown();
    pick(choice);
  };
  const draw = () => {
    const typed = filter.value.trim().toLocaleLowerCase('pt-BR');
    shown = typed ? choices.filter((c) => c.toLocaleLowerCase('pt-BR').includes(typed)) : choices;
    active = Math.min(active, Math.max(0, shown.length - 1));
    list.replaceChildren(
      ...shown.map((choice, i) =>
        h(
          'div',
          { role: 'option', class: i === active ? 'dd-option active' : 'dd-option', 'aria-selected': String(choice === value), onclick: () => choose(choice) },
          choice,
        ),
      ),
    );
    list.children[active]?.scrollIntoView({ block: 'nearest' });
  };
  filter.addEventListener('input', () => {
    active = 0;
    draw();
  });
  filter.addEventListener('keydown', (ev) => {
    ev.stopPropagation();
    if (ev.key === 'Escape') {
      ev.preventDefault();
      closeDropdown();
      filter.blur();
    } else if (ev.key === 'Enter' || ev.key === 'Tab') {
      ev.preventDefault();
      if (shown[active] !== undefined) choose(shown[active]);
    } else if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      ev.preventDefault();
      active = Math.min(Math.max(0, active + (ev.key === 'ArrowDown' ? 1 : -1)), shown.length - 1);
      draw();
    }
  });
  // A press on the list keeps the focus in the filter, so the keys keep working after a scroll of the list.
  box.addEventListener('mousedown', (ev) => {
    if (ev.target !== filter) ev.preventDefault();
  });
  place.parent.append(box);
  current = box;
  document.addEventListener('mousedown', closeOutside, true);
  draw();
  filter.focus();
}
