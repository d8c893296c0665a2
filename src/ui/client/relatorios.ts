import { busy, byId, errorText, h, notice } from './dom';
import { CANCELLING, cancelRun, driveRun, progressText, type RunControl, type RunProgress, whatToFix } from './runs';
import type { ReportView } from '../../core/reports/reports';
import { server } from './rpc';
import { scheduleFields } from './schedule-fields';
import { plural } from '../../api/words';

const list = byId('list');
const status = byId('status');
const usage = byId('usage');
let reports: ReportView[] = [];
/** What each card last said about a run: the list is drawn again after the run, and the outcome must stay in sight. */
const said = new Map<string, { kind: 'info' | 'ok' | 'warn' | 'error'; text: string }>();

function say(r: ReportView, el: HTMLElement, kind: 'info' | 'ok' | 'warn' | 'error', text: string): void {
  said.set(r.id, { kind, text });
  notice(el, kind, text);
}

function kindOf(p: RunProgress): 'info' | 'ok' | 'warn' | 'error' {
  if (p.status === 'running') return 'info';
  if (p.status === 'cancelled' || p.cancelLate) return 'warn';
  return p.status === 'done' ? 'ok' : 'error';
}

/** Where the report pulls from: its connection, or a consolidated report's companies. */
function source(r: ReportView): string {
  return r.companies ? `consolidado · empresas: ${r.companies.join(', ')}` : `conexão ${r.connection}`;
}

function lastRunLine(r: ReportView): HTMLElement {
  const l = r.lastRun;
  if (!l) return h('div', { class: 'meta' }, 'Nunca executado.');
  const origin = l.origin === 'agendado' ? 'agendada' : 'manual';
  const text =
    l.result === 'em andamento'
      ? `Em andamento desde ${l.at} (${origin}).`
      : `Última execução ${origin}: ${l.at} · ${plural(l.rows, 'linha', 'linhas')} · ${l.seconds.toLocaleString('pt-BR')} s · ${l.label}`;
  const line = h('div', { class: 'meta' }, text);
  if (l.result === 'erro') return h('div', {}, line, h('div', { class: 'notice error', role: 'alert' }, l.message || 'Falhou.'));
  if (l.message) return h('div', {}, line, h('div', { class: 'notice warn' }, l.message));
  return line;
}

function scheduleForm(r: ReportView, result: HTMLElement): HTMLElement {
  const fields = scheduleFields(r.schedule);
  const email = h('input', { type: 'checkbox', name: 'notify', checked: r.notifyByEmail });
  const error = h('div', { class: 'field-error' });
  const save = h('button', { type: 'submit', class: 'primary' }, 'Salvar agendamento');
  const form = h(
    'form',
    { class: 'schedule', 'aria-label': `Agendamento de ${r.name}` },
    ...fields.elements,
    h('label', { class: 'checkbox' }, email, 'Avisar por e-mail quando uma atualização agendada falhar'),
    error,
    h('div', { class: 'actions' }, save),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void busy(save, async () => {
      try {
        const out = await server.setReportSchedule(r.id, fields.read(), email.checked);
        if (!out.ok) {
          error.textContent = out.message;
          return;
        }
        await load();
        if (out.value.warning) notice(status, 'warn', out.value.warning);
        else notice(status, 'ok', out.value.schedule ? `"${r.name}" agendado: ${out.value.scheduleText}.` : `Agendamento de "${r.name}" removido.`);
      } catch (err) {
        notice(result, 'error', errorText(err));
      }
    });
  });
  return form;
}

async function refresh(r: ReportView, result: HTMLElement, resume = false, control: RunControl = { cancelled: false }, full = false): Promise<RunProgress> {
  const first = await (resume ? server.continueReportRun(r.id) : server.runReport(r.id, full));
  return driveRun(first, (p, waited) => say(r, result, kindOf(p), `${r.name}: ${progressText(p, waited)}`), control);
}

/** Taking a report over: the user picks one of their own connections, and the report is theirs from then on. */
function takeOverForm(r: ReportView, result: HTMLElement): HTMLElement {
  const connection = h('select', { name: 'connection', 'aria-label': 'Sua conexão' });
  const error = h('div', { class: 'field-error' });
  const confirm = h('button', { type: 'submit', class: 'primary' }, 'Assumir com esta conexão');
  const form = h(
    'form',
    { class: 'take-over', 'aria-label': `Assumir ${r.name}` },
    h(
      'p',
      { class: 'meta' },
      `Daqui em diante "${r.name}" será atualizado com a sua chave, na organização da conexão escolhida, e os agendamentos correrão no seu nome.`,
    ),
    h('label', {}, 'Sua conexão', connection),
    error,
    h('div', { class: 'actions' }, confirm),
  );
  void server.listConnections().then((list) => {
    connection.replaceChildren(...list.map((c) => h('option', { value: c.id, selected: c.isDefault }, c.name)));
    if (list.length === 0) error.textContent = 'Você ainda não tem conexões: adicione uma em Faturamento › Conexões.';
  });
  // A connection of another company is said, before and after, and taken only when confirmed.
  let companyConfirmed = false;
  connection.addEventListener('change', () => {
    companyConfirmed = false;
    confirm.textContent = 'Assumir com esta conexão';
  });
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void busy(confirm, async () => {
      try {
        const out = await server.takeOverReport(r.id, connection.value, companyConfirmed);
        if (!out.ok) {
          error.textContent = out.message;
          companyConfirmed = out.field === 'empresa';
          if (companyConfirmed) confirm.textContent = 'Confirmar a troca de empresa';
          return;
        }
        await load();
        notice(status, out.value.warning ? 'warn' : 'ok', out.value.warning ?? `"${r.name}" agora é seu, com a conexão ${out.value.connection}.`);
      } catch (err) {
        notice(result, 'error', errorText(err));
      }
    });
  });
  return form;
}

function ownerLine(r: ReportView): HTMLElement {
  if (r.mine) return h('div', { class: 'meta owner' }, `Seu (${r.owner})`);
  if (r.disowned)
    return h(
      'div',
      { class: 'notice warn owner' },
      'Alterado: diz ser seu, mas não está como você o salvou (alguém o gravou ou editou na aba oculta "Faturamento · dados"), então não é executado. Só você pode corrigi-lo: confira os filtros e a aba e clique em "Assumir" para salvá-lo de novo, ou exclua-o.',
    );
  return h(
    'div',
    { class: 'meta owner' },
    r.owner
      ? `De ${r.owner}: só essa pessoa o atualiza e agenda, com a conexão dela.`
      : 'Sem dono (salvo antes de os relatórios terem dono): não é atualizado por ninguém.',
  );
}

/** Atualizar, Continuar, Atualização completa and Cancelar of a card: while a run goes on, the report cannot be deleted under it. */
function runControls(r: ReportView, result: HTMLElement, deleteBtn: HTMLButtonElement): HTMLButtonElement[] {
  const refreshBtn = h('button', { type: 'button', class: 'primary' }, 'Atualizar');
  const continueBtn = r.canContinue ? h('button', { type: 'button' }, 'Continuar') : null;
  const cancelBtn = h('button', { type: 'button', hidden: true }, 'Cancelar');
  // An incremental report pulled whole once (records the service dropped or changed silently), and incremental after.
  const fullBtn = r.incremental
    ? h('button', { type: 'button', title: 'Busca tudo de novo desta vez; as próximas continuam incrementais.' }, 'Atualização completa')
    : null;
  let control: RunControl | null = null;
  // Cancelar instead of a second start.
  const running =
    (resume: boolean, full = false) =>
    async () => {
      control = { cancelled: false };
      cancelBtn.hidden = false;
      cancelBtn.disabled = false;
      deleteBtn.disabled = true;
      for (const b of [refreshBtn, continueBtn, fullBtn]) if (b) b.disabled = true;
      try {
        await refresh(r, result, resume, control, full);
      } catch (err) {
        say(r, result, 'error', errorText(err));
      } finally {
        control = null;
      }
      await load(false);
    };
  refreshBtn.addEventListener('click', () => busy(refreshBtn, running(false)));
  continueBtn?.addEventListener('click', () => busy(continueBtn, running(true)));
  fullBtn?.addEventListener('click', () => busy(fullBtn, running(false, true)));
  cancelBtn.addEventListener('click', () => {
    if (!control) return;
    cancelRun(control);
    cancelBtn.disabled = true;
    say(r, result, 'warn', `${r.name}: ${CANCELLING}`);
  });
  return [refreshBtn, continueBtn, fullBtn, cancelBtn].filter((b): b is HTMLButtonElement => b !== null);
}

function card(r: ReportView): HTMLElement {
  const result = h('div', { class: 'notice', 'aria-live': 'polite' });
  if (!r.mine) {
    const takeBtn = h('button', { type: 'button' }, 'Assumir');
    const el = h(
      'div',
      { class: 'card', 'data-report': r.name, 'data-owner': r.owner ?? '' },
      h('div', { class: 'title' }, h('span', {}, r.name), h('span', { class: 'badge' }, r.listingLabel)),
      ownerLine(r),
      h('div', { class: 'meta' }, `Aba "${r.sheetName}" · ${source(r)}${r.incremental ? ' · incremental' : ''}`),
      h('div', { class: 'meta' }, r.schedule ? `Agendado ${r.scheduleText}${r.nextRunAt ? ` · próxima: ${r.nextRunAt}` : ''}` : 'Sem agendamento'),
      lastRunLine(r),
      h('div', { class: 'actions' }, takeBtn),
      result,
    );
    takeBtn.addEventListener('click', () => {
      const existing = el.querySelector('form.take-over');
      if (existing) existing.remove();
      else el.insertBefore(takeOverForm(r, result), result);
    });
    return el;
  }
  const deleteBtn = h('button', { type: 'button', class: 'danger' }, 'Excluir');
  const runButtons = runControls(r, result, deleteBtn);
  const editBtn = h('button', { type: 'button' }, 'Editar');
  editBtn.addEventListener('click', () => busy(editBtn, () => server.editReport(r.id)));
  const scheduleBtn = h('button', { type: 'button' }, 'Agendar');
  deleteBtn.addEventListener('click', () =>
    busy(deleteBtn, async () => {
      if (deleteBtn.dataset.armed !== 'true') {
        deleteBtn.dataset.armed = 'true';
        deleteBtn.textContent = 'Confirmar exclusão';
        notice(result, 'warn', 'As abas importadas ficam como estão; só o relatório e o agendamento são removidos.');
        return;
      }
      reports = await server.deleteReport(r.id);
      render();
      notice(status, 'info', `Relatório "${r.name}" excluído.`);
    }),
  );
  const el = h(
    'div',
    { class: 'card', 'data-report': r.name, 'data-owner': r.owner ?? '' },
    r.orphaned ? orphanBox(r, result) : null,
    h('div', { class: 'title' }, h('span', {}, r.name), h('span', { class: 'badge' }, r.listingLabel)),
    ownerLine(r),
    h('div', { class: 'meta' }, `Aba "${r.sheetName}" · ${source(r)}${r.incremental ? ' · incremental' : ''}`),
    r.sheetFilters.length ? h('div', { class: 'meta' }, `Filtros na planilha (aplicados pelo complemento): ${r.sheetFilters.join('; ')}`) : null,
    h('div', { class: 'meta' }, r.schedule ? `Agendado ${r.scheduleText}${r.nextRunAt ? ` · próxima: ${r.nextRunAt}` : ''}` : 'Sem agendamento'),
    lastRunLine(r),
    h('div', { class: 'actions' }, ...runButtons, editBtn, scheduleBtn, deleteBtn),
    result,
  );
  const last = said.get(r.id);
  if (last) notice(result, last.kind, last.text);
  scheduleBtn.addEventListener('click', () => {
    const existing = el.querySelector('form.schedule');
    if (existing) existing.remove();
    else el.insertBefore(scheduleForm(r, result), result);
  });
  return el;
}

/** Failures first, above the list, with what to do: a card far down is easy to miss. */
/** A message as one sentence: one final period, never "..". */
const sentence = (text: string): string => `${text.trim().replace(/[.\s]+$/, '')}.`;

function renderFailures(): void {
  const box = byId('failures');
  const failed = reports.filter((r) => r.lastRun?.result === 'erro');
  box.hidden = failed.length === 0;
  box.replaceChildren(
    h('div', { class: 'title' }, plural(failed.length, 'relatório com falha', 'relatórios com falha')),
    ...failed.map((r) =>
      h(
        'div',
        { class: 'failure' },
        `"${r.name}" (${r.lastRun?.origin === 'agendado' ? 'execução agendada' : 'execução manual'} em ${r.lastRun?.at}): ${sentence(r.lastRun?.message || 'falhou')} `,
        // Only its owner can act on it: a colleague is not sent to buttons their card does not have.
        !r.mine
          ? `O relatório é de ${r.owner ?? 'outro editor'}: só essa pessoa o corrige, ou você o assume com uma conexão sua ("Assumir" no cartão dele).`
          : r.canContinue
            ? 'Use "Continuar" no cartão dele, ou corrija e clique em "Atualizar".'
            : whatToFix(r.lastRun?.message ?? ''),
      ),
    ),
  );
}

/** A report whose connection is gone is re-pointed here, in place: Conexões cannot do it. */
function orphanBox(r: ReportView, result: HTMLElement): HTMLElement {
  const choice = h('select', { 'aria-label': `Nova conexão de "${r.name}"` }, ...r.connections.map((c) => h('option', { value: c }, c)));
  const swap = h('button', { type: 'button', class: 'primary' }, 'Trocar conexão');
  swap.addEventListener('click', () =>
    busy(swap, async () => {
      const out = await server.setReportConnection(r.id, choice.value);
      if (!out.ok) return notice(result, 'error', out.message);
      reports = reports.map((x) => (x.id === r.id ? out.value : x));
      render();
      notice(status, 'ok', `"${r.name}" agora usa a conexão ${out.value.connection}.`);
    }),
  );
  const text = `A conexão "${r.connection}" não existe mais para você.`;
  return r.connections.length
    ? h('div', { class: 'notice warn' }, `${text} Escolha outra:`, h('div', { class: 'row' }, choice, swap))
    : h('div', { class: 'notice warn' }, `${text} Adicione uma em Faturamento › Conexões.`);
}

function render(): void {
  renderFailures();
  list.replaceChildren(...(reports.length ? reports.map(card) : [h('p', { class: 'empty' }, 'Nenhum relatório ainda. Use "Nova importação".')]));
}

/** Today's share of Google's daily quotas, and why scheduled updates stopped if they did. */
async function showUsage(): Promise<void> {
  const u = await server.getUsage();
  const n = (v: number) => v.toLocaleString('pt-BR');
  usage.textContent = `Hoje, por você: ${n(u.fetches)} de ${plural(u.fetchLimit, 'chamada', 'chamadas')} ao serviço e ${u.triggerMinutes} de ${u.triggerLimit} min de atualização automática (limites diários do Google).`;
  if (u.stopped) notice(status, 'error', u.stopped);
}

async function load(clear = true): Promise<void> {
  reports = await server.listReports();
  render();
  if (clear) status.textContent = '';
  await showUsage();
}

/** What "Atualizar todos" did, honestly: a partial run is not "atualizado", and none is not "todos". */
function refreshAllText(ok: number, partial: string[], failed: string[]): { kind: 'ok' | 'warn' | 'error'; text: string } {
  const parts = [
    plural(ok, 'atualizado', 'atualizados'),
    ...(partial.length ? [`parcialmente (alguma empresa falhou, veja o cartão): ${partial.map((n) => `"${n}"`).join(', ')}`] : []),
    ...(failed.length ? [`falharam: ${failed.join(', ')}`] : []),
  ];
  if (failed.length) return { kind: 'error', text: `${parts.join('; ')}.` };
  if (partial.length) return { kind: 'warn', text: `${parts.join('; ')}.` };
  return { kind: 'ok', text: ok === 1 ? 'O relatório foi atualizado.' : `Todos os ${plural(ok, 'relatório atualizado', 'relatórios atualizados')}.` };
}

const allBtn = byId<HTMLButtonElement>('refresh-all');
allBtn.addEventListener('click', () =>
  busy(allBtn, async () => {
    let ok = 0;
    const failed: string[] = [];
    const done: string[] = [];
    // Only the user's own reports: the others run with their owners' connections.
    const mine = reports.filter((r) => r.mine);
    if (mine.length === 0) {
      notice(
        status,
        'info',
        reports.length
          ? 'Nenhum destes relatórios é seu: cada um é atualizado por quem o criou. Para atualizar um deles com uma conexão sua, clique em "Assumir" no cartão dele.'
          : 'Você ainda não tem relatórios para atualizar: crie um em "Nova importação".',
      );
      return;
    }
    for (const r of mine) {
      notice(status, 'info', `Atualizando "${r.name}" (${ok + failed.length + 1} de ${mine.length})…`);
      try {
        const p = await refresh(r, status);
        if (p.status === 'done') {
          ok++;
          done.push(r.id);
        } else failed.push(r.name);
      } catch (err) {
        failed.push(`${r.name} (${errorText(err)})`);
      }
    }
    await load(false);
    // A consolidated run in which a company failed ends done, and PARCIAL on its card.
    const partial = reports.filter((r) => done.includes(r.id) && r.lastRun?.result === 'parcial').map((r) => r.name);
    const said = refreshAllText(ok - partial.length, partial, failed);
    notice(status, said.kind, said.text);
  }),
);
byId('new').addEventListener('click', () => void server.showImport());

load().catch((err) => notice(status, 'error', errorText(err)));

/**
 * Scheduled runs happen elsewhere (the hourly trigger): the open sidebar asks
 * again when it gets focus and every 30 s while visible, and redraws only when
 * something changed and nobody is in the middle of a form or a run.
 */
let polling = false;
async function poll(): Promise<void> {
  if (polling || document.hidden || document.querySelector('form.schedule, button[aria-busy="true"]')) return;
  polling = true;
  try {
    const fresh = await server.listReports();
    if (JSON.stringify(fresh) !== JSON.stringify(reports)) {
      reports = fresh;
      render();
    }
  } catch {
    // A poll that fails says nothing: the next one, or the user's own click, will.
  } finally {
    polling = false;
  }
}
window.addEventListener('focus', () => void poll());
setInterval(() => void poll(), 30_000);
