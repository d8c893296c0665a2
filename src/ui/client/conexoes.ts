import { busy, byId, clearFieldErrors, clearNotice, errorText, fieldError, h, notice } from './dom';
import type { ConnectionView } from '../../core/connections/connections';
import { server, type Reply } from './rpc';

const form = byId<HTMLFormElement>('form');
const list = byId('list');
const status = byId('status');
const testResult = byId('test-result');
const keyInput = byId<HTMLInputElement>('f-key');
const keySaved = byId('key-saved');

function input(name: string): HTMLInputElement {
  return form.elements.namedItem(name) as HTMLInputElement;
}

/** A connection as the server lists it, with the reports that read it. */
type ConnectionCard = Awaited<Reply<'listConnections'>>[number];

function render(connections: ConnectionCard[]): void {
  list.replaceChildren();
  if (connections.length === 0) {
    list.append(h('p', { class: 'empty' }, 'Nenhuma conexão ainda. Adicione a primeira.'));
    return;
  }
  for (const c of connections) {
    const testBtn = h('button', { type: 'button' }, 'Testar');
    const result = h('div', { class: 'notice', 'aria-live': 'polite' });
    testBtn.addEventListener('click', () =>
      busy(testBtn, async () => {
        clearNotice(result);
        try {
          const r = await server.testConnection({ id: c.id });
          // What the test found (the organization, a refused key) shows on the cards.
          render(await server.listConnections());
          const shown = list.querySelector(`[data-connection="${CSS.escape(c.name)}"] .notice`) ?? result;
          notice(
            shown as HTMLElement,
            r.ok ? (r.code === 'slow' || 'warning' in r ? 'warn' : 'ok') : 'error',
            'warning' in r && r.warning ? `${r.message} ${r.warning}` : r.message,
          );
        } catch (err) {
          notice(result, 'error', errorText(err));
        }
      }),
    );
    const editBtn = h('button', { type: 'button', onclick: () => openForm(c) }, 'Editar');
    const removeBtn = h('button', { type: 'button', class: 'danger' }, 'Remover');
    removeBtn.addEventListener('click', () =>
      busy(removeBtn, async () => {
        // Sidebars cannot rely on confirm(): the second click confirms.
        if (removeBtn.dataset.armed !== 'true') {
          removeBtn.dataset.armed = 'true';
          removeBtn.textContent = 'Confirmar remoção';
          const names = c.reports.map((n) => `"${n}"`).join(', ');
          notice(
            result,
            'warn',
            c.reports.length
              ? `${c.reports.length === 1 ? 'O relatório' : 'Os relatórios'} ${names} ${c.reports.length === 1 ? 'usa' : 'usam'} esta conexão e ${c.reports.length === 1 ? 'deixará' : 'deixarão'} de atualizar até você escolher outra em Relatórios ("Trocar conexão"). Clique de novo para remover.`
              : 'Nenhum relatório seu usa esta conexão. Clique de novo para remover.',
          );
          return;
        }
        render(await server.removeConnection(c.id));
        notice(status, 'info', `Conexão "${c.name}" removida.`);
      }),
    );
    list.append(
      h(
        'div',
        { class: 'card', 'data-connection': c.name },
        h('div', { class: 'title' }, h('span', {}, c.name), c.isDefault ? h('span', { class: 'badge' }, 'padrão') : null),
        h('div', { class: 'meta' }, c.baseUrl),
        keyLine(c),
        c.organization?.name ? h('div', { class: 'meta' }, `Organização: ${c.organization.name}`) : null,
        h('div', { class: 'actions' }, testBtn, editBtn, removeBtn),
        result,
      ),
    );
  }
}

/** A key the last test refused is a badge, never "Chave salva". */
function keyLine(c: ConnectionView): HTMLElement {
  if (c.hasKey && c.keyProblem)
    return h(
      'div',
      { class: 'meta' },
      h('span', { class: 'badge error', title: 'O último teste desta chave falhou: edite a conexão e substitua a chave.' }, c.keyProblem),
    );
  return h('div', { class: 'meta' }, c.hasKey ? 'Chave salva' : 'Sem chave');
}

function showKeyInput(show: boolean): void {
  keyInput.hidden = !show;
  keySaved.hidden = show;
}

function openForm(c?: ConnectionView): void {
  form.reset();
  clearFieldErrors(form);
  clearNotice(testResult);
  form.hidden = false;
  byId('form-title').textContent = c ? `Editar "${c.name}"` : 'Nova conexão';
  input('id').value = c?.id ?? '';
  input('name').value = c?.name ?? '';
  input('baseUrl').value = c?.baseUrl ?? '';
  input('isDefault').checked = c?.isDefault ?? false;
  keyInput.value = '';
  // A saved key is never sent back to the page: it can only be replaced.
  showKeyInput(!c?.hasKey);
  input('name').focus();
}

function values() {
  return {
    id: input('id').value || undefined,
    name: input('name').value,
    baseUrl: input('baseUrl').value,
    apiKey: keyInput.hidden ? '' : keyInput.value,
    isDefault: input('isDefault').checked,
  };
}

byId('add').addEventListener('click', () => openForm());
byId('cancel').addEventListener('click', () => {
  form.hidden = true;
});
byId('replace-key').addEventListener('click', () => {
  showKeyInput(true);
  keyInput.focus();
});

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const save = byId<HTMLButtonElement>('save');
  void busy(save, async () => {
    clearFieldErrors(form);
    try {
      const r = await server.saveConnection(values());
      if (!r.ok) {
        if (r.field) fieldError(form, r.field, r.message);
        else notice(status, 'error', r.message);
        return;
      }
      keyInput.value = '';
      form.hidden = true;
      render(await server.listConnections());
      notice(status, 'info', `Conexão "${r.connection.name}" salva. Testando…`);
      // Saved as typed, then tried at once: a key the service refuses is said now, not at the first import.
      const check = await server.testConnection({ id: r.connection.id });
      render(await server.listConnections());
      const warning = 'warning' in check && check.warning ? ` ${check.warning}` : '';
      notice(
        status,
        check.ok ? (check.code === 'slow' || warning ? 'warn' : 'ok') : 'error',
        check.ok
          ? `Conexão "${r.connection.name}" salva. ${check.message}${warning}`
          : `Conexão "${r.connection.name}" salva, mas o teste falhou: ${check.message}`,
      );
    } catch (err) {
      notice(status, 'error', errorText(err));
    }
  });
});

byId('test').addEventListener('click', () => {
  const btn = byId<HTMLButtonElement>('test');
  void busy(btn, async () => {
    clearFieldErrors(form);
    clearNotice(testResult);
    const v = values();
    try {
      const r = await server.testConnection({ id: v.id, baseUrl: v.baseUrl, apiKey: v.apiKey });
      if (!r.ok && 'field' in r && r.field) fieldError(form, r.field, r.message);
      notice(testResult, r.ok ? (r.code === 'slow' ? 'warn' : 'ok') : 'error', r.message);
    } catch (err) {
      notice(testResult, 'error', errorText(err));
    }
  });
});

/** The addresses this publication of the add-on may reach, offered in the form. */
server
  .getConnectionOptions()
  .then(({ baseUrls, localHosts }) => {
    byId('allowed-urls').replaceChildren(...baseUrls.map((url) => h('option', { value: url })));
    // The form also saves this machine's addresses (a test sandbox, http allowed): the hint says so.
    byId('allowed-hint').textContent = baseUrls.length
      ? `Endereços permitidos nesta publicação: ${baseUrls.join(', ')}, e endereços locais para testes (${localHosts.join(', ')}, com http ou https). Outro endereço precisa ser incluído pelo administrador do complemento.`
      : '';
  })
  .catch((err) => notice(status, 'error', errorText(err)));

server
  .listConnections()
  .then((connections) => {
    render(connections);
    if (connections.length === 0) openForm();
  })
  .catch((err) => notice(status, 'error', errorText(err)));
