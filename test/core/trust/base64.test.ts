/**
 * The base64 a signature is written in: the same text as Apps Script's
 * Utilities.base64Encode (Node's Buffer here) for any bytes, signed or not,
 * of every length's remainder.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Of } from '../../../src/core/trust/base64';

const signed = (bytes: readonly number[]) => bytes.map((b) => (b > 127 ? b - 256 : b));

describe('base64Of', () => {
  it('says the known vectors of RFC 4648', () => {
    const text = (s: string) => [...Buffer.from(s)];
    expect(['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar'].map((s) => base64Of(text(s)))).toEqual([
      '',
      'Zg==',
      'Zm8=',
      'Zm9v',
      'Zm9vYg==',
      'Zm9vYmE=',
      'Zm9vYmFy',
    ]);
  });

  it('reads bytes as Apps Script gives them, -128..127, as their unsigned values', () => {
    expect(base64Of([-1, -2, -3])).toBe('//79');
    expect(base64Of([-128, 0, 127])).toBe(Buffer.from([128, 0, 127]).toString('base64'));
  });

  it('is what Buffer says for any bytes', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 70 }), (bytes) => {
        expect(base64Of(signed(bytes))).toBe(Buffer.from(bytes).toString('base64'));
      }),
    );
  });
});
