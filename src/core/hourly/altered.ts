/**
 * Stored work that names the running user as its owner but is not as they
 * saved it (seal.ts): someone changed it in the hidden sheet, or put back an
 * older copy. It is never run, and never deleted: the owner is told, once per
 * alteration, in Histórico (written by their own execution) and by e-mail (at
 * most one a day per item), with what to do. Only the owner can put it right:
 * whatever anyone else saves is signed as theirs, not the owner's.
 *
 * So is work still in the owner's name (they saved it last, or their old
 * ledger vouched for it) that their run cannot take as theirs any more: a row
 * no longer readable, or one whose owner field was removed or now names
 * someone else. Nothing else would tell them: their schedule just stops.
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
  /** The item is said in the feminine ("a atualização", "a base"): what is said of it agrees. */
  she?: boolean;
  /** What happened to it, when not an alteration of an item still in the owner's name. */
  why?: string;
  /** The e-mail's subject, when not an alteration's. */
  subject?: string;
  /** The item now names someone else: told once, then no longer the owner's to be told of. */
  letGo?: boolean;
}

export const ALTERED_WHY = 'foi alterado fora do complemento (alguém editou a aba oculta "Faturamento · dados") e não é executado';

/** The ending that agrees with the item: "alterado", "alterada". */
const ending = (she: boolean | undefined) => (she ? 'a' : 'o');

/** ALTERED_WHY, agreeing with the item. */
const alteredWhy = (she: boolean | undefined) => (she ? ALTERED_WHY.replace('alterado', 'alterada').replace(/executado$/, 'executada') : ALTERED_WHY);

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

/** Why an unfinished pull the owner never saved (they signed none of its values) is not continued. */
export const NOT_CONTINUED = 'não foi salva por você nesta versão do complemento (vem de uma versão anterior, ou de outra pessoa) e não é continuada';
export const RESTARTS = 'Ela recomeça do início na próxima execução agendada do relatório, que está intacto.';

/**
 * The running user's items that are not as they saved them. An unfinished pull of theirs they never signed (`signed`:
 * the keys they saved last) is not an alteration: the previous version signed no pull. It is not continued either,
 * since nothing says it is theirs, and its report starts over.
 */
export function alteredItems(items: StoredItems, check: OwnershipCheck, signed?: ReadonlySet<string>): Altered[] {
  const out: Altered[] = [];
  const add = (key: string, item: object, what: string, name: string, fix: string, she = false) =>
    out.push({ key, what, name, fix, text: JSON.stringify(item), ...(she ? { she } : {}) });
  const reports = new Map(items.reports.map((r) => [r.id, r]));
  for (const r of items.reports) if (check.altered(r)) add(`faturamento.relatorio.${r.id}`, r, `O relatório "${r.name}"`, r.name, FIX.report);
  for (const j of items.pulls) {
    const r = reports.get(j.reportId);
    if (!r || r.owner?.id !== check.me || j.state.status !== 'running' || check.sealed(j)) continue;
    const key = `faturamento.job.${j.reportId}`;
    const what = `A atualização em andamento do relatório "${r.name}"`;
    if (!signed || signed.has(key)) add(key, j, what, r.name, FIX.pull, true);
    else
      out.push({
        key,
        what,
        name: r.name,
        text: JSON.stringify(j),
        she: true,
        why: NOT_CONTINUED,
        fix: r.schedule ? RESTARTS : FIX.pull,
        subject: `${what} não é continuada`,
      });
  }
  for (const j of items.bulk)
    if ((j.status === 'running' || j.status === 'failed') && check.altered(j))
      add(`faturamento.lote.${j.id}`, j, `O lote da aba "${j.sheetName}"`, `Lote · ${j.sheetName}`, FIX.bulk);
  for (const d of items.dashboards ?? []) if (check.altered(d)) add(`faturamento.painel.${d.id}`, d, `O painel "${d.sheetName}"`, d.sheetName, FIX.dashboard);
  for (const s of items.snapshots ?? [])
    if (check.altered(s.head)) add(s.key, s.head, 'A base de comparação de "Enviar alterações"', 'Enviar alterações', FIX.snapshot, true);
  return out;
}

type Item = { owner?: Owner; name?: unknown; sheetName?: unknown };

/** A text of the item, if it has one. */
const text = (item: Item | undefined, field: 'name' | 'sheetName') => (typeof item?.[field] === 'string' ? (item[field] as string) : undefined);

/**
 * The kinds of stored work by the prefix of their keys, with the name Histórico files one under: the item's own when
 * it can be read, else the sheet tagged for it (`tag` + id), else its code.
 */
const KINDS = [
  { prefix: 'faturamento.relatorio.', kind: 'report', the: 'O relatório', she: false, field: 'name', of: '', tag: 'relatorio:' },
  { prefix: 'faturamento.job.', kind: 'pull', the: 'A atualização em andamento do relatório', she: true, field: 'name', of: '', tag: 'relatorio:' },
  { prefix: 'faturamento.lote.', kind: 'bulk', the: 'O lote', she: false, field: 'sheetName', of: 'da aba ', tag: '' },
  { prefix: 'faturamento.painel.', kind: 'dashboard', the: 'O painel', she: false, field: 'sheetName', of: '', tag: 'painel:' },
  { prefix: 'faturamento.edicao.', kind: 'snapshot', the: 'A base de comparação de "Enviar alterações"', she: true, field: 'name', of: '', tag: '' },
] as const;

type Kind = (typeof KINDS)[number]['kind'];

/** What the owner does about an item of theirs that can no longer be read. */
export const REDO: Record<Kind, string> = {
  report: 'Só você pode refazê-lo: em Importar dados, crie-o de novo (numa aba nova) e agende-o outra vez.',
  pull: FIX.pull,
  bulk: 'Só você pode retomá-lo: em Lançamentos em lote, execute de novo a aba desse lote (as linhas com Status OK não são enviadas outra vez).',
  dashboard: 'Só você pode refazê-lo: em Painéis, crie-o de novo.',
  snapshot: FIX.snapshot,
};

/** Why an item in the owner's name that no longer reads is not run. */
export const unreadableWhy = (she: boolean): string => {
  const o = ending(she);
  return `não pode mais ser lid${o}: a linha del${she ? 'a' : 'e'} na aba oculta "Faturamento · dados" foi alterada fora do complemento, e el${she ? 'a' : 'e'} não é executad${o}`;
};

/** Why an item in the owner's name that now names `email` is no longer run by them. */
export const notTheirsWhy = (email: string | undefined): string =>
  `não está mais em seu nome: consta agora como de ${email || 'outro editor'}, e a sua execução automática não o executa mais`;

/** What the run sees of the document beside the items read. */
export interface Look {
  /** The name of the sheet holding a tag (`relatorio:<id>`, `painel:<id>`), if any. */
  place(tag: string): string | undefined;
  /** The stored text under a key (a new alteration of an unreadable item is told again). */
  raw(key: string): string | null;
}

/**
 * Items in the running user's name (`mine`: the keys they saved last or their old ledger vouched for) that their run
 * cannot take as theirs: not readable any more, or naming no owner or someone else. An item read as theirs is left
 * to alteredItems.
 */
export function lostItems(items: StoredItems, mine: readonly string[], me: string, look: Look): Altered[] {
  const read = new Map<string, Item>([
    ...items.reports.map((r) => [`faturamento.relatorio.${r.id}`, r] as const),
    ...items.pulls.map((j) => [`faturamento.job.${j.reportId}`, {}] as const),
    ...items.bulk.map((j) => [`faturamento.lote.${j.id}`, j] as const),
    ...(items.dashboards ?? []).map((d) => [`faturamento.painel.${d.id}`, d] as const),
    ...(items.snapshots ?? []).map((s) => [s.key, s.head] as const),
  ]);
  const out: Altered[] = [];
  for (const key of mine) {
    const k = KINDS.find((x) => key.startsWith(x.prefix));
    if (!k || key.includes('#')) continue;
    const item = read.get(key);
    const owner = item?.owner;
    // A pull names no owner and a snapshot goes to whoever pulls its report next: each follows its report, told of on its own.
    const follows = k.kind === 'pull' || (k.kind === 'snapshot' && typeof owner?.id === 'string');
    if (item && (follows || owner?.id === me)) continue;
    const id = key.slice(k.prefix.length);
    const own = text(item, k.field);
    const sheet = k.tag ? look.place(k.tag + id) : undefined;
    const snapshot = k.kind === 'snapshot';
    const name = snapshot ? 'Enviar alterações' : (own ?? sheet ?? id);
    const what = snapshot ? k.the : `${k.the} ${own ? `${k.of}"${own}"` : sheet ? `da aba "${sheet}"` : `de código "${id}"`}`;
    const base = { key, what, name, text: item ? JSON.stringify(item) : `${look.raw(key)}`, ...(k.she ? { she: true } : {}) };
    if (!item)
      out.push({
        ...base,
        why: unreadableWhy(k.she),
        fix: REDO[k.kind],
        subject: `${what} foi alterad${ending(k.she)} e não pode mais ser lid${ending(k.she)}`,
      });
    else if (typeof owner?.id !== 'string') out.push({ ...base, fix: FIX[k.kind as Exclude<Kind, 'pull'>] });
    else {
      const fix = `Se foi um colega que clicou em "Assumir", não há nada a fazer; se não, ${FIX[k.kind as Exclude<Kind, 'pull'>].replace(/^Só você pode corrigi-l[oa]: /, '')}`;
      out.push({ ...base, why: notTheirsWhy(owner.email), fix, subject: `${what} não está mais em seu nome`, letGo: true });
    }
  }
  return out;
}

export interface TellDeps {
  book: BookPort;
  now: () => number;
  /** Whether this alteration is new, remembering it: each is told once. */
  firstTime: (a: Altered) => boolean;
  /** E-mails the owner (a scheduled run's notice: nobody is watching a sidebar). */
  mail?: (subject: string, body: string) => void;
  /** Whether the owner may be e-mailed about this item now, remembering it: at most once a day per item. */
  mayMail?: (a: Altered) => boolean;
  /** The owner's e-mail, for Histórico's Quem: the line is theirs, whoever altered the item. */
  who?: string;
}

/** Tells the owner of each new alteration: a Histórico line, and an e-mail when `mail` is given. */
export function tellAltered(deps: TellDeps, altered: readonly Altered[]): number {
  let told = 0;
  for (const a of altered) {
    if (!deps.firstTime(a)) continue;
    const message = `${a.what} ${a.why ?? alteredWhy(a.she)}. ${a.fix}`;
    const at = deps.now();
    appendHistory(deps.book, a.name, { startedAt: at, finishedAt: at, origin: 'agendado', rows: 0, durationMs: 0, result: 'erro', message }, deps.who);
    if (deps.mail && (deps.mayMail?.(a) ?? true)) deps.mail(a.subject ?? `${a.what} foi alterad${ending(a.she)} por outra pessoa`, message);
    told++;
  }
  return told;
}
