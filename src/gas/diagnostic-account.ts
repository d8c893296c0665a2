/**
 * The Diagnóstico's rows on the account's daily quotas: which kind of Google
 * account this is and how the add-on knows it (account.ts), the figures it
 * plans with, and what today used of them.
 */
import { plural } from '../api/words';
import { QUOTAS } from '../core/hourly/usage';
import { findAccount } from './account';
import { attempt, type Row } from './diagnostic-row';
import { usageStore } from './usage';

/** Property reads and writes a day, by kind of account (developers.google.com/apps-script/guides/services/quotas). */
const PROPERTY_OPS = { consumer: 50_000, workspace: 500_000 };

const n = (x: number) => x.toLocaleString('pt-BR');

export function accountRows(): Row[] {
  const account = findAccount();
  const quota = QUOTAS[account.kind];
  const name = account.kind === 'workspace' ? 'conta Google Workspace' : 'conta pessoal';
  const figures = `${quota.triggerMs / 60_000} min de gatilhos, ${plural(quota.fetches, 'chamada', 'chamadas')} ao serviço (UrlFetch), ${plural(PROPERTY_OPS[account.kind], 'leitura', 'leituras')} e gravações de propriedades por dia`;
  const unknown = account.known
    ? ''
    : '; o complemento planeja com as cotas de conta pessoal, as menores. Numa publicação só para um domínio Google Workspace, o administrador põe "conta": "workspace" em addon.config.json e publica de novo';
  const u = usageStore().get();
  return [
    [
      'O tipo da sua conta Google e as cotas diárias com que o complemento planeja',
      `${name} (${account.how}): ${figures}${unknown}`,
      account.known ? 'INFO' : 'VERIFICAR',
    ],
    [
      'Uso de hoje das cotas diárias da sua conta',
      `${n(u.fetches)} de ${plural(quota.fetches, 'chamada', 'chamadas')}; ${Math.round(u.triggerMs / 60_000)} de ${quota.triggerMs / 60_000} min de gatilhos${u.stopped ? `; ${u.stopped}` : ''}`,
      u.stopped ? 'VERIFICAR' : 'OK',
    ],
    attempt('E-mails que ainda podem ser enviados hoje', () => {
      const left = MailApp.getRemainingDailyQuota();
      return [`${left}`, left > 0 ? 'OK' : 'FALHA'];
    }),
  ];
}
