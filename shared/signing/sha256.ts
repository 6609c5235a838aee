import { createHash, createHmac } from 'node:crypto';
import type { SourceData } from '@smithy/types';

const bytesOf = (data: SourceData) =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);

/** SHA-256 and HMAC-SHA256 for SigV4 signers (@smithy/signature-v4), from node:crypto: no browser crypto shim in the bundle. */
export class Sha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    this.hash = secret ? createHmac('sha256', bytesOf(secret)) : createHash('sha256');
  }
  update(data: SourceData): void {
    this.hash.update(bytesOf(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}
