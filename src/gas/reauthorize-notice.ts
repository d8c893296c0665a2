/**
 * While Google asks the owner to authorize the add-on again, the hourly run
 * does nothing; Relatórios says so, but only to someone who opens it. So the
 * run also e-mails the owner, at most once in 24 hours, with the address
 * Google gives for authorizing again. Sending needs only a scope granted
 * before (a new version adds scopes, it does not take them away); when it
 * fails, Relatórios still says it.
 */
import { userEmail, userStore } from './services';

/** When the owner was last told by e-mail (epoch ms), in their properties. */
export const REAUTHORIZE_NOTICE_KEY = 'faturamento.aviso.autorizacao';
const DAY_MS = 24 * 3_600_000;

/** E-mails the owner unless they were told in the last 24 hours; the property to write beside the run's usage when it did. */
export function tellReauthorization(): Record<string, string> {
  const last = Number(userStore().get(REAUTHORIZE_NOTICE_KEY) ?? 0);
  if (Date.now() - last < DAY_MS) return {};
  try {
    const to = userEmail();
    if (!to) return {};
    const url = ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL).getAuthorizationUrl();
    MailApp.sendEmail(
      to,
      'Faturamento: autorize o complemento de novo para as atualizações agendadas voltarem',
      'As atualizações agendadas e os lotes inacabados do complemento Faturamento estão parados: as permissões dele mudaram e o Google pede a sua autorização de novo.\n\n' +
        `${url ? `Autorize por este endereço: ${url}\n\nOu abra` : 'Abra'} uma planilha em que você usa o complemento, vá a Extensões › Faturamento › Relatórios e aceite as permissões pedidas. Até lá nada é atualizado nem enviado.\n\n` +
        'Este aviso vai no máximo uma vez por dia enquanto a autorização faltar.',
    );
    return { [REAUTHORIZE_NOTICE_KEY]: String(Date.now()) };
  } catch {
    // Mail itself needs the new authorization: Relatórios still says it.
    return {};
  }
}
