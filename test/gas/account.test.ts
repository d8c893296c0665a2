/** How the add-on tells the kind of Google account, whose quotas differ: what the platform says, then the publisher's setting. */
import { describe, expect, it } from 'vitest';
import { accountFrom } from '../../src/gas/account';

describe('the kind of account', () => {
  const asked: string[] = [];
  const mail = (left: number | null) => () => {
    asked.push('mail');
    return left;
  };

  it('an address at gmail.com is a consumer account, whatever the setting says, and nothing more is asked', () => {
    asked.length = 0;
    for (const email of ['ana@gmail.com', 'ana@GoogleMail.com']) {
      expect(accountFrom({ email, setting: 'workspace', mailLeft: mail(1_500) })).toEqual({
        kind: 'consumer',
        how: expect.stringMatching(/^endereço …@/),
        known: true,
      });
    }
    expect(asked).toEqual([]);
  });

  it('otherwise the publisher’s setting decides, before the e-mail quota is asked', () => {
    asked.length = 0;
    expect(accountFrom({ email: 'ana@escritorio.com.br', setting: 'workspace', mailLeft: mail(100) })).toMatchObject({ kind: 'workspace', known: true });
    expect(accountFrom({ email: 'ana@escritorio.com.br', setting: 'consumer', mailLeft: mail(1_500) })).toMatchObject({ kind: 'consumer', known: true });
    expect(asked).toEqual([]);
  });

  it('without a setting, more than a consumer account’s 100 e-mail recipients left today is a Workspace account; else the consumer figures are assumed', () => {
    const at = (left: number | null) => accountFrom({ email: 'ana@escritorio.com.br', setting: null, mailLeft: mail(left) });
    expect(at(101)).toEqual({ kind: 'workspace', how: expect.stringMatching(/cota de e-mail de hoje com 101 destinatários/), known: true });
    expect(at(1_500).kind).toBe('workspace');
    for (const left of [100, 0, null]) expect(at(left)).toMatchObject({ kind: 'consumer', known: false });
  });
});
