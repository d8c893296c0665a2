/**
 * Server side of the Central do escritório: the office's month on one sheet of
 * the spreadsheet where it is opened, one row per company the user has a
 * connection for, read through that company's own connection; and from a
 * company's row, its Fechamento, its reports now, its schedules paused or
 * resumed, its month marked as reviewed. A colleague sees the sheet but acts
 * only with their own connections: every action here reads the running user's.
 */
import { competencia as competenciaText, parseCompetencia } from '../api/calendar';
import { UserError } from '../api/user-error';
import { plural } from '../api/words';
import {
  type CentralDeps,
  type CentralJob,
  type CentralProgress,
  centralSummary,
  currentJob,
  redrawCentral,
  reviewCompany,
  startCentral,
  stepCentral,
} from '../core/central/refresh';
import { fingerprint } from '../core/central/marks';
import { CENTRAL_TAG } from '../core/central/sheet';
import { SHEET_TAG } from '../core/sheets/sheet-layout';
import type { Owner } from '../core/trust/owners';
import { CentralScheduleStore, colleagueRefreshing } from '../core/central/schedule';
import { CentralStore } from '../core/central/store';
import { describeOrganization } from '../core/connections/organizations';
import { lastMonth, todayOf } from '../core/dashboards/sources';
import { documentUrl, spreadsheetsOf } from '../core/hourly/work-index';
import { dashboardBookPort, dashboardDeps } from './dashboard-port';
import { selectionBookPort } from './sheet-port';
import { executionLimit } from './execution-limit';
import { BusyError, withDocumentLock } from './lock';
import { type FormOutcome, formOutcome, type Outcome, outcome } from './outcome';
import { connectionStore, currentUser, spreadsheetTimeZone } from './services';
import { centralCompanies, centralDeps } from './central-phase';
import { runAskedNow, syncDispatcher } from './dispatcher';
import { DISPATCHER } from './triggers';
import { showSidebar } from './ui';
import { setCompanyPaused as pauseSchedules, userWorkIndex } from './work-index';

export function showCentral(): void {
  showSidebar('Central', 'Central do escritório');
}

/** The running user's connection `id`, or a refusal naming what to do: a colleague's company is not theirs to act on. */
function ownConnection(connectionId: string) {
  const found = connectionStore()
    .list()
    .find((c) => c.id === connectionId);
  if (!found)
    throw new UserError('Esta empresa não é de uma conexão sua: só quem tem a conexão dela age por ela. Atualize a Central para ver as suas empresas.');
  return found;
}

/** Where a company's Fechamento is: its sheet here, or what the sidebar needs to build one from the company's connection. */
export type ClosingPlace = { sheetName: string } | { build: { connection: string; competencia: string; company: string } };

/**
 * Opens the company's Fechamento of `competencia` in this spreadsheet (one of its own reports, not a consolidated
 * one), or says how to build it: the sidebar imports its three reports from the company's connection and creates it.
 */
export function openCompanyClosing(connectionId: string, competencia: string): Outcome<ClosingPlace> {
  return outcome(() => {
    const connection = ownConnection(connectionId);
    const deps = dashboardDeps();
    const ofCompany = (id: string | undefined) => {
      const r = id ? deps.reports.find(id) : null;
      return !!r && !r.companies && r.connectionId === connectionId;
    };
    const me = currentUser().id;
    const found = deps.dashboards.list().find((d) => d.kind === 'fechamento' && d.competencia === competencia && d.owner?.id === me && ofCompany(d.reportId));
    const sheet = found?.sheetId === undefined ? null : SpreadsheetApp.getActiveSpreadsheet().getSheetById(found.sheetId);
    if (sheet) {
      sheet.activate();
      return { sheetName: sheet.getName() };
    }
    return { build: { connection: connection.name, competencia, company: connection.name } };
  });
}

/** The company's own reports in this spreadsheet that the running user may run: its one-company reports they own. */
export function runCompanyReports(
  connectionId: string,
): Outcome<{ here: Array<{ id: string; name: string }>; elsewhere: Array<{ name: string; url: string }> }> {
  return outcome(() => {
    ownConnection(connectionId);
    const deps = dashboardDeps();
    const me = currentUser().id;
    const here = deps.reports
      .list()
      .filter((r) => !r.companies && r.connectionId === connectionId && r.owner?.id === me)
      .map((r) => ({ id: r.id, name: r.name }));
    const elsewhere = otherSpreadsheets(connectionId).map(({ name, url }) => ({ name, url }));
    if (here.length === 0 && elsewhere.length === 0)
      throw new UserError('Esta empresa não tem relatórios seus em nenhuma planilha: crie um em Importar dados.');
    return { here, elsewhere };
  });
}

/** The user's other spreadsheets where the company has reports, with their ids (from the links the work index keeps). */
function otherSpreadsheets(connectionId: string): Array<{ id: string; name: string; url: string }> {
  const thisOne = SpreadsheetApp.getActiveSpreadsheet().getId();
  return spreadsheetsOf(userWorkIndex(), connectionId)
    .filter((d) => d.id !== thisOne)
    .map((d) => ({ ...d, url: documentUrl(d.id) }));
}

/**
 * "Atualizar relatórios agora" for the company's reports in the user's other spreadsheets: each opened and its runs
 * started now while the step lasts; what is left, the user's next hourly run serves (the request is kept until then).
 */
export function runCompanyReportsElsewhere(connectionId: string): Outcome<{ served: string[]; left: string[]; automatic: boolean }> {
  return outcome(() => {
    ownConnection(connectionId);
    const others = otherSpreadsheets(connectionId);
    const done = new Set(
      runAskedNow(
        others.map((o) => o.id),
        connectionId,
        Math.min(Date.now() + STEP_MS, executionLimit()),
      ),
    );
    const automatic = ScriptApp.getProjectTriggers().some((t) => t.getHandlerFunction() === DISPATCHER);
    return { served: others.filter((o) => done.has(o.id)).map((o) => o.name), left: others.filter((o) => !done.has(o.id)).map((o) => o.name), automatic };
  });
}

/**
 * A sidebar step's time: long enough that a hundred companies are read in a few executions (each pays the script's
 * start-up), short enough that the sidebar says where it is every minute or two.
 */
const STEP_MS = 100_000;

/** How the sidebar colours a status. */
const TONES = { 'sem-pendencias': 'ok', pendencias: 'warn', falha: 'error', 'sem-movimento': 'info', 'nao-atualizada': 'info' } as const;

export interface CentralCompanyView {
  connectionId: string;
  name: string;
  organization: string;
  status: string;
  tone: 'ok' | 'warn' | 'error' | 'info';
  reviewedBy: string | null;
  reviewedAt: string | null;
  /** Why an earlier review was cleared, when it was. */
  unreviewed: string | null;
  /** Read by the last refresh and not failed: its month can be marked as reviewed. */
  reviewable: boolean;
  /** The figures the card stands for (their fingerprint): a review is signed only over the figures the person saw. */
  seen: string | null;
  paused: boolean;
  links: Array<{ name: string; url: string }>;
}

/** The refresh's progress as the sidebar shows it. */
export interface CentralStep extends CentralProgress {
  finished: boolean;
  failed: number;
  /** The hourly refresh could not be set up: what to do. */
  warning?: string;
  /** Another execution held the document, and this step waited for it in vain: the sidebar asks again shortly. */
  waiting?: boolean;
}

/**
 * "Atualizar sozinha a cada hora": kept, or dropped, as the running user's. Another editor's schedule is left alone
 * when this one does not ask for it, and replaced when they do: a document's Central refreshes as one person.
 */
function scheduleCentral(deps: CentralDeps, competencia: string, hourly: boolean): void {
  const schedules = new CentralScheduleStore(deps.store);
  const current = schedules.get();
  if (hourly) schedules.set({ owner: deps.user, competencia, since: deps.now() });
  else if (current?.owner.id === deps.user.id) schedules.clear();
}

export interface CentralSidebar {
  competencia: string;
  defaultCompetencia: string;
  refreshedAt: string | null;
  refreshedBy: string | null;
  hourly: boolean;
  running: CentralStep | null;
  companies: CentralCompanyView[];
  /** What the sidebar says when it lists no company: why, and what to do. */
  empty: string;
}

/** Why the sidebar lists none of the user's companies: no connection, no refresh yet, or the last refresh a colleague's. */
function emptyText(job: CentralJob | null, user: Owner, connections: number): string {
  if (connections === 0) return 'Nenhuma conexão: abra Faturamento › Conexões e cadastre as empresas.';
  if (!job) return 'Nenhuma empresa lida ainda: clique em Atualizar a Central para ler as suas empresas.';
  if (job.owner.id !== user.id)
    return `A última atualização da Central é de ${job.owner.email || 'outro editor'}, com as próprias conexões: clique em Atualizar a Central para ler as suas empresas.`;
  return 'Nenhuma das suas conexões estava na última atualização: clique em Atualizar a Central.';
}

const stamp = (at: number): string => Utilities.formatDate(new Date(at), spreadsheetTimeZone(), 'dd/MM/yyyy HH:mm');

function sidebarOf(deps: CentralDeps): CentralSidebar {
  const job = currentJob(deps);
  const summary = centralSummary(deps);
  const defaultCompetencia = lastMonth(todayOf(deps.zone, deps.now()));
  const mine = new Set(
    connectionStore()
      .list()
      .map((c) => c.id),
  );
  const companies = (summary?.companies ?? [])
    // A colleague's refresh lists their companies: this user acts only on their own connections.
    .filter((e) => mine.has(e.connectionId))
    .map(
      (e): CentralCompanyView => ({
        connectionId: e.connectionId,
        name: e.name,
        organization: e.organization ? describeOrganization(e.organization) : '',
        status: e.status.text,
        tone: TONES[e.status.state],
        reviewedBy: e.reviewedBy ?? null,
        reviewedAt: e.reviewedAt === undefined ? null : stamp(e.reviewedAt),
        unreviewed: e.undone ?? null,
        reviewable: !!e.figures && !summary?.running,
        seen: e.figures ? fingerprint(e.figures) : null,
        paused: e.work?.paused ?? false,
        links: (e.work?.links ?? []).map(({ name, url }) => ({ name, url })),
      }),
    );
  return {
    competencia: job?.competencia ?? '',
    defaultCompetencia,
    refreshedAt: job?.finishedAt ? stamp(job.finishedAt) : null,
    refreshedBy: job?.finishedAt ? job.owner.email || null : null,
    hourly: new CentralScheduleStore(deps.store).get()?.owner.id === deps.user.id,
    empty: emptyText(job, deps.user, mine.size),
    running:
      job && !job.finishedAt && job.owner.id === deps.user.id
        ? stepOf(deps, { done: 0, total: job.companies.length, message: 'Atualização da Central pela metade: continuando…' }, false)
        : null,
    companies,
  };
}

function stepOf(deps: CentralDeps, progress: CentralProgress, finished: boolean): CentralStep {
  const job = currentJob(deps);
  // Each company's item names the refresh that wrote it last: this refresh's failures are its items that failed.
  const failed = job ? [...new CentralStore(deps.store).month(job.competencia).values()].filter((m) => m.run === job.id && m.failure).length : 0;
  // A finished refresh with failures says how many, so "atualizada" is never read as "all read".
  const message =
    finished && failed
      ? `${progress.message} ${plural(failed, 'empresa ficou', 'empresas ficaram')} sem números (falha na conexão ou leitura incompleta): veja a coluna Status.`
      : progress.message;
  return { ...progress, message, finished, failed };
}

/** What the sidebar shows: the last refresh's companies, and a refresh of the user's left halfway, to go on with. */
export function getCentral(): CentralSidebar {
  return sidebarOf(centralDeps());
}

/** One step of the refresh under the document's lock: a kill anywhere loses only the companies it was reading. */
function step(deps: CentralDeps): CentralStep {
  try {
    return withDocumentLock(() => {
      const r = stepCentral(deps, { deadline: Math.min(Date.now() + STEP_MS, executionLimit()), limit: executionLimit() });
      return stepOf(deps, r.progress, r.done);
    });
  } catch (err) {
    // The owner's hourly run (or a colleague's import) holds the document for minutes: the refresh waits, it does not stop.
    if (!(err instanceof BusyError)) throw err;
    return { done: 0, total: currentJob(deps)?.companies.length ?? 0, message: WAITING, finished: false, failed: 0, waiting: true };
  }
}

const WAITING =
  'Outra execução do complemento está gravando nesta planilha agora (a atualização de hora em hora, uma importação ou um lote): a Central continua sozinha assim que ela terminar…';

/** Starts a full refresh of the user's companies for the competência (last month when blank), and reads its first step. */
export function startCentralRefresh(form: { competencia: string; hourly?: boolean }): FormOutcome<CentralStep> {
  return formOutcome(() => {
    const deps = centralDeps();
    const typed = (form.competencia ?? '').trim() || lastMonth(todayOf(deps.zone, deps.now()));
    const parsed = parseCompetencia(typed);
    if (!parsed.ok) throw new UserError(`Competência "${form.competencia}": ${parsed.message}, por exemplo 10/2026.`, 'competencia');
    const companies = centralCompanies(true);
    if (companies.length === 0) throw new UserError('Nenhuma conexão sua: cadastre as empresas em Faturamento › Conexões e atualize a Central.');
    withDocumentLock(() => {
      const running = colleagueRefreshing(currentJob(deps), deps.user, deps.now());
      if (running) throw new UserError(`${running.owner.email || 'Outro editor'} está atualizando a Central agora: espere terminar e atualize de novo.`);
      startCentral(deps, { competencia: competenciaText(parsed.value), companies, onlyChanged: false });
      scheduleCentral(deps, competenciaText(parsed.value), form.hourly === true);
    });
    const warning = syncDispatcher({ strictAgenda: true });
    const first = step(deps);
    // The person sees the Central fill in as the steps go.
    const sheet = dashboardBookPort().tagged(SHEET_TAG, CENTRAL_TAG)[0]?.sheet;
    if (sheet) selectionBookPort().activate(sheet.id, ['A1']);
    return { ok: true as const, value: warning ? { ...first, warning } : first };
  });
}

/** The refresh's next step. */
export function continueCentralRefresh(): Outcome<CentralStep> {
  return outcome(() => {
    const deps = centralDeps();
    const job = currentJob(deps);
    if (!job) throw new UserError('Nenhuma atualização da Central em andamento: clique em Atualizar a Central.');
    // Another editor's refresh replaced this user's meanwhile: theirs going on, or finished, is not this one's.
    if (job.owner.id !== deps.user.id) {
      const who = job.owner.email || 'Outro editor';
      throw new UserError(
        job.finishedAt
          ? `${who} atualizou a Central depois que você começou, com as próprias conexões, e a sua atualização parou: clique em Atualizar a Central para ler as suas empresas.`
          : `${who} está atualizando a Central agora, com as próprias conexões, e a sua atualização parou: espere terminar e clique em Atualizar a Central.`,
      );
    }
    return step(deps);
  });
}

/**
 * The Central's sheet drawn again from what it keeps and the user's work index as it is now: after the sidebar ran a
 * company's reports or built its Fechamento, its row says so at once (its spreadsheets, last run, failures).
 */
export function redrawCentralSheet(): Outcome<CentralSidebar> {
  return outcome(() => {
    const deps = centralDeps();
    withDocumentLock(() => redrawCentral(deps));
    return sidebarOf(deps);
  });
}

/** "Marcar como conferida" (or its undoing): a signed record in the running user's name; the sheet is rewritten. */
export function markCompanyReviewed(connectionId: string, reviewed: boolean, seen?: string | null): Outcome<CentralSidebar> {
  return outcome(() => {
    ownConnection(connectionId);
    const deps = centralDeps();
    withDocumentLock(() => {
      // Read again since the sidebar showed them (the hourly run, a colleague's refresh): the review would sign figures nobody saw.
      const now = reviewed && seen !== undefined ? sidebarOf(deps).companies.find((c) => c.connectionId === connectionId) : undefined;
      if (now && now.seen !== seen)
        throw new UserError(
          `Os números de "${now.name}" foram lidos de novo depois que a barra lateral os mostrou: confira a linha da empresa na aba Central e marque de novo.`,
        );
      reviewCompany(deps, connectionId, reviewed === true);
    });
    return sidebarOf(deps);
  });
}

/** Pauses or resumes the company's schedules in every spreadsheet of the user; the hourly run reads it at its next hour. */
export function setCompanyPaused(connectionId: string, paused: boolean): Outcome<CentralSidebar> {
  return outcome(() => {
    ownConnection(connectionId);
    pauseSchedules(connectionId, paused === true);
    const deps = centralDeps();
    withDocumentLock(() => redrawCentral(deps));
    return sidebarOf(deps);
  });
}
