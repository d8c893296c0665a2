/** Utilities: dates in an explicit time zone, sleep on the virtual clock, encodings and digests. */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { BlobImpl, fromBytes, toSignedBytes } from './blob';
import { formatJavaDate, parseJavaDate } from './date-format';
import type { Execution } from './execution';
import { GasObject } from './instrument';
import { isDate } from './realm';
import { isValidTimeZone } from './tz';

type GUtilities = GoogleAppsScript.Utilities.Utilities;
type Bytes = GoogleAppsScript.Byte[];

export const MAX_SLEEP_MS = 300_000;

const DIGESTS: Record<string, string> = { MD2: 'md2', MD5: 'md5', SHA_1: 'sha1', SHA_256: 'sha256', SHA_384: 'sha384', SHA_512: 'sha512' };

type Implemented =
  | 'base64Decode'
  | 'base64DecodeWebSafe'
  | 'base64Encode'
  | 'base64EncodeWebSafe'
  | 'computeDigest'
  | 'computeHmacSha256Signature'
  | 'formatDate'
  | 'formatString'
  | 'getUuid'
  | 'newBlob'
  | 'parseDate'
  | 'sleep';

export class UtilitiesImpl extends GasObject implements Pick<GUtilities, Implemented> {
  readonly gasName = 'Utilities';
  readonly DigestAlgorithm = Object.fromEntries(Object.keys(DIGESTS).map((k) => [k, k]));
  readonly Charset = { US_ASCII: 'US_ASCII', UTF_8: 'UTF_8' };

  constructor(private readonly exec: Execution) {
    super();
  }

  private data(value: string | ArrayLike<number>): Buffer {
    return typeof value === 'string' ? Buffer.from(value, 'utf8') : fromBytes(value);
  }

  private zone(timeZone: string): string {
    if (!isValidTimeZone(timeZone)) throw this.exec.error(`Invalid argument: timeZone`);
    return timeZone;
  }

  formatDate(date: GoogleAppsScript.Base.Date, timeZone: string, format: string): string {
    if (!isDate(date)) throw this.exec.error("The parameters (String,String,String) don't match the method signature for Utilities.formatDate.");
    try {
      return formatJavaDate((date as unknown as Date).getTime(), this.zone(timeZone), format);
    } catch (err) {
      throw this.exec.error((err as Error).message);
    }
  }

  parseDate(date: string, timeZone: string, format: string): Date {
    try {
      return this.exec.realm.date(parseJavaDate(String(date), this.zone(timeZone), format));
    } catch (err) {
      throw this.exec.error((err as Error).message);
    }
  }

  sleep(milliseconds: number): void {
    if (milliseconds > MAX_SLEEP_MS) throw this.exec.error('Argument too large: milliseconds');
    this.exec.clock.advance(Math.max(0, milliseconds) + this.exec.costs.sleepOverheadMs);
  }

  getUuid(): string {
    return randomUUID();
  }

  formatString(template: string, ...args: any[]): string {
    let i = 0;
    return template.replace(/%(-?\d*)(?:\.(\d+))?([sdfi%])/g, (_m, _w, prec, type) => {
      if (type === '%') return '%';
      const v = args[i++];
      if (type === 'd' || type === 'i') return String(Math.trunc(Number(v)));
      if (type === 'f') return prec !== undefined ? Number(v).toFixed(Number(prec)) : String(Number(v));
      return String(v);
    });
  }

  base64Encode(data: string | Bytes, _charset?: GoogleAppsScript.Utilities.Charset): string {
    return this.data(data).toString('base64');
  }

  base64EncodeWebSafe(data: string | Bytes, _charset?: GoogleAppsScript.Utilities.Charset): string {
    return this.data(data).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
  }

  base64Decode(encoded: string, _charset?: GoogleAppsScript.Utilities.Charset): Bytes {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded.replace(/\s/g, ''))) throw this.exec.error('Could not decode string.');
    return toSignedBytes(Buffer.from(encoded, 'base64'), this.exec.realm);
  }

  base64DecodeWebSafe(encoded: string, _charset?: GoogleAppsScript.Utilities.Charset): Bytes {
    return this.base64Decode(encoded.replace(/-/g, '+').replace(/_/g, '/'));
  }

  computeDigest(algorithm: GoogleAppsScript.Utilities.DigestAlgorithm, value: string | Bytes, _charset?: GoogleAppsScript.Utilities.Charset): Bytes {
    const name = DIGESTS[String(algorithm)];
    if (!name) throw this.exec.error('Invalid argument: algorithm');
    return toSignedBytes(createHash(name).update(this.data(value)).digest(), this.exec.realm);
  }

  computeHmacSha256Signature(value: string | Bytes, key: string | Bytes, _charset?: GoogleAppsScript.Utilities.Charset): Bytes {
    return toSignedBytes(createHmac('sha256', this.data(key)).update(this.data(value)).digest(), this.exec.realm);
  }

  newBlob(data: string | Bytes, contentType?: string, name?: string): GoogleAppsScript.Base.Blob {
    return new BlobImpl(this.data(data), contentType ?? null, name ?? null, this.exec.realm) as unknown as GoogleAppsScript.Base.Blob;
  }
}
