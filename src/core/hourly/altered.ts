/**
 * Stored work that names the running user as its owner but is not as they
 * saved it (seal.ts): someone changed it in the hidden sheet, or put back an
 * older copy. It is never run, and never deleted: the owner is told, once per
 * alteration, in Histórico (written by their own execution) and by e-mail,
 * with what to do. Only the owner can put it right: whatever anyone else saves
 * is signed as theirs, not the owner's.
 */
import type { BulkJob } from '../bulk/state';
import type { Dashboard } from '../dashboards/store';
import { appendHistory } from '../reports/history';
import type { Owner, OwnershipCheck } from '../trust/owners';
import type { PullJob } from '../runs/deps';
import type { Report } from '../reports/reports';
import type { BookPort } from '../sheets/sheet-port';

/** What is said of an altered item, to its owner. */
export interface Altered {
  /** The item's key in the work store. */
  key: string;
  /** The item in words ("O relatório "Faturas""). */
  what: string;
  /** The name Histórico files the line under. */
  name: string;
  /** What the owner does about it. */
  fix: string;
  /** The item as read: a new alteration of the same item is told again, the same one never twice. */
  text: string;
}

export const ALTERED_WHY = 'foi alterado fora do complemento (alguém editou a aba oculta "Faturamento · dados") e não é executado';

export const FIX = {
  report: 'Só você pode corrigi-lo: em Relatórios, confira os filtros e a aba e clique em "Assumir" para salvá-lo de novo, ou exclua-o.',
  pull: 'Só você pode corrigi-la: em Relatórios, clique em "Atualizar" para recomeçá-la do início (o relatório em si está intacto).',
  bulk: 'Só você pode corrigi-lo: em Lançamentos em lote, clique em "Cancelar" nesse lote, confira a aba e execute de novo.',
  dashboard: 'Só você pode corrigi-lo: em Painéis, exclua-o e crie-o de novo.',
  snapshot: 'Só você pode corrigi-la: atualize o relatório da aba em Relatórios para refazê-la antes de enviar alterações.',
} as const;

/** Everything the work store holds for the owner's look, read once. */
export interface StoredItems {
  reports: Report[];
  pulls: PullJob[];
  bulk: BulkJob[];
  dashboards?: Dashboard[];
  /** The heads of the edit snapshots (who pulled, with which connection), by key. */
  snapshots?: Array<{ key: string; head: { owner?: Owner } }>;
}

/** The running user's items that are not as they saved them. */
export function alteredItems(items: StoredItems, check: OwnershipCheck): Altered[] {
  const out: Altered[] = [];
  const add = (key: string, item: object, what: string, name: string, fix: string) => out.push({ key, what, name, fix, text: JSON.stringify(item) });
  const reports = new Map(items.reports.map((r) => [r.id, r]));
  for (const r of items.reports) if (check.altered(r)) add(`faturamento.relatorio.${r.id}`, r, `O relatório "${r.name}"`, r.name, FIX.report);
  for (const j of items.pulls) {
    const r = reports.get(j.reportId);
    if (r && r.owner?.id === check.me && j.state.status === 'running' && !check.sealed(j))
      add(`faturamento.job.${j.reportId}`, j, `A atualização em andamento do relatório "${r.name}"`, r.name, FIX.pull);
  }
  for (const j of items.bulk)
    if ((j.status === 'running' || j.status === 'failed') && check.altered(j))
      add(`faturamento.lote.${j.id}`, j, `O lote da aba "${j.sheetName}"`, `Lote · ${j.sheetName}`, FIX.bulk);
  for (const d of items.dashboards ?? []) if (check.altered(d)) add(`faturamento.painel.${d.id}`, d, `O painel "${d.sheetName}"`, d.sheetName, FIX.dashboard);
  for (const s of items.snapshots ?? [])
    if (check.altered(s.head)) add(s.key, s.head, 'A base de comparação de "Enviar alterações"', 'Enviar alterações', FIX.snapshot);
  return out;
}

export interface TellDeps {
  book: BookPort;
  now: () => number;
  /** Whether this alteration is new, remembering it: each is told once. */
  firstTime: (a: Altered) => boolean;
  /** E-mails the owner (a scheduled run's notice: nobody is watching a sidebar). */
  mail?: (subject: string, body: string) => void;
  /** The owner's e-mail, for Histórico's Quem: the line is theirs, whoever altered the item. */
  who?: string;
}

/** Tells the owner of each new alteration: a Histórico line, and an e-mail when `mail` is given. */
export function tellAltered(deps: TellDeps, altered: readonly Altered[]): number {
  let told = 0;
  for (const a of altered) {
    if (!deps.firstTime(a)) continue;
    const message = `${a.what} ${ALTERED_WHY}. ${a.fix}`;
    const at = deps.now();
    appendHistory(deps.book, a.name, { startedAt: at, finishedAt: at, origin: 'agendado', rows: 0, durationMs: 0, result: 'erro', message }, deps.who);
    deps.mail?.(`${a.what} foi alterado por outra pessoa`, message);
    told++;
  }
  return told;
}
