/** The one answer of every sidebar call: a UserError is a refusal, anything else is thrown on as it is. */
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/api/user-error';
import { ConnectionError } from '../../src/core/connections/connections';
import { formOutcome, outcome } from '../../src/gas/outcome';

const raise = (err: unknown) => (): never => {
  throw err;
};

describe('outcome', () => {
  it("gives the work's value", () => {
    expect(outcome(() => 42)).toEqual({ ok: true, value: 42 });
  });

  it('refuses with the message of a UserError, and no field even when the error names one', () => {
    expect(outcome(raise(new UserError('Escolha a operação.')))).toEqual({ ok: false, message: 'Escolha a operação.' });
    expect(outcome(raise(new ConnectionError('baseUrl', 'Informe o endereço.')))).toEqual({ ok: false, message: 'Informe o endereço.' });
  });

  it('throws anything else on, the very error', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    expect(() => outcome(raise(bug))).toThrow(bug);
    expect(() => outcome(raise(new Error('Exception: Service error')))).toThrow('Exception: Service error');
    expect(() => outcome(raise('texto'))).toThrow('texto');
  });
});

describe('formOutcome', () => {
  it("gives the work's own answer, refusals included", () => {
    expect(formOutcome(() => ({ ok: true as const, connection: 'c' }))).toEqual({ ok: true, connection: 'c' });
    expect(formOutcome(() => ({ ok: false as const, field: 'sheetName', message: 'Informe a aba.' }))).toEqual({
      ok: false,
      field: 'sheetName',
      message: 'Informe a aba.',
    });
  });

  it('refuses a UserError beside the field it names, and without a field when it names none', () => {
    expect(formOutcome(raise(new ConnectionError('apiKey', 'Informe a chave.')))).toEqual({ ok: false, field: 'apiKey', message: 'Informe a chave.' });
    const busy = formOutcome(raise(new UserError('Outra operação está em andamento.')));
    expect(busy).toEqual({ ok: false, message: 'Outra operação está em andamento.' });
    expect('field' in busy).toBe(false);
  });

  it('throws anything else on', () => {
    const bug = new RangeError('Invalid array length');
    expect(() => formOutcome(raise(bug))).toThrow(bug);
  });
});
