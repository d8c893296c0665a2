/**
 * The time-driven trigger and its upkeep. Editor add-ons get one time-driven
 * trigger per user per document, at most hourly. Each editor's trigger runs
 * as that editor and does only that editor's work: the scheduled reports and
 * unfinished runs they own and vouched for (see core/trust/owners.ts). With the
 * document as its active spreadsheet it serves that document; without one it
 * opens by id only the documents the owner's agenda (core/hourly/agenda.ts) says have
 * something due, so an hour with nothing due opens nothing. It exists exactly
 * while its owner has a schedule or an unfinished run in the document.
 */
import { UserError } from '../api/user-error';
import { type Agenda, AgendaStore, dueDocuments } from '../core/hourly/agenda';
import { bulkJobStore } from '../core/bulk/stored-job';
import { dispatch, nextDueAt, ownWork, type StoredWork, storedWork, wantsDispatcher } from '../core/hourly/dispatch';
import { keepTriggers, retire } from './triggers';
import type { Identity, OwnerStore } from '../core/trust/owners';
import { heldWrites, type KeyValueStore, readOnce, type Writes, writeAll } from '../core/ports';
import type { SignedStore } from '../core/trust/seal';
import { redact } from '../core/trust/redact';
import { pullJobStore } from '../core/runs/deps';
import { bulkDeps, reportStore, runDeps } from './deps';
import { BusyError, OwnerBusyError, withDocumentLock, withUserLock } from './lock';
import {
  connectionStore,
  currentUser,
  documentId,
  documentStore,
  documentView,
  openDocument,
  ownerStore,
  spreadsheetTimeZone,
  userEmail,
  userStore,
} from './services';
import { workStore } from './work-store';
import { REPORT_PREFIX } from '../core/reports/reports';
import { gasZone } from './zone';
import { quotaStop, triggerBudgetMs } from '../core/hourly/usage';
import { recordUsage, usageStore } from './usage';
import { firedAt, hourlyRunSeen, idleRunSeen } from './run-seen';
import { accountKind } from './account';
import { tellReauthorization } from './reauthorize-notice';
import { tellAlteredWork } from './altered-notice';
import { documentWork, WorkIndexStore } from '../core/hourly/work-index';
import { pausedCompanies } from '../core/hourly/paused';
import { askedIn, askRuns, served } from '../core/hourly/asked-runs';
import { CentralScheduleStore, centralNextAt } from '../core/central/schedule';
import { centralPhase } from './central-phase';
import { quietRecord } from '../core/hourly/quiet-check';
import { settleQuietly } from './quiet-check';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** The dispatcher stops well before the 6-minute kill. */
const DISPATCH_MS = 4.5 * 60_000;
/**
 * How long the hourly run waits for a document's lock (a colleague's sidebar
 * step holds it a few seconds). The owner's user lock it never waits for: the
 * execution holding it is the owner's, and serves what is due (runOwnDocuments).
 */
const DOCUMENT_WAIT_MS = 5_000;
/** Less trigger time than this left today: not worth starting (one wave at its worst, and the writes). */
const MIN_RUN_MS = 2 * 60_000;

/** What Relatórios shows while the owner's authorization is needed again. */
export const REAUTHORIZE =
  'As atualizações agendadas e os lotes inacabados estão parados: o complemento precisa da sua autorização de novo (as permissões dele mudaram). Abra Extensões › Faturamento › Relatórios nesta planilha e aceite as permissões pedidas; até lá nada é atualizado nem enviado.';

/** Every change to the agenda is made under the owner's user lock: their sidebars and overlapping runs write it too. */
const agenda = (user: KeyValueStore = userStore()): AgendaStore => new AgendaStore(user, withUserLock);
/** The hourly run's: it never waits for the owner's lock (runOwnDocuments says why). */
const runAgenda = (): AgendaStore => new AgendaStore(userStore(), (change) => withUserLock(change, 0));

/** Reports and both kinds of jobs, from one read of the document's work store. */
export function readWork(doc: SignedStore): StoredWork {
  const work = storedWork(reportStore(doc), pullJobStore(doc), bulkJobStore(doc));
  const central = new CentralScheduleStore(doc);
  const schedule = central.get();
  return schedule ? { ...work, central: { owner: schedule.owner.id, next: centralNextAt(schedule, central.job()), schedule } } : work;
}

/**
 * Creates or deletes the running user's trigger for the document to match
 * the work they own there. Creation only happens from a person's action: a
 * trigger created inside a trigger run can end up disabled. Stale triggers of
 * the add-on (old handler names, duplicates) go first, so none blocks the new
 * one. Never throws: the action that called it has already succeeded, so a
 * problem here is a warning saying what to do.
 */
export function syncDispatcher(
  options: { mayCreate?: boolean; doc?: SignedStore; ss?: Spreadsheet; strictAgenda?: boolean; oncePerRun?: boolean } = {},
): string | undefined {
  try {
    const ss = options.ss ?? SpreadsheetApp.getActiveSpreadsheet();
    const owners = ownerStore();
    const me = currentUser(owners);
    const work = ownWork(readWork(options.doc ?? documentView(ss)), owners.checker(me, documentId(ss)));
    const wanted = wantsDispatcher(work);
    const id = documentId(ss);
    // The hourly run's visit holds the owner's lock: the agenda's entry and the index's go out in one write.
    const held = options.oncePerRun ? { agenda: heldWrites(userStore()), index: heldWrites(userStore()) } : null;
    let agendaNow: Agenda;
    try {
      const zone = gasZone(spreadsheetTimeZone(ss));
      agendaNow = agenda(held?.agenda.view).set(id, nextDueAt(work, zone), quietRecord(work, Date.now(), zone));
    } catch (err) {
      // A schedule the agenda cannot hold would never run: the caller refuses it.
      if (options.strictAgenda && err instanceof UserError) throw new AgendaRefusal(err.message);
      throw err;
    }
    // The Central's index of the owner's work is written at the same moments, from the same read.
    let indexWarning = indexDocument(ss, work, held?.index.view);
    if (held) indexWarning = writeTogether(held.agenda.take(), held.index.take()) ?? indexWarning;
    keepTriggers(ss, { wanted, agenda: agendaNow, id, mayCreate: options.mayCreate !== false, oncePerRun: options.oncePerRun === true });
    return indexWarning;
  } catch (err) {
    if (err instanceof AgendaRefusal) throw new UserError(err.message);
    const detail = redact(String((err as Error)?.message ?? err), connectionStore().secrets()).slice(0, 200);
    return `Feito, mas a execução automática de hora em hora não pôde ser ajustada (${detail}). Os agendamentos e lotes inacabados só andam com ela: feche e abra a barra lateral e repita a ação; se o aviso voltar, remova os acionadores antigos do complemento em Extensões › Apps Script › Acionadores.`;
  }
}

/**
 * Writes the document's entry of the owner's work index (core/hourly/work-index.ts). The action that called
 * it has succeeded: a failure here is a warning, and an index full enough to drop detail says so too.
 */
function indexDocument(ss: Spreadsheet, work: StoredWork, user: KeyValueStore = userStore()): string | undefined {
  try {
    const entry = documentWork(work.reports, {
      name: ss.getName(),
      now: Date.now(),
      zone: gasZone(spreadsheetTimeZone(ss)),
      connections: connectionStore().list(),
    });
    const kept = new WorkIndexStore(user, withUserLock).set(documentId(ss), entry);
    if (kept === 'saved' || kept === 'removed') return undefined;
    return kept === 'trimmed'
      ? 'Feito. A Central do escritório guarda desta planilha só as datas e contagens (sem os nomes dos relatórios): o espaço do seu usuário para ela está cheio.'
      : 'Feito, mas a Central do escritório não mostra esta planilha: o espaço do seu usuário para ela está cheio.';
  } catch (err) {
    return indexRefused(err);
  }
}

function indexRefused(err: unknown): string {
  const detail = redact(String((err as Error)?.message ?? err), connectionStore().secrets()).slice(0, 200);
  return `Feito, mas a Central do escritório não pôde registrar esta planilha (${detail}); ela aparece lá depois da próxima ação ou atualização agendada.`;
}

/** The agenda's writes and the index's in one call; refused together (the store near full), each alone, as when apart. */
function writeTogether(agendaWrites: Writes, indexWrites: Writes): string | undefined {
  try {
    writeAll(userStore(), agendaWrites, indexWrites);
    return undefined;
  } catch {
    writeAll(userStore(), agendaWrites);
    try {
      writeAll(userStore(), indexWrites);
      return undefined;
    } catch (err) {
      return indexRefused(err);
    }
  }
}

/** The agenda could not take the document, for a caller that must refuse rather than warn. */
class AgendaRefusal extends Error {
  override name = 'AgendaRefusal';
}

/** A save refused because the item changed since the run read it: the run leaves this document to the next hour. */
class ChangedMeanwhile extends Error {
  override name = 'ChangedMeanwhile';
}

/** The owner a stored item names (`owner.id`), if any. */
function ownerOf(raw: string): string | undefined {
  try {
    return (JSON.parse(raw) as { owner?: { id?: string } } | null)?.owner?.id;
  } catch {
    return undefined;
  }
}

/**
 * The run read the stored work once, and saves items minutes later, in a
 * document opened by id whose lock it cannot take. So each save re-reads the
 * item first: one a colleague deleted meanwhile is not brought back, and one
 * taken over (Assumir) keeps its new owner. Under the signatures: a refused
 * save leaves the owner's signature of the item as it was.
 */
function rereadBeforeSave(doc: KeyValueStore, current: (key: string) => string | null): KeyValueStore {
  const read = new Set(doc.keys());
  return {
    ...doc,
    delete(key) {
      read.delete(key);
      doc.delete(key);
    },
    set(key, value) {
      const now = current(key);
      if (now === null ? read.has(key) : ownerOf(now) !== ownerOf(value)) throw new ChangedMeanwhile(key);
      read.add(key);
      doc.set(key, value);
    },
  };
}

/** This user's work in one document: what is theirs, continued or started until the deadline. */
function runDocument(ss: Spreadsheet, active: boolean, owners: OwnerStore, me: Identity, deadline: number): void {
  withDocumentLock(
    () => {
      const sheet = workStore(ss);
      const read = readOnce(sheet);
      // The rows as they are now, for the saves and for the checks before a refresh: one row read per key.
      const current = active ? null : (key: string) => sheet.current(key);
      const doc = documentStore(ss, current ? rereadBeforeSave(read, current) : read);
      const zone = gasZone(spreadsheetTimeZone(ss));
      const check = owners.checker(me, documentId(ss));
      const work = readWork(doc);
      owners.forgetMissing(documentId(ss), new Set(doc.keys()));
      tellAlteredWork(ss, doc, work, owners, me, check);
      const runs = runDeps(doc, zone, ss);
      if (current) {
        runs.stillStored = (r) => {
          const now = current(`${REPORT_PREFIX}${r.id}`);
          return now !== null && ownerOf(now) === r.owner?.id;
        };
      }
      const own = ownWork(work, check);
      // The Central's code is loaded only in a run where its refresh is due.
      const central = own.central && own.central.next <= Date.now() ? { central: centralPhase(ss, doc) } : {};
      // What a person asked from the Central to run here now; served only once its runs were started.
      const asked = askedIn(userStore(), documentId(ss));
      try {
        // The companies the owner paused in the Central, read at each run: a resume counts from the next hour.
        dispatch({ runs, bulk: bulkDeps(doc, zone, ss), ...central }, own, deadline, { paused: pausedCompanies(userStore()), asked });
        if (asked.size) withUserLock(() => served(userStore(), documentId(ss), asked), 0);
      } catch (err) {
        if (!(err instanceof ChangedMeanwhile)) throw err;
        // Someone changed what this run was saving: the next hour starts from what is stored now.
        agenda().set(documentId(ss), Date.now());
        return;
      }
      // Nothing left to do here: the trigger goes away (the next schedule or run creates it again). The agenda follows.
      syncDispatcher({ mayCreate: false, doc, ss, oncePerRun: true });
    },
    DOCUMENT_WAIT_MS,
    active,
    0,
  );
}

/** Whether Google asks the owner to authorize the add-on again (a scope changed): then the run must do nothing. */
function needsAuthorization(): boolean {
  return ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL).getAuthorizationStatus() === ScriptApp.AuthorizationStatus.REQUIRED;
}

/**
 * The hourly run, as the trigger's owner: the active document when Google
 * gives one, else every document whose work is due, under their user lock
 * (and the document's lock when the document is open), until the deadline.
 */
export function runScheduledReports(e?: GoogleAppsScript.Events.TimeDriven): void {
  const fired = firedAt(e);
  if (needsAuthorization()) {
    // Nothing is read, pulled or sent until the owner authorizes again; Relatórios says so, and an e-mail a day at most.
    recordUsage({ trigger: true, firedAt: fired, stopped: REAUTHORIZE, alongside: tellReauthorization() });
    return;
  }
  const usage = usageStore().get();
  const account = accountKind(usage);
  const stop = quotaStop(usage, MIN_RUN_MS, Date.now(), account);
  if (stop) {
    // Before a daily quota is gone, scheduled work waits for tomorrow and says so in Relatórios.
    recordUsage({ trigger: true, firedAt: fired, stopped: stop, account });
    return;
  }
  const deadline = Date.now() + Math.min(DISPATCH_MS, triggerBudgetMs(usage, account));
  const active = SpreadsheetApp.getActiveSpreadsheet();
  let idle = false;
  try {
    idle = runOwnDocuments(deadline, active, e?.triggerUid) === 0;
  } finally {
    // What the run saw goes with its usage (and, for a run with nothing due, what it took for the Diagnóstico): one property write.
    recordUsage({ trigger: true, firedAt: fired, account, alongside: { ...hourlyRunSeen(active !== null), ...(idle ? idleRunSeen(fired) : {}) } });
  }
}

/**
 * The documents to visit: those the agenda says are due, the active one (its
 * own trigger fired) first. Any of the owner's runs serves the others too: a
 * user has at most 20 triggers per script, so documents past the twentieth
 * have none of their own and are served by whichever run has time left. An
 * owner whose agenda was never kept (an earlier version) has every document of
 * their ledger visited once, which writes it.
 */
function documentsToVisit(owners: OwnerStore, active: Spreadsheet | null, known: Agenda | null): string[] {
  if (!active) return known ? dueDocuments(known, Date.now()) : owners.documents();
  const id = documentId(active);
  const entry = known?.[id];
  // Its own trigger fired with nothing due in it: nothing of it is read.
  const own = entry && entry.at > Date.now() ? [] : [id];
  return [...own, ...(known ? dueDocuments(known, Date.now()).filter((d) => d !== id) : [])];
}

/**
 * A document that could not be opened. A passing failure leaves it due for the
 * next run; one that says the document is gone or no longer shared, seen again
 * a day later, takes it off the agenda, and its owner is told once.
 */
function unreachable(id: string, err: unknown): void {
  if (!runAgenda().unreachable(id, String((err as Error)?.message ?? err), Date.now())) return;
  const to = userEmail();
  if (!to) return;
  const link = `https://docs.google.com/spreadsheets/d/${id}/edit`;
  MailApp.sendEmail(
    to,
    `Planilha fora do alcance das atualizações agendadas (${id})`,
    `A execução automática do complemento Faturamento não consegue abrir a planilha abaixo há mais de um dia: o Google diz que ela foi excluída ou que não está mais compartilhada com você.\n\n${link}\n\nOs agendamentos e lotes inacabados dela pararam e ela saiu da sua agenda de atualizações. Se voltar a ter acesso, abra a planilha, vá a Extensões › Faturamento › Relatórios e salve o agendamento de novo.`,
  );
}

/** What became of a visit: the owner's lock was held by another of their executions, which serves what is due. */
type Visit = 'done' | 'owner-busy';

/** Opens the document (by id unless it is the active one) and runs this user's work there; a failure to run is `failure`'s. */
function visit(
  id: string,
  active: Spreadsheet | null,
  known: Agenda | null,
  owners: OwnerStore,
  me: Identity,
  deadline: number,
  failure: { err?: unknown },
): Visit {
  const isActive = active !== null && documentId(active) === id;
  try {
    let ss: Spreadsheet;
    try {
      ss = isActive ? active : openDocument(id);
    } catch (err) {
      unreachable(id, err);
      return 'done';
    }
    // Opened: what was seen out of reach before was passing.
    if (known?.[id]?.lost !== undefined) runAgenda().reached(id);
    runDocument(ss, isActive, owners, me, deadline);
  } catch (err) {
    if (err instanceof OwnerBusyError) return 'owner-busy';
    // Busy: someone is working in the document, and whatever is due stays due for the next run.
    // Anything else fails the execution, but only after the other documents had their turn.
    if (!(err instanceof BusyError)) failure.err ??= err;
  }
  return 'done';
}

/** The document settled from the owner's agenda without opening it (gas/quiet-check.ts), or undefined: it must be visited. */
function quietly(id: string, known: Agenda | null, deadline: number): Visit | undefined {
  try {
    return settleQuietly(id, known?.[id], runAgenda(), deadline) ? 'done' : undefined;
  } catch (err) {
    if (err instanceof OwnerBusyError) return 'owner-busy';
    // Whatever kept it from being settled so, the usual visit meets and reports.
    return undefined;
  }
}

/**
 * Serves the due documents; returns how many were due. An execution that
 * finds the owner's user lock held leaves at once: the holder is another of
 * the owner's executions, and before it ends it reads the agenda again and
 * serves whatever is due that it has not visited. If the holder is killed,
 * nothing is lost: a document's entry changes only once it was served, so
 * what it did not finish stays due for the next run.
 */
function runOwnDocuments(deadline: number, active: Spreadsheet | null, trigger: string | undefined): number {
  const owners = ownerStore();
  let known = agenda().read();
  // The owner has no work left anywhere: a trigger kept to serve other documents goes (the next schedule creates one).
  if (known && Object.keys(known).length === 0 && trigger) retire(trigger);
  let visits = documentsToVisit(owners, active, known);
  // Who the owner is is asked only when something is due: an hour with nothing due reads their agenda and usage only.
  if (visits.length === 0) return 0;
  const me = currentUser(owners);
  const failure: { err?: unknown } = {};
  const visited = new Set<string>();
  let due = 0;
  let ownerBusy = false;
  while (visits.length > 0 && !ownerBusy && Date.now() < deadline) {
    due += visits.length;
    for (const id of visits) {
      if (Date.now() >= deadline) break;
      visited.add(id);
      // A document the trigger already has open costs no opening: its hour's check is made in it, as always.
      const settled = active !== null && documentId(active) === id ? undefined : quietly(id, known, deadline);
      ownerBusy = (settled ?? visit(id, active, known, owners, me, deadline, failure)) === 'owner-busy';
      if (ownerBusy) break;
    }
    if (ownerBusy) break;
    // What fell due meanwhile, or what an overlapping run of the owner left to this one.
    known = agenda().read();
    visits = known ? dueDocuments(known, Date.now()).filter((id) => !visited.has(id)) : [];
  }
  if (failure.err !== undefined) throw new Error(redact(String((failure.err as Error)?.message ?? failure.err), connectionStore().secrets()));
  return due;
}

/**
 * "Atualizar relatórios agora" in the Central, for a company's reports in the owner's other spreadsheets: the request
 * kept (the next hourly run serves whatever this call cannot), each spreadsheet made due at once, then as many of them
 * visited now as the time allows. Returns the spreadsheets served now.
 */
export function runAskedNow(documents: readonly string[], connectionId: string, deadline: number): string[] {
  if (documents.length === 0) return [];
  withUserLock(() => askRuns(userStore(), documents, connectionId));
  for (const id of documents) agenda().set(id, Date.now());
  const owners = ownerStore();
  const me = currentUser(owners);
  const known = agenda().read();
  const done: string[] = [];
  for (const id of documents) {
    if (Date.now() >= deadline) break;
    const failure: { err?: unknown } = {};
    if (visit(id, null, known, owners, me, deadline, failure) === 'owner-busy') break;
    if (failure.err === undefined && !askedIn(userStore(), id).has(connectionId)) done.push(id);
  }
  return done;
}
