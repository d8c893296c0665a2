/**
 * The "Central" sheet: a head that says what it counts, when it was
 * refreshed and what the interface cannot tell, then one row per company
 * (its month, its status, who reviewed it, and the work the shell knows of
 * around it), then a total of the companies counted.
 */
import { brDateTime, type Zone } from '../../api/calendar';
import { formatCpfCnpj } from '../../api/filters';
import { plural } from '../../api/words';
import type { DashboardBookPort, DashboardSheetPort, LinkedText } from '../dashboards/port';
import { INTEGER, MONEY, TABLE_ROW, TEXT, writeHead, writeTable } from '../dashboards/page';
import { money } from '../dashboards/sources';
import { SHEET_TAG } from '../sheets/sheet-layout';
import { type CellValue, NUMBER_FORMATS } from '../sheets/table';
import type { Owner } from '../trust/owners';
import type { SignedStore } from '../trust/seal';
import { chargesWindowText, UNSEEN } from './ask';
import { type Review, ReviewStore, shownReview, undoneBy } from './marks';
import type { MonthFigures } from './month';
import { statusOf } from './status';
import { type CentralCompany, type CentralJob, type CompanyMonth, companyKey, monthId } from './store';

/** What the shell knows around a company: the spreadsheets where it has reports, their schedules' health. */
export interface WorkInfo {
  links: Array<{ name: string; url: string }>;
  lastRun?: { at: number; ok: boolean; message: string };
  next?: number;
  failures: number;
  paused: boolean;
  /** The user's list of spreadsheets ran out of room: some may be missing here, and their failures from the count. */
  incomplete?: boolean;
}

export type CentralWork = (connectionId: string) => WorkInfo | undefined;

/** The sheet's tag value: the Central is found by it, whatever its tab is called. */
export const CENTRAL_TAG = 'central';
export const CENTRAL_NAME = 'Central';

const DATETIME = NUMBER_FORMATS.datetime;

/** The columns, in order, with their number formats. */
export const COLUMNS: ReadonlyArray<{ key: string; header: string; format: string }> = [
  { key: 'empresa', header: 'Empresa', format: TEXT },
  { key: 'organizacao', header: 'Organização (CNPJ)', format: TEXT },
  { key: 'faturas', header: 'Faturas (qtde)', format: INTEGER },
  { key: 'faturasValor', header: 'Faturas (valor)', format: MONEY },
  { key: 'notas', header: 'NFS-e emitidas (qtde)', format: INTEGER },
  { key: 'notasValor', header: 'NFS-e emitidas (valor dos serviços)', format: MONEY },
  { key: 'aEmitir', header: 'NFS-e a emitir (qtde)', format: INTEGER },
  { key: 'aEmitirValor', header: 'NFS-e a emitir (valor)', format: MONEY },
  { key: 'issRetido', header: 'ISS retido', format: MONEY },
  { key: 'issRecolher', header: 'ISS a recolher', format: MONEY },
  { key: 'abertas', header: 'Cobranças em aberto (qtde)', format: INTEGER },
  { key: 'abertasValor', header: 'Cobranças em aberto (valor)', format: MONEY },
  { key: 'vencidas', header: 'Cobranças vencidas (qtde)', format: INTEGER },
  { key: 'vencidasValor', header: 'Cobranças vencidas (valor)', format: MONEY },
  { key: 'divergencias', header: 'Divergências', format: INTEGER },
  { key: 'status', header: 'Status', format: TEXT },
  { key: 'conferidaPor', header: 'Conferida por', format: TEXT },
  { key: 'conferidaEm', header: 'Conferida em', format: DATETIME },
  { key: 'lidaEm', header: 'Números lidos em', format: DATETIME },
  { key: 'planilhas', header: 'Planilhas', format: TEXT },
  { key: 'ultima', header: 'Última execução', format: TEXT },
  { key: 'proxima', header: 'Próxima execução', format: TEXT },
  { key: 'falhas', header: 'Falhas', format: INTEGER },
];

/** Column widths in pixels, where 120 is not enough. */
const WIDTHS: Record<string, number> = { empresa: 260, organizacao: 150, status: 320, conferidaPor: 220, planilhas: 220, ultima: 260 };

export const column = (key: string): number => COLUMNS.findIndex((c) => c.key === key) + 1;

/** One company as the sheet shows it. */
export interface CentralRow {
  company: CentralCompany;
  month?: CompanyMonth;
  review: Review | null;
  work?: WorkInfo;
}

export interface CentralView {
  competencia: string;
  zone: Zone;
  job: Pick<CentralJob, 'startedAt' | 'finishedAt' | 'onlyChanged' | 'owner' | 'skipped'>;
  rows: CentralRow[];
}

/** The view of a refresh's companies from what the store keeps. */
export function centralView(
  deps: { store: SignedStore; zone: Zone; user: Owner; work?: CentralWork },
  job: CentralJob,
  items: Map<string, CompanyMonth>,
): CentralView {
  const reviews = new ReviewStore(deps.store);
  return {
    competencia: job.competencia,
    zone: deps.zone,
    job,
    rows: job.companies.map((company) => {
      const key = companyKey(company);
      const month = items.get(key);
      const review = shownReview(reviews.find(monthId(job.competencia, key)), deps.user);
      // A review over other figures than the row's no longer holds, even before a refresh removes it.
      const undone = review && month?.figures && !month.failure ? undoneBy(review, month.figures, deps.zone) : undefined;
      return {
        company,
        month: undone && month ? { ...month, undone } : month,
        review: undone ? null : review,
        work: deps.work?.(company.connectionId),
      };
    }),
  };
}

/** The Central's sheet, found by its tag, or made. */
export function centralSheet(book: DashboardBookPort): DashboardSheetPort {
  const found = book.tagged(SHEET_TAG, CENTRAL_TAG)[0]?.sheet;
  if (found) return found;
  const name = book.byName(CENTRAL_NAME) ? `${CENTRAL_NAME} (${book.sheetNames().length + 1})` : CENTRAL_NAME;
  const sheet = book.create(name);
  sheet.setSheetTag(SHEET_TAG, CENTRAL_TAG);
  return sheet;
}

const when = (at: number, zone: Zone): string => brDateTime(zone.wall(new Date(at)));

const COUNTED =
  'O que se conta: faturas da competência sem as canceladas (valor total); NFS-e emitidas, AUTORIZADA e EMITIDA (valor dos serviços); NFS-e a emitir, as faturas sem NFS-e; ISS retido e a recolher das notas emitidas; cobranças em aberto a vencer e vencidas no dia da leitura. Divergências: as linhas da Conferência do Fechamento (faturas sem NFS-e, NFS-e com valor diferente, notas sem número, faturas sem cobrança, cobranças sem fatura); o Status diz as faturas sem NFS-e como notas a emitir e conta à parte as outras divergências. Os números são os do Fechamento, calculados pelo mesmo código.';

function headLines(view: CentralView): string[] {
  const { job } = view;
  const total = view.rows.length;
  const failed = view.rows.filter((r) => r.month?.failure && r.month.run).length;
  const state = job.finishedAt
    ? `Atualizada em ${when(job.finishedAt, view.zone)} por ${job.owner.email || 'outro editor'}: ${plural(total, 'empresa', 'empresas')}${failed ? `, ${failed} com falha` : ''}${job.onlyChanged ? ' (lidas de novo só as empresas com alteração; as outras mantêm os números da última leitura, na coluna "Números lidos em")' : ''}.`
    : `Atualização em andamento desde ${when(job.startedAt, view.zone)}: ${plural(total, 'empresa', 'empresas')}; cada linha mostra a última leitura da empresa (coluna "Números lidos em"): as que esta atualização ainda não leu, e o total, podem estar desatualizados.`;
  const skipped = job.skipped.length
    ? `Conexões da mesma organização contadas uma vez: ${job.skipped.map((s) => `"${s.name}" (a mesma de "${s.used}")`).join(', ')}.`
    : '';
  return [`Central do escritório · competência ${view.competencia}`, state, COUNTED, chargesWindowText(view.competencia), UNSEEN, skipped].filter(Boolean);
}

const figureCells = (f: MonthFigures | undefined): CellValue[] =>
  f
    ? [
        f.invoices.count,
        money(f.invoices.cents),
        f.notesIssued.count,
        money(f.notesIssued.cents),
        f.notesMissing.count,
        money(f.notesMissing.cents),
        money(f.issRetidoCents),
        money(f.issDueCents),
        f.chargesOpen.count,
        money(f.chargesOpen.cents),
        f.chargesOverdue.count,
        money(f.chargesOverdue.cents),
        f.divergences,
      ]
    : Array.from({ length: 13 }, () => '');

function workCells(w: WorkInfo | undefined, zone: Zone): CellValue[] {
  if (!w) return ['', '', '', ''];
  const last = w.lastRun ? `${w.lastRun.ok ? 'OK' : 'Falhou'} em ${when(w.lastRun.at, zone)}${w.lastRun.message ? `: ${w.lastRun.message}` : ''}` : '';
  const next = w.paused ? 'Pausada' : w.next === undefined ? '' : when(w.next, zone);
  return [linkedNames(w.links, w.incomplete === true).text, last, next, w.failures];
}

/** Said under the list when the user's list of spreadsheets had to leave some out for room. */
const INCOMPLETE = '(pode haver outras: a sua lista de planilhas ficou sem espaço, e as falhas delas não entram na contagem)';

/** Names one a line, each linked to its spreadsheet. */
function linkedNames(links: ReadonlyArray<{ name: string; url: string }>, incomplete: boolean): LinkedText {
  let at = 0;
  const out: LinkedText = { text: '', links: [] };
  for (const l of links) {
    if (at > 0) at += 1;
    out.links.push({ start: at, end: at + l.name.length, url: l.url });
    at += l.name.length;
  }
  out.text = [...links.map((l) => l.name), ...(incomplete ? [INCOMPLETE] : [])].join('\n');
  return out;
}

function rowCells(r: CentralRow, zone: Zone): CellValue[] {
  const m = r.month;
  // Figures of an earlier read are not shown beside a failure: the row would pass them for today's.
  const figures = m?.failure ? undefined : m?.figures;
  const doc = r.company.organization?.document ?? '';
  const review = r.review ? [r.review.by.email || r.review.by.id, new Date(r.review.at)] : [m?.undone ?? '', ''];
  return [
    r.company.name,
    doc ? formatCpfCnpj(doc) : '',
    ...figureCells(figures),
    statusOf(m ?? {}).text,
    ...review,
    figures && m?.refreshedAt !== undefined ? new Date(m.refreshedAt) : '',
    ...workCells(r.work, zone),
  ];
}

function totalRow(view: CentralView): CellValue[] {
  const counted = view.rows.map((r) => r.month).filter((m): m is CompanyMonth & { figures: MonthFigures } => Boolean(m?.figures && !m.failure));
  const failed = view.rows.filter((r) => r.month?.failure).length;
  const sum = (pick: (f: MonthFigures) => number) => counted.reduce((n, m) => n + pick(m.figures), 0);
  const cents = (pick: (f: MonthFigures) => number) => money(sum(pick));
  const label = `Total de ${plural(counted.length, 'empresa contada', 'empresas contadas')}${failed ? ` (${plural(failed, 'empresa com falha fica fora', 'empresas com falha ficam fora')})` : ''}`;
  return [
    label,
    '',
    sum((f) => f.invoices.count),
    cents((f) => f.invoices.cents),
    sum((f) => f.notesIssued.count),
    cents((f) => f.notesIssued.cents),
    sum((f) => f.notesMissing.count),
    cents((f) => f.notesMissing.cents),
    cents((f) => f.issRetidoCents),
    cents((f) => f.issDueCents),
    sum((f) => f.chargesOpen.count),
    cents((f) => f.chargesOpen.cents),
    sum((f) => f.chargesOverdue.count),
    cents((f) => f.chargesOverdue.cents),
    sum((f) => f.divergences),
    ...Array.from({ length: COLUMNS.length - 15 }, () => ''),
  ];
}

/** Where each company's row is, for the shell (links, buttons): by connection id, 1-based sheet rows. */
export interface CentralLayout {
  rows: Map<string, number>;
  totalRow: number;
}

/** Rewrites the Central sheet from `view`. */
export function writeCentral(sheet: DashboardSheetPort, view: CentralView): CentralLayout {
  sheet.reset();
  writeHead(sheet, headLines(view));
  const rows = view.rows.map((r) => rowCells(r, view.zone));
  const formats = COLUMNS.map((c) => c.format);
  writeTable(sheet, TABLE_ROW, {
    title: `Empresas · competência ${view.competencia}`,
    header: COLUMNS.map((c) => c.header),
    rows: [...rows, totalRow(view)],
    formats,
  });
  const first = TABLE_ROW + 2;
  const totalAt = first + rows.length;
  // Names and words wide enough to read, figures as wide as a money value.
  sheet.setColumnWidths?.(COLUMNS.map((c) => WIDTHS[c.key] ?? 120));
  // Each spreadsheet where the company has reports, a link of its own, one a line.
  sheet.writeLinks(
    first,
    column('planilhas'),
    view.rows.map((r) => linkedNames(r.work?.links ?? [], r.work?.incomplete === true)),
  );
  sheet.setBold(totalAt, 1, COLUMNS.length);
  sheet.freezeRows(TABLE_ROW + 1);
  return { rows: new Map(view.rows.map((r, i) => [r.company.connectionId, first + i])), totalRow: totalAt };
}
