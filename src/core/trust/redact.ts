/**
 * Keys out of every text that comes from outside. A server (or a gateway in
 * front of it) may quote the request's key in an error body; that text then
 * travels into messages, cells, Histórico, e-mails and sidebars. So every
 * response is scrubbed of every key the user has before anything reads it.
 */
export const REDACTED = '[chave removida]';

/** Shorter values are not keys anyone would echo, and replacing them would garble ordinary text. */
const MIN_SECRET = 6;

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET) continue;
    for (const form of new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])) out = out.split(form).join(REDACTED);
  }
  return out;
}
