/**
 * Everything around the grid: sheet tabs, the add-on's sidebar and dialogs
 * (the bundle's own HTML in iframes, bridge injected by the server), toasts,
 * and the playground's own time controls.
 */
import type { PlaygroundView, SurfaceView, TabView, ToastView } from '../view';
import { byId, h } from './dom';

export interface PanelActions {
  activate(sheetId: number): void;
  closeSurface(id: number): void;
  advance(minutes: number): void;
  switchUser: (user: string) => void;
}

const tabs = byId('tabs');
const sidebar = byId('sidebar');
const sidebarTitle = byId('sidebar-title');
const dialogs = byId('dialogs');
const toasts = byId('toasts');
let actions: PanelActions;
let tabsJson = '';
let sidebarId: number | null = null;
const dialogIds = new Map<number, HTMLElement>();
let toastsSeen: number | null = null;

export function initPanels(a: PanelActions): void {
  actions = a;
  byId('sidebar-close').addEventListener('click', () => {
    if (sidebarId !== null) actions.closeSurface(sidebarId);
  });
  byId('sidebar-close').classList.add('close-x');
  byId('pg-advance-hour').addEventListener('click', () => actions.advance(60));
  byId('pg-advance-day').addEventListener('click', () => actions.advance(24 * 60));
  byId<HTMLSelectElement>('pg-user').addEventListener('change', (ev) => actions.switchUser((ev.target as HTMLSelectElement).value));
  byId<HTMLDetailsElement>('pg-keys').addEventListener('toggle', (ev) => {
    if (!(ev.target as HTMLDetailsElement).open) return;
    void fetch('/demo-keys', { cache: 'no-store' })
      .then((r) => r.json() as Promise<{ baseUrl: string; orgs: Array<{ name: string; apiKey: string }> }>)
      .then((d) =>
        byId('pg-keys-list').replaceChildren(
          h('div', { class: 'item' }, 'Endereço base: ', h('code', {}, d.baseUrl)),
          ...d.orgs.map((o) => h('div', { class: 'item', 'data-org': o.name }, h('strong', {}, o.name), h('br'), 'Chave: ', h('code', {}, o.apiKey))),
        ),
      );
  });
}

function renderOutbox(view: PlaygroundView): void {
  byId('pg-mail-summary').textContent = `E-mails enviados (${view.outbox.length})`;
  byId('pg-mail-list').replaceChildren(
    ...(view.outbox.length
      ? view.outbox.map((m) => h('div', { class: 'item mail' }, h('strong', {}, m.subject), h('br'), `Para ${m.to} · ${m.at}`, h('pre', {}, m.body)))
      : [h('div', { class: 'item' }, 'Nenhum e-mail enviado.')]),
  );
}

function renderTabs(list: TabView[], activeId: number): void {
  const json = JSON.stringify([list, activeId]);
  if (json === tabsJson) return;
  tabsJson = json;
  tabs.replaceChildren(
    ...list.map((t) => {
      const selected = t.id === activeId;
      const tab = h(
        'button',
        { type: 'button', role: 'tab', 'aria-selected': String(selected), 'data-sheet': t.name, 'data-tab-color': t.tabColor ?? undefined },
        t.name,
      );
      if (t.tabColor) {
        const bar = h('span', { class: 'tab-color', 'aria-hidden': 'true' });
        bar.style.background = t.tabColor;
        tab.append(bar);
        tab.title = 'Cor da guia definida pelo complemento';
      }
      tab.addEventListener('click', () => {
        if (!selected) actions.activate(t.id);
      });
      return tab;
    }),
  );
}

function frame(s: SurfaceView, name: string): HTMLIFrameElement {
  return h('iframe', { src: `/surface/${s.id}`, name, title: s.title || name, 'data-surface': s.id });
}

function renderSidebar(s: SurfaceView | null): void {
  if ((s?.id ?? null) === sidebarId) return;
  sidebarId = s?.id ?? null;
  sidebar.querySelector('iframe')?.remove();
  sidebar.hidden = s === null;
  if (!s) return;
  sidebarTitle.textContent = s.title;
  const iframe = frame(s, 'sidebar');
  iframe.id = 'sidebar-frame';
  sidebar.append(iframe);
}

function renderDialogs(list: SurfaceView[]): void {
  const wanted = new Set(list.map((d) => d.id));
  for (const [id, el] of dialogIds) {
    if (!wanted.has(id)) {
      el.remove();
      dialogIds.delete(id);
    }
  }
  for (const d of list) {
    if (dialogIds.has(d.id)) continue;
    const close = h('button', { type: 'button', class: 'close-x', 'aria-label': 'Fechar' }, '✕');
    close.addEventListener('click', () => actions.closeSurface(d.id));
    const iframe = frame(d, `dialog-${d.id}`);
    const box = h(
      'div',
      { class: 'dialog', role: 'dialog', 'aria-modal': String(d.kind === 'modal'), 'aria-label': d.title },
      h('div', { class: 'dlg-head' }, h('span', {}, d.title), close),
      iframe,
    );
    box.style.width = `${d.width}px`;
    box.style.height = `${d.height + 56}px`;
    const backdrop = h('div', { class: `dialog-backdrop ${d.kind}` }, box);
    dialogs.append(backdrop);
    dialogIds.set(d.id, backdrop);
  }
}

export function showToast(t: Pick<ToastView, 'title' | 'message' | 'timeoutSeconds'>, kind: 'toast' | 'error' = 'toast'): void {
  const close = h('button', { type: 'button', class: 'close-x', 'aria-label': 'Fechar aviso' }, '✕');
  const el = h(
    'div',
    { class: `toast ${kind === 'error' ? 'error' : ''}`, role: kind === 'error' ? 'alert' : 'status' },
    h('div', { class: 't-body' }, t.title ? h('div', { class: 't-title' }, t.title) : null, h('div', {}, t.message)),
    close,
  );
  close.addEventListener('click', () => el.remove());
  toasts.append(el);
  if (t.timeoutSeconds > 0) setTimeout(() => el.remove(), t.timeoutSeconds * 1000);
}

function renderToasts(list: ToastView[]): void {
  // Toasts shown before the page loaded are history, not news.
  if (toastsSeen === null) toastsSeen = list.length;
  for (const t of list.slice(toastsSeen)) showToast(t);
  toastsSeen = Math.max(toastsSeen, list.length);
}

function renderUsers(users: PlaygroundView['users']): void {
  const select = byId<HTMLSelectElement>('pg-user');
  const current = [...select.options].map((o) => o.value).join('\n');
  if (current !== users.all.join('\n')) {
    select.replaceChildren(
      ...users.all.map((u) => {
        const o = document.createElement('option');
        o.value = u;
        o.textContent = u;
        return o;
      }),
    );
  }
  select.value = users.current;
}

function renderPlaygroundBar(view: PlaygroundView): void {
  renderUsers(view.users);
  byId('pg-clock').textContent = view.clock.local;
  byId('pg-clock').parentElement!.setAttribute('data-iso', view.clock.iso);
  byId('pg-explain').title = `Organização de demonstração: ${view.demo.org} (dados ${view.demo.size}), serviço em ${view.demo.baseUrl}`;
  const trig = view.triggers;
  const triggers = byId('pg-triggers');
  const who = (owner: string) => (view.users.all.length > 1 ? `${owner.split('@')[0]}: ` : '');
  triggers.textContent =
    trig.length === 0
      ? 'Gatilhos: nenhum'
      : `Gatilhos: ${trig.map((t) => `${who(t.owner)}${t.handler} (${t.every}${t.nextRun ? `, próximo ${t.nextRun}` : ''})`).join('; ')}`;
  triggers.title = triggers.textContent;
}

export function setPlaygroundResult(text: string): void {
  byId('pg-result').textContent = text;
}

export function renderPanels(view: PlaygroundView): void {
  byId('doc-title').textContent = view.spreadsheet.name;
  renderTabs(view.tabs, view.grid.sheetId);
  renderSidebar(view.sidebar);
  renderDialogs(view.dialogs);
  renderToasts(view.toasts);
  renderPlaygroundBar(view);
  renderOutbox(view);
}
