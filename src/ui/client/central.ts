/**
 * The Central do escritório sidebar: refresh the office's month (short server
 * steps until every company is read, so a hundred companies never need a second
 * click), and from each company's row mark the month as reviewed, open or build
 * its Fechamento, update its reports now, pause or resume its schedules.
 */
import { plural } from '../../api/words';
import { importClosingReport } from './closing-build';
import { busy, byId, clearFieldErrors, clearNotice, errorText, fieldError, h, notice } from './dom';
import { type Reply, server } from './rpc';
import { driveRun, progressText } from './runs';

type View = Awaited<Reply<'getCentral'>>;
type Company = View['companies'][number];
type Progress = Extract<Awaited<Reply<'continueCentralRefresh'>>, { ok: true }>['value'];

const form = byId<HTMLFormElement>('form');
const status = byId('status');
const progress = byId('progress');
const list = byId('list');
const monthInput = byId<HTMLInputElement>('f-competencia');
const hourlyInput = byId<HTMLInputElement>('f-hourly');
let view: View | null = null;

function showProgress(p: Progress): void {
  progress.hidden = false;
  notice(progress, p.finished ? (p.failed ? 'warn' : 'ok') : 'info', p.message);
}

/** How long the sidebar lets another execution work before asking for the refresh's next step again. */
const WAIT_MS = 5_000;

/** Steps the refresh until every company is read; each step is short, so the sidebar keeps saying where it is. */
async function drive(first: Progress): Promise<void> {
  let p = first;
  showProgress(p);
  while (!p.finished) {
    // Another execution held the document through the last step: give it a moment before asking again.
    if (p.waiting) await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
    const next = await server.continueCentralRefresh();
    if (!next.ok) {
      notice(progress, 'error', next.message);
      return;
    }
    p = next.value;
    showProgress(p);
  }
  await load();
}

function reviewButton(c: Company): HTMLButtonElement | null {
  if (!c.reviewable && !c.reviewedBy) return null;
  const reviewed = c.reviewedBy !== null;
  const b = h('button', { type: 'button' }, reviewed ? 'Desmarcar conferência' : 'Marcar como conferida');
  b.addEventListener('click', () =>
    busy(b, async () => {
      const r = await server.markCompanyReviewed(c.connectionId, !reviewed, c.seen);
      if (!r.ok) {
        notice(status, 'error', r.message);
        // The card may stand for figures read before: it shows them as they are now.
        view = await server.getCentral();
        return render();
      }
      view = r.value;
      render();
      notice(status, 'ok', reviewed ? `Conferência de ${c.name} desmarcada.` : `${c.name}: competência marcada como conferida por você.`);
    }),
  );
  return b;
}

/** Opens the company's Fechamento of the competência, or builds it here from its connection when there is none. */
/** The sheet and the cards drawn again after an action changed the company's work (its row is never stale after it). */
async function redrawn(): Promise<void> {
  const r = await server.redrawCentralSheet();
  if (!r.ok) return notice(status, 'warn', r.message);
  view = r.value;
  render();
}

/** A card's message line, found again after the cards were drawn anew. */
function cardNotice(c: Company): HTMLElement {
  return list.querySelector<HTMLElement>(`[data-company="${CSS.escape(c.name)}"] > [aria-live]`) ?? status;
}

function closingButton(c: Company, said: HTMLElement): HTMLButtonElement {
  const b = h('button', { type: 'button' }, 'Abrir fechamento');
  b.addEventListener('click', () =>
    busy(b, async () => {
      try {
        const r = await server.openCompanyClosing(c.connectionId, view?.competencia || view?.defaultCompetencia || '');
        if (!r.ok) return notice(said, 'error', r.message);
        if ('sheetName' in r.value) return notice(said, 'ok', `Fechamento de ${c.name} aberto na aba "${r.value.sheetName}".`);
        const { connection, competencia, company } = r.value.build;
        const say = (text: string) => notice(said, 'info', text);
        const reportId = await importClosingReport('faturas', competencia, connection, say, company);
        const secondReportId = await importClosingReport('nfse', competencia, connection, say, company);
        const chargesReportId = await importClosingReport('cobrancas', competencia, connection, say, company);
        const made = await server.createDashboard({ kind: 'fechamento', reportId, secondReportId, chargesReportId, competencia });
        if (!made.ok) return notice(said, 'error', made.message);
        await redrawn();
        notice(cardNotice(c), 'ok', `Fechamento de ${c.name} criado na aba "${made.value.sheetName}".`);
      } catch (err) {
        notice(said, 'error', errorText(err));
      }
    }),
  );
  return b;
}

/** Updates now the company's reports of this spreadsheet (one after the other), then starts those of its other spreadsheets. */
function runButton(c: Company, said: HTMLElement): HTMLButtonElement {
  const b = h('button', { type: 'button' }, 'Atualizar relatórios agora');
  b.addEventListener('click', () =>
    busy(b, async () => {
      try {
        const r = await server.runCompanyReports(c.connectionId);
        if (!r.ok) return notice(said, 'error', r.message);
        const failed: string[] = [];
        for (const report of r.value.here) {
          const first = await server.runReport(report.id);
          const end = await driveRun(first, (p, waited) => notice(said, 'info', `${report.name}: ${progressText(p, waited)}`), { cancelled: false });
          if (end.status !== 'done') failed.push(`${report.name}: ${end.message ?? 'não terminou'}`);
        }
        const here = r.value.here.length
          ? `${plural(r.value.here.length - failed.length, 'relatório desta planilha atualizado', 'relatórios desta planilha atualizados')}.`
          : '';
        let elsewhere = '';
        if (r.value.elsewhere.length) {
          notice(said, 'info', `Atualizando os relatórios da empresa nas outras planilhas (${r.value.elsewhere.map((l) => l.name).join(', ')})…`);
          const e = await server.runCompanyReportsElsewhere(c.connectionId);
          if (!e.ok) elsewhere = ` Nas outras planilhas: ${e.message}`;
          else {
            const served = e.value.served.length
              ? ` Nas outras planilhas, iniciados agora: ${e.value.served.join(', ')} (o resultado de cada um fica no Histórico de lá).`
              : '';
            const later = e.value.left.length
              ? e.value.automatic
                ? ` Ficaram para a próxima execução automática, em até uma hora: ${e.value.left.join(', ')}.`
                : ` Não puderam ser abertos agora e não há execução automática ativa: abra ${e.value.left.join(', ')} e use Relatórios › Atualizar todos.`
              : '';
            elsewhere = served + later;
          }
        }
        await redrawn();
        notice(cardNotice(c), failed.length ? 'warn' : 'ok', `${here}${failed.length ? ` Não terminaram: ${failed.join('; ')}.` : ''}${elsewhere}`.trim());
      } catch (err) {
        notice(said, 'error', errorText(err));
      }
    }),
  );
  return b;
}

function pauseButton(c: Company, said: HTMLElement): HTMLButtonElement {
  const b = h('button', { type: 'button' }, c.paused ? 'Retomar agendamentos' : 'Pausar agendamentos');
  b.addEventListener('click', () =>
    busy(b, async () => {
      const r = await server.setCompanyPaused(c.connectionId, !c.paused);
      if (!r.ok) return notice(said, 'error', r.message);
      view = r.value;
      render();
      notice(
        status,
        'ok',
        c.paused
          ? `${c.name}: agendamentos retomados, rodam a partir da próxima hora.`
          : `${c.name}: agendamentos pausados em todas as suas planilhas, até você retomar.`,
      );
    }),
  );
  return b;
}

function card(c: Company): HTMLElement {
  const said = h('div', { class: 'notice', 'aria-live': 'polite' });
  return h(
    'div',
    { class: 'card', 'data-company': c.name },
    h('div', { class: 'title' }, h('span', {}, c.name), c.paused ? h('span', { class: 'badge' }, 'pausada') : null),
    c.organization ? h('div', { class: 'meta' }, c.organization) : null,
    h('div', { class: `notice ${c.tone}` }, c.status),
    c.reviewedBy ? h('div', { class: 'meta' }, `Conferida por ${c.reviewedBy} em ${c.reviewedAt}`) : null,
    c.unreviewed ? h('div', { class: 'meta' }, c.unreviewed) : null,
    c.links.length
      ? h(
          'div',
          { class: 'meta' },
          'Planilhas: ',
          ...c.links.flatMap((l, i) => [i ? ', ' : '', h('a', { href: l.url, target: '_blank', rel: 'noopener' }, l.name)]),
        )
      : h('div', { class: 'meta' }, 'Nenhum relatório desta empresa nas suas planilhas.'),
    h('div', { class: 'actions' }, reviewButton(c), closingButton(c, said), runButton(c, said), pauseButton(c, said)),
    said,
  );
}

function render(): void {
  list.replaceChildren();
  const v = view;
  if (!v) return;
  byId('summary').textContent = v.refreshedAt
    ? `Competência ${v.competencia}, atualizada em ${v.refreshedAt}${v.refreshedBy ? ` por ${v.refreshedBy}` : ''}.`
    : 'A Central ainda não foi atualizada nesta planilha.';
  if (v.companies.length === 0) list.append(h('p', { class: 'empty' }, v.empty));
  for (const c of v.companies) list.append(card(c));
}

async function load(): Promise<void> {
  view = await server.getCentral();
  if (!monthInput.value) monthInput.value = view.competencia || view.defaultCompetencia;
  hourlyInput.checked = view.hourly;
  render();
  if (view.running) await drive(view.running);
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  clearFieldErrors(form);
  clearNotice(status);
  void busy(byId<HTMLButtonElement>('refresh'), async () => {
    try {
      const r = await server.startCentralRefresh({ competencia: monthInput.value.trim(), hourly: hourlyInput.checked });
      if (!r.ok) return r.field ? fieldError(form, r.field, r.message) : notice(status, 'error', r.message);
      await drive(r.value);
    } catch (err) {
      notice(status, 'error', errorText(err));
    }
  });
});

load().catch((err) => notice(status, 'error', errorText(err)));
