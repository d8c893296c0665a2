/** The Painéis sidebar: build a dashboard from a saved report, refresh or delete it, issue the NFS-e a dashboard found missing. */
import { busy, byId, clearFieldErrors, clearNotice, errorText, fieldError, h, notice } from './dom';
import { type Reply, server } from './rpc';
import { type ClosingListing, importClosingReport } from './closing-build';
import { plural } from '../../api/words';

type State = Awaited<Reply<'getDashboards'>>;
type View = State['dashboards'][number];

const form = byId<HTMLFormElement>('form');
const list = byId('list');
const status = byId('status');
const kindSelect = byId<HTMLSelectElement>('f-kind');
const reportSelect = byId<HTMLSelectElement>('f-report');
const secondSelect = byId<HTMLSelectElement>('f-second');
const thirdSelect = byId<HTMLSelectElement>('f-third');
const monthInput = byId<HTMLInputElement>('f-competencia');
const connectionSelect = byId<HTMLSelectElement>('f-connection');
let state: State | null = null;
/** A report the Fechamento creates for itself (from the connection chosen for it) instead of one the user has. */
const NEW = '__novo__';
const NEW_LABELS: Record<string, string> = {
  faturas: 'Criar um relatório para o painel (faturas da competência)',
  nfse: 'Criar um relatório para o painel (NFS-e da competência)',
  cobrancas: 'Criar um relatório para o painel (todas as cobranças)',
};

function options(select: HTMLSelectElement, items: Array<{ value: string; label: string }>, empty: string): void {
  select.replaceChildren(...(items.length ? items.map((i) => h('option', { value: i.value }, i.label)) : [h('option', { value: '' }, empty)]));
}

function reportsOf(listing: string | null): Array<{ value: string; label: string }> {
  return (state?.reports ?? []).filter((r) => r.listing === listing).map((r) => ({ value: r.id, label: r.name }));
}

function kindChanged(): void {
  const kind = state?.kinds.find((k) => k.kind === kindSelect.value);
  if (!kind) return;
  byId('kind-hint').textContent = `Conta: ${kind.counts}.`;
  const label = state?.reports.find((r) => r.listing === kind.listing)?.listingLabel ?? kind.listing;
  // The Fechamento can also make the reports it needs; the other panels start from the user's own.
  const choices = (listing: string) => [...reportsOf(listing), ...(kind.competencia ? [{ value: NEW, label: NEW_LABELS[listing] }] : [])];
  options(reportSelect, choices(kind.listing), `Nenhum relatório de ${label}: crie um em Importar dados.`);
  byId('second').hidden = !kind.second;
  if (kind.second) options(secondSelect, choices(kind.second), 'Nenhum relatório de NFS-e: crie um em Importar dados.');
  byId('third').hidden = !kind.third;
  if (kind.third) options(thirdSelect, choices(kind.third), 'Nenhum relatório de cobranças: crie um em Importar dados.');
  byId('month').hidden = !kind.competencia;
  if (kind.competencia && !monthInput.value) monthInput.value = state?.defaultCompetencia ?? '';
  sourcesChanged();
}

const sourceSelects = [reportSelect, secondSelect, thirdSelect];

/**
 * A report the panel makes reads the connection chosen here, shown only when one is to be made: by default the
 * connection of a report of one company already chosen beside it (the same company), else the default one.
 */
function sourcesChanged(): void {
  const making = sourceSelects.some((s) => !s.closest('[hidden]') && s.value === NEW);
  byId('new-connection').hidden = !making;
  if (!making) return;
  const chosen = sourceSelects.map((s) => state?.reports.find((r) => r.id === s.value)?.connection).find(Boolean);
  const connections = state?.connections ?? [];
  const preferred = connections.find((c) => c.name === chosen) ?? connections.find((c) => c.isDefault);
  connectionSelect.replaceChildren(
    ...(connections.length
      ? connections.map((c) => h('option', { value: c.name, selected: c === preferred }, c.name))
      : [h('option', { value: '' }, 'Nenhuma conexão: abra Faturamento › Conexões.')]),
  );
}

function card(d: View): HTMLElement {
  const result = h('div', { class: 'notice', 'aria-live': 'polite' });
  const refresh = h('button', { type: 'button' }, 'Atualizar agora');
  refresh.addEventListener('click', () =>
    busy(refresh, async () => {
      const r = await server.refreshDashboardNow(d.id);
      if (!r.ok) return notice(result, 'error', r.message);
      await load();
      notice(
        status,
        r.value.lastRefresh?.ok ? 'ok' : 'warn',
        r.value.lastRefresh?.ok ? `Painel "${d.title}" atualizado.` : (r.value.lastRefresh?.message ?? ''),
      );
    }),
  );
  const remove = h('button', { type: 'button', class: 'danger' }, 'Excluir');
  remove.addEventListener('click', () =>
    busy(remove, async () => {
      if (remove.dataset.armed !== 'true') {
        remove.dataset.armed = 'true';
        remove.textContent = 'Confirmar exclusão';
        notice(result, 'warn', `A aba "${d.sheetName}" do painel também será excluída. Clique de novo para excluir.`);
        return;
      }
      const r = await server.deleteDashboard(d.id);
      if (!r.ok) return notice(result, 'error', r.message);
      await load();
      notice(status, 'info', `Painel "${d.title}" excluído.`);
    }),
  );
  const issue = d.issues && d.mine ? h('button', { type: 'button', class: 'primary' }, 'Emitir NFS-e destas faturas') : null;
  issue?.addEventListener('click', () =>
    busy(issue, async () => {
      const r = await server.prepareNfseIssue(d.id);
      if (!r.ok) return notice(result, 'error', r.message);
      // The rows stay selected; Lançamentos em lote replaces this sidebar and reads the selection.
      await server.showBulk();
      notice(
        result,
        'ok',
        `${plural(r.value.invoices, 'fatura selecionada', 'faturas selecionadas')} na aba "${r.value.sheetName}". Em Lançamentos em lote, escolha "Emitir NFS-e" e "Só as selecionadas".`,
      );
    }),
  );
  const last = d.lastRefresh;
  return h(
    'div',
    { class: 'card', 'data-dashboard': d.title },
    h('div', { class: 'title' }, h('span', {}, d.title), last && !last.ok ? h('span', { class: 'badge' }, 'não atualizado') : null),
    h('div', { class: 'meta' }, `Aba: ${d.sheetName}`),
    h('div', { class: 'meta' }, `Fonte: ${[d.reportName, d.secondReportName, d.chargesReportName].filter(Boolean).join(' × ')}`),
    d.competencia ? h('div', { class: 'meta' }, `Competência: ${d.competencia}`) : null,
    h('div', { class: 'meta' }, last ? `Atualizado em ${last.at} · ${plural(last.counted, 'registro', 'registros')}` : 'Ainda não atualizado'),
    last && !last.ok ? h('div', { class: 'notice warn' }, last.message) : null,
    d.mine ? null : h('div', { class: 'meta' }, `De ${d.owner}`),
    d.checks.length ? checkLines(d, issue) : null,
    d.mine ? h('div', { class: 'actions' }, d.checks.length ? null : issue, refresh, remove) : null,
    result,
  );
}

/**
 * The Fechamento's conference lines: Ver linhas selects each line's rows on its report's sheet; Faturas sem NFS-e also
 * offers their issue. What Ver linhas selected is said under the line clicked, where the person is looking: the card's
 * foot is often below the sidebar's fold, and the grid beside it has moved to another tab.
 */
function checkLines(d: View, issue: HTMLElement | null): HTMLElement {
  return h(
    'ul',
    { class: 'checks', 'aria-label': 'Conferência' },
    ...d.checks.map((c) => {
      const see = h('button', { type: 'button' }, 'Ver linhas');
      const said = h('div', { class: 'notice', 'aria-live': 'polite' });
      see.addEventListener('click', () =>
        busy(see, async () => {
          const r = await server.showClosingRows(d.id, c.key);
          if (!r.ok) notice(said, 'warn', r.message);
          else notice(said, 'ok', `${r.value.title}: ${plural(r.value.rows, 'linha selecionada', 'linhas selecionadas')} na aba "${r.value.sheetName}".`);
          said.scrollIntoView({ block: 'nearest' });
        }),
      );
      return h('li', { 'data-check': c.key }, h('span', {}, c.label), see, c.key === 'sem-nfse' ? issue : null, said);
    }),
  );
}

/** The chosen report, or one made now for the Fechamento from the chosen connection (closing-build.ts). */
async function reportFor(select: HTMLSelectElement, listing: string, competencia: string): Promise<string> {
  if (select.value !== NEW) return select.value;
  return importClosingReport(listing as ClosingListing, competencia, connectionSelect.value, (text) => notice(status, 'info', text));
}

function render(): void {
  list.replaceChildren();
  const dashboards = state?.dashboards ?? [];
  if (dashboards.length === 0) list.append(h('p', { class: 'empty' }, 'Nenhum painel ainda.'));
  for (const d of dashboards) list.append(card(d));
}

async function load(): Promise<void> {
  const keep = kindSelect.value;
  state = await server.getDashboards();
  options(
    kindSelect,
    state.kinds.map((k) => ({ value: k.kind, label: k.title })),
    '',
  );
  if (keep) kindSelect.value = keep;
  kindChanged();
  render();
}

kindSelect.addEventListener('change', kindChanged);
for (const s of sourceSelects) s.addEventListener('change', sourcesChanged);

form.addEventListener('submit', (event) => {
  event.preventDefault();
  clearFieldErrors(form);
  clearNotice(status);
  void busy(byId<HTMLButtonElement>('create'), async () => {
    try {
      const kind = state?.kinds.find((k) => k.kind === kindSelect.value);
      const month = monthInput.value.trim() || state?.defaultCompetencia || '';
      const reportId = kind ? await reportFor(reportSelect, kind.listing, month) : reportSelect.value;
      const secondReportId = kind?.second ? await reportFor(secondSelect, kind.second, month) : undefined;
      const chargesReportId = kind?.third ? await reportFor(thirdSelect, kind.third, month) : undefined;
      const r = await server.createDashboard({
        kind: kindSelect.value as View['kind'],
        reportId,
        ...(secondReportId === undefined ? {} : { secondReportId }),
        ...(chargesReportId === undefined ? {} : { chargesReportId }),
        ...(byId('month').hidden ? {} : { competencia: monthInput.value }),
      });
      if (!r.ok) return r.field ? fieldError(form, r.field, r.message) : notice(status, 'error', r.message);
      await load();
      notice(status, 'ok', `Painel "${r.value.title}" criado na aba "${r.value.sheetName}".`);
    } catch (err) {
      notice(status, 'error', errorText(err));
    }
  });
});

load().catch((err) => notice(status, 'error', errorText(err)));
