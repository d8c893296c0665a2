/** Tiny DOM helpers shared by the sidebars. */
type Attrs = Record<string, string | boolean | number | EventListener | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Array<Node | string | null | undefined | false>
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, '').toLowerCase(), v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} não encontrado`);
  return el as T;
}

/** Runs work with the button showing a busy state, so nobody clicks twice. */
export async function busy<T>(button: HTMLButtonElement, work: () => Promise<T>): Promise<T> {
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  try {
    return await work();
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
  }
}

export function notice(el: HTMLElement, kind: 'ok' | 'error' | 'warn' | 'info', text: string): void {
  el.className = `notice ${kind}`;
  el.textContent = text;
  el.setAttribute('role', kind === 'error' ? 'alert' : 'status');
}

export function clearNotice(el: HTMLElement): void {
  el.textContent = '';
}

/** Shows a message beside the field it concerns. */
export function fieldError(form: HTMLElement, field: string, message: string): void {
  const input = form.querySelector<HTMLElement>(`[name="${field}"]`);
  const slot = form.querySelector<HTMLElement>(`[data-error-for="${field}"]`);
  if (input) {
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  }
  if (slot) slot.textContent = message;
}

export function clearFieldErrors(form: HTMLElement): void {
  form.querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'));
  form.querySelectorAll<HTMLElement>('[data-error-for]').forEach((el) => (el.textContent = ''));
}

export function errorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/^(Exception|Error):\s*/, '');
}
