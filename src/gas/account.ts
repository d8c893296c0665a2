/**
 * Which kind of Google account the add-on runs under. Its daily quotas
 * depend on it (trigger time: 90 minutes a day on a consumer account, 6
 * hours on Workspace) and Apps Script has no call that says it, so the add-on
 * reads what the platform does tell, in this order:
 * - an address at gmail.com or googlemail.com is a consumer account;
 * - the publisher's setting, `conta` in addon.config.json (`workspace` or
 *   `pessoal`), for what the platform cannot tell: a listing private to a
 *   Workspace domain sets `workspace` (docs/deploy.md);
 * - MailApp's remaining daily quota above a consumer account's 100
 *   recipients: only a Workspace account has more (1,500);
 * - else a consumer account, the smaller figures: a consumer account may use
 *   an address of its own domain, and a new Workspace domain starts with the
 *   consumer account's e-mail quota.
 * Found at most once per quota day: the day's usage record keeps it.
 */
import { plural } from '../api/words';
import type { AccountKind, DailyUsage } from '../core/hourly/usage';
import { userEmail } from './services';

/** The build's setting (addon.config.json's `conta`), when the publisher gave one. */
declare const __ACCOUNT_KIND__: AccountKind | null | undefined;

/** A consumer account may send e-mail to this many recipients a day; a Workspace account to 1,500. */
const CONSUMER_MAIL_RECIPIENTS = 100;
const CONSUMER_DOMAINS = /@(gmail|googlemail)\.com$/i;

export interface Account {
  kind: AccountKind;
  /** How it was found, in the Diagnóstico's words. */
  how: string;
  /** False when nothing told it and the consumer figures were assumed. */
  known: boolean;
}

/** What tells the kind of account: the user's address, the build's setting, e-mail recipients left today (null: not asked or refused). */
export interface AccountFacts {
  email: string;
  setting: AccountKind | null;
  mailLeft: () => number | null;
}

/** The kind of account the facts tell, in the order of this file's comment. */
export function accountFrom(facts: AccountFacts): Account {
  if (CONSUMER_DOMAINS.test(facts.email)) return { kind: 'consumer', how: `endereço ${facts.email.replace(/^[^@]*/, '…')}`, known: true };
  if (facts.setting)
    return { kind: facts.setting, how: `configuração da publicação (conta: ${facts.setting === 'workspace' ? 'workspace' : 'pessoal'})`, known: true };
  const left = facts.mailLeft();
  if (left !== null && left > CONSUMER_MAIL_RECIPIENTS) {
    return {
      kind: 'workspace',
      how: `cota de e-mail de hoje com ${plural(left, 'destinatário', 'destinatários')} (uma conta pessoal tem ${CONSUMER_MAIL_RECIPIENTS})`,
      known: true,
    };
  }
  return {
    kind: 'consumer',
    how: 'nada o diz (endereço fora do gmail.com, publicação sem a configuração, cota de e-mail de conta pessoal)',
    known: false,
  };
}

function mailRecipientsLeft(): number | null {
  try {
    return MailApp.getRemainingDailyQuota();
  } catch {
    // Not granted (yet): it tells nothing.
    return null;
  }
}

/** What the platform and the build's setting tell now. */
export function findAccount(): Account {
  const setting = typeof __ACCOUNT_KIND__ === 'undefined' ? null : __ACCOUNT_KIND__;
  return accountFrom({ email: userEmail(), setting, mailLeft: mailRecipientsLeft });
}

let found: AccountKind | undefined;

/** The kind of account this quota day: the one the day's usage record kept, else found now (once per execution). */
export function accountKind(usage: DailyUsage): AccountKind {
  found ??= usage.account ?? findAccount().kind;
  return found;
}
