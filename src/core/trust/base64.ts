/**
 * Standard base64 (with padding) of a byte array as Apps Script gives one,
 * each byte -128..127: what Utilities.base64Encode returns, without its round
 * trip. A signature is one HMAC and this, where it was an HMAC and two calls.
 */
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function base64Of(bytes: ArrayLike<number>): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    // Past the end a byte reads as undefined, which & 255 makes 0: the padding's bits.
    const n = ((bytes[i] & 255) << 16) | ((bytes[i + 1] & 255) << 8) | (bytes[i + 2] & 255);
    out += DIGITS[n >> 18] + DIGITS[(n >> 12) & 63];
    out += i + 1 < bytes.length ? DIGITS[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.length ? DIGITS[n & 63] : '=';
  }
  return out;
}
