// The tus datastore the endpoint uses: the storage's upload store plus the checksum extension
// (@tus/server has none) and a free-space check. The expected checksum of a PATCH comes from the
// request through AsyncLocalStorage, since tus hands a store only (stream, id, offset).
// A chunk is all or nothing: on a wrong checksum, or a body cut short, the upload stays at its old
// offset, so a resumed client resends at most that one chunk.
import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DataStore, type Upload } from '@tus/utils';
import type { FileStorage } from '../storage';

export interface ChunkContext {
  /** Base64 SHA-1 the client declared for this request's body (Upload-Checksum). */
  checksum?: string;
  /** Content-Length of the body, when sent. */
  contentLength?: number;
  /** The id a creation request's resource gets (chosen, and recorded, before tus creates it). */
  newUploadId?: string;
}

export const chunkContext = new AsyncLocalStorage<ChunkContext>();

/** tus errors are `{status_code, body}`; 460 is the checksum extension's "Checksum Mismatch". */
export const CHECKSUM_MISMATCH = { status_code: 460, body: 'Checksum Mismatch\n' };
export const STORAGE_FULL = { status_code: 507, body: 'Insufficient Storage\n' };
/** Room kept free beside the chunk, so the database and logs never hit a full disk first. */
const RESERVE_BYTES = 256 * 1024 * 1024;

export class UploadStore extends DataStore {
  constructor(
    private readonly storage: FileStorage,
    private readonly tmpDir = os.tmpdir(),
  ) {
    super();
    this.extensions = [
      ...storage.uploads.extensions.filter((e) => e !== 'creation-defer-length'),
      'checksum',
    ];
  }

  private get inner(): DataStore {
    return this.storage.uploads;
  }

  override create(file: Upload) {
    return this.inner.create(file);
  }
  override remove(id: string) {
    return this.inner.remove(id);
  }
  override getUpload(id: string) {
    return this.inner.getUpload(id);
  }
  override declareUploadLength(id: string, length: number) {
    return this.inner.declareUploadLength(id, length);
  }
  override deleteExpired() {
    return this.inner.deleteExpired();
  }
  override getExpiration() {
    return this.inner.getExpiration();
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    const ctx = chunkContext.getStore() ?? {};
    const free = await this.storage.freeBytes();
    if (free !== undefined && free < (ctx.contentLength ?? 0) + RESERVE_BYTES) throw STORAGE_FULL;
    if (!ctx.checksum) return this.inner.write(stream, id, offset);
    if (this.storage.checksumMode === 'inline' && this.storage.truncateUpload)
      return this.writeInline(stream, id, offset, ctx.checksum);
    return this.writeSpooled(stream, id, offset, ctx.checksum);
  }

  /** Writes while hashing; a mismatch cuts the file back to `offset`. */
  private async writeInline(stream: Readable, id: string, offset: number, expected: string): Promise<number> {
    const hash = crypto.createHash('sha1');
    const tee = hashing(hash);
    stream.on('error', (e) => tee.destroy(e));
    stream.pipe(tee);
    let end: number;
    try {
      end = await this.inner.write(tee, id, offset);
    } catch (e) {
      await this.storage.truncateUpload!(id, offset).catch(() => undefined);
      throw e;
    }
    if (hash.digest('base64') !== expected) {
      await this.storage.truncateUpload!(id, offset);
      throw CHECKSUM_MISMATCH;
    }
    return end;
  }

  /** Hashes into a temporary file first; only a verified chunk reaches the store. */
  private async writeSpooled(
    stream: Readable,
    id: string,
    offset: number,
    expected: string,
  ): Promise<number> {
    const dir = await fsp.mkdtemp(path.join(this.tmpDir, 'tessera-chunk-'));
    const file = path.join(dir, 'chunk');
    try {
      const hash = crypto.createHash('sha1');
      await pipeline(stream, hashing(hash), fs.createWriteStream(file));
      if (hash.digest('base64') !== expected) throw CHECKSUM_MISMATCH;
      return await this.inner.write(fs.createReadStream(file), id, offset);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }
}

/** A pass-through that feeds every byte to `hash` (no flowing-mode surprises, unlike a 'data' listener). */
function hashing(hash: crypto.Hash): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
}

/** `Upload-Checksum: sha1 <base64>` → the base64 digest; undefined when absent; throws when malformed. */
export function parseChecksumHeader(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const m = /^(\S+) ([A-Za-z0-9+/]+={0,2})$/.exec(value.trim());
  if (!m) throw new Error('Upload-Checksum must be "<algorithm> <base64 digest>"');
  if (m[1].toLowerCase() !== 'sha1') throw new Error(`Unsupported checksum algorithm: ${m[1]}`);
  if (Buffer.from(m[2], 'base64').length !== 20) throw new Error('Upload-Checksum is not a SHA-1 digest');
  return m[2];
}
