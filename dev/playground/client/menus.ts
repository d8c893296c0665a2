/**
 * The menu bar: Sheets' menus (inert here), the add-on's menus under
 * Extensões exactly as onOpen built them, and custom menus after Ajuda.
 */
import type { MenuEntry, MenuView } from '../view';
import { byId, h } from './dom';

const SHEETS_MENUS = ['Arquivo', 'Editar', 'Ver', 'Inserir', 'Formatar', 'Dados', 'Ferramentas', 'Extensões', 'Ajuda'];
const bar = byId('menubar');
let menusJson = '';
let onItem: (functionName: string) => void = () => {};

function closeAll(): void {
  bar.querySelectorAll('.open').forEach((el) => {
    el.classList.remove('open');
    el.querySelector(':scope > button')?.setAttribute('aria-expanded', 'false');
  });
  bar.querySelectorAll<HTMLElement>('.menu').forEach((m) => (m.hidden = true));
}

function openIn(li: HTMLElement): void {
  const parent = li.parentElement;
  parent?.querySelectorAll(':scope > li.open').forEach((other) => {
    if (other === li) return;
    other.classList.remove('open');
    other.querySelectorAll<HTMLElement>('.menu').forEach((m) => (m.hidden = true));
    other.querySelector(':scope > button')?.setAttribute('aria-expanded', 'false');
  });
  li.classList.add('open');
  li.querySelector(':scope > button')?.setAttribute('aria-expanded', 'true');
  const sub = li.querySelector<HTMLElement>(':scope > .menu');
  if (sub) sub.hidden = false;
}

function list(entries: Array<HTMLElement>, label: string): HTMLElement {
  const ul = h('ul', { class: 'menu', role: 'menu', 'aria-label': label }, ...entries);
  ul.hidden = true;
  return ul;
}

function submenu(caption: string, children: HTMLElement[]): HTMLElement {
  const button = h(
    'button',
    { type: 'button', role: 'menuitem', 'aria-haspopup': 'menu', 'aria-expanded': 'false' },
    h('span', {}, caption),
    h('span', { class: 'arrow', 'aria-hidden': 'true' }, '▸'),
  );
  const li = h('li', { role: 'none' }, button, list(children, caption));
  button.addEventListener('click', (ev) => {
    ev.stopPropagation();
    openIn(li);
  });
  li.addEventListener('mouseenter', () => openIn(li));
  return li;
}

function entries(items: MenuEntry[]): HTMLElement[] {
  return items.map((item) => {
    if (item.kind === 'separator') return h('li', { role: 'separator', class: 'separator' });
    if (item.kind === 'submenu') return submenu(item.caption, entries(item.items));
    const button = h('button', { type: 'button', role: 'menuitem', 'data-function': item.functionName }, item.caption);
    button.addEventListener('click', (ev) => {
      ev.stopPropagation();
      closeAll();
      onItem(item.functionName);
    });
    const li = h('li', { role: 'none' }, button);
    li.addEventListener('mouseenter', () => openIn(li));
    return li;
  });
}

function disabled(caption: string): HTMLElement {
  return h('li', { role: 'none' }, h('button', { type: 'button', role: 'menuitem', 'aria-disabled': 'true', title: 'Não disponível no playground' }, caption));
}

function topLevel(caption: string, children: HTMLElement[] | null): HTMLElement {
  const button = h(
    'button',
    {
      type: 'button',
      role: 'menuitem',
      'aria-haspopup': children ? 'menu' : undefined,
      'aria-expanded': children ? 'false' : undefined,
      'aria-disabled': children ? undefined : 'true',
      title: children ? undefined : 'Não disponível no playground',
    },
    caption,
  );
  const wrapper = h('div', { class: 'mb-item', role: 'none' }, button);
  if (!children) return wrapper;
  const menu = list(children, caption);
  wrapper.append(menu);
  button.addEventListener('click', (ev) => {
    ev.stopPropagation();
    const open = wrapper.classList.contains('open');
    closeAll();
    if (!open) {
      wrapper.classList.add('open');
      button.setAttribute('aria-expanded', 'true');
      menu.hidden = false;
    }
  });
  button.addEventListener('mouseenter', () => {
    if (bar.querySelector('.mb-item.open') && !wrapper.classList.contains('open')) button.click();
  });
  return wrapper;
}

export function initMenus(run: (functionName: string) => void): void {
  onItem = run;
  document.addEventListener('click', closeAll);
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') closeAll();
  });
}

export function renderMenus(menus: MenuView[]): void {
  const json = JSON.stringify(menus);
  if (json === menusJson) return;
  menusJson = json;
  const addon = menus.filter((m) => m.addon).map((m) => submenu(m.caption, entries(m.items)));
  const extensions = [
    ...addon,
    ...(addon.length ? [h('li', { role: 'separator', class: 'separator' })] : []),
    disabled('Complementos'),
    disabled('Macros'),
    disabled('Apps Script'),
  ];
  const custom = menus.filter((m) => !m.addon).map((m) => topLevel(m.caption, entries(m.items)));
  bar.replaceChildren(...SHEETS_MENUS.map((name) => topLevel(name, name === 'Extensões' ? extensions : null)), ...custom);
}
