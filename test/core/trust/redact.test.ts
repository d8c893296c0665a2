import { describe, expect, it } from 'vitest';
import { REDACTED, redact } from '../../../src/core/trust/redact';

describe('keys scrubbed out of outside text', () => {
  const key = 'sk_live/aé"b+9';

  it('removes every occurrence of a key, raw, URL-encoded and JSON-escaped', () => {
    expect(REDACTED).toBe('[chave removida]');
    const body = `chave ${key} recusada; url ?k=${encodeURIComponent(key)}; json {"k":${JSON.stringify(key)}} de novo ${key}`;
    expect(redact(body, [key])).toBe('chave [chave removida] recusada; url ?k=[chave removida]; json {"k":"[chave removida]"} de novo [chave removida]');
  });

  it('scrubs every key the user has, not only the first', () => {
    expect(redact('a=abcdef1 b=zyxwvu2', ['abcdef1', 'zyxwvu2'])).toBe('a=[chave removida] b=[chave removida]');
  });

  it('leaves values shorter than six characters alone, and keeps six-character ones out', () => {
    expect(redact('erro 12345 no pedido 12345', ['12345'])).toBe('erro 12345 no pedido 12345');
    expect(redact('erro 123456', ['123456'])).toBe('erro [chave removida]');
  });

  it('returns text without any key unchanged', () => {
    expect(redact('Cliente não encontrado.', ['abcdef1'])).toBe('Cliente não encontrado.');
    expect(redact('Cliente não encontrado.', [])).toBe('Cliente não encontrado.');
  });
});
