/** Blob and Java-style signed byte arrays (Apps Script's Byte[] holds -128..127). */
import { GasObject } from './instrument';
import type { Realm } from './realm';

type GBlob = GoogleAppsScript.Base.Blob;

export function toSignedBytes(buf: Uint8Array, realm: Realm): number[] {
  return realm.array(Array.from(buf, (b) => (b > 127 ? b - 256 : b)));
}

export function fromBytes(bytes: ArrayLike<number>): Buffer {
  return Buffer.from(Array.from(bytes, (b) => b & 255));
}

export class BlobImpl
  extends GasObject
  implements
    Pick<
      GBlob,
      'copyBlob' | 'getBytes' | 'getContentType' | 'getDataAsString' | 'getName' | 'setContentType' | 'setDataFromString' | 'setName' | 'isGoogleType'
    >
{
  readonly gasName = 'Blob';
  constructor(
    private data: Buffer,
    private contentType: string | null,
    private name: string | null,
    private readonly realm: Realm,
  ) {
    super();
  }
  private self(): GBlob {
    return this as unknown as GBlob;
  }
  copyBlob(): GBlob {
    return new BlobImpl(Buffer.from(this.data), this.contentType, this.name, this.realm) as unknown as GBlob;
  }
  getBytes(): GoogleAppsScript.Byte[] {
    return toSignedBytes(this.data, this.realm);
  }
  getContentType(): string | null {
    return this.contentType;
  }
  setContentType(contentType: string | null): GBlob {
    this.contentType = contentType;
    return this.self();
  }
  getDataAsString(charset?: string): string {
    return this.data.toString(charset && /^iso-8859-1|latin1$/i.test(charset) ? 'latin1' : 'utf8');
  }
  setDataFromString(string: string, _charset?: string): GBlob {
    this.data = Buffer.from(string, 'utf8');
    return this.self();
  }
  getName(): string | null {
    return this.name;
  }
  setName(name: string): GBlob {
    this.name = name;
    return this.self();
  }
  isGoogleType(): boolean {
    return false;
  }
}
