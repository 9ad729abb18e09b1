// The tus datastore the endpoint uses: the storage's upload store plus the checksum extension
// (@tus/server has none) and a free-space check. PATCH bodies come through `writeChunk`, from our own
// PATCH handler (patch.ts); tus itself still creates, reads and removes resources.
// A chunk is all or nothing: on a wrong checksum, or a body cut short, the upload stays at its old
// offset, so a resumed client resends at most that one chunk.
import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DataStore, StreamLimiter, type Upload } from '@tus/utils';
import { errorText } from '../../api/errors';
import { apiError } from '../http/errors';
import type { FileStorage } from '../storage';
import { ABORTED, CHECKSUM_MISMATCH, writeChunkToFile, type ChunkOptions } from './chunk-writer';

export { CHECKSUM_MISMATCH } from './chunk-writer';

export interface ChunkContext {
  /** The id a creation request's resource gets (chosen, and recorded, before tus creates it). */
  newUploadId?: string;
}

/** What tus needs from the route while it handles a request (it hands a store only ids and streams). */
export const chunkContext = new AsyncLocalStorage<ChunkContext>();

/** tus errors are `{status_code, body}`: a full disk says what happens next (STORAGE_FULL). */
export const STORAGE_FULL = { status_code: 507, body: `${errorText('STORAGE_FULL')}\n` };
/** Room kept free beside the chunk, so the database and logs never hit a full disk first. */
const RESERVE_BYTES = 256 * 1024 * 1024;

export interface WriteOptions extends Partial<ChunkOptions> {
  /** Content-Length of the body, when sent (checked against the free space first). */
  contentLength?: number;
}

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

  /** A body tus hands over (a creation with data): no checksum, no limit beyond the upload's. */
  override write(stream: Readable, id: string, offset: number): Promise<number> {
    return this.writeChunk(stream, id, offset);
  }

  /**
   * Writes one PATCH body at `offset`, verified against `checksum`, no longer than `limit`; stops when
   * `signal` aborts. Returns the new offset; on any failure the upload stays at `offset` (an object
   * store keeps what it took of a body sent without a checksum).
   */
  async writeChunk(body: Readable, id: string, offset: number, opts: WriteOptions = {}): Promise<number> {
    const free = await this.storage.freeBytes();
    if (free !== undefined && free < (opts.contentLength ?? 0) + RESERVE_BYTES) throw STORAGE_FULL;
    const limit = opts.limit ?? Number.MAX_SAFE_INTEGER;
    const signal = opts.signal ?? new AbortController().signal;
    const file = this.storage.checksumMode === 'inline' ? this.storage.uploadFile?.(id) : undefined;
    if (file) return writeChunkToFile(file, body, offset, { checksum: opts.checksum, limit, signal });
    // Object stores: through a limiter, which an abort ends without destroying the request itself.
    const limited = new StreamLimiter(limit);
    const feed = new PassThrough();
    const onAbort = () => {
      body.unpipe(feed);
      feed.destroy(new Error('aborted'));
    };
    body.once('error', (e) => feed.destroy(e));
    feed.once('error', (e) => limited.destroy(e));
    body.pipe(feed).pipe(limited);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      if (!opts.checksum) return await this.inner.write(limited, id, offset);
      return await this.writeSpooled(limited, id, offset, opts.checksum);
    } catch (e) {
      throw signal.aborted ? ABORTED : e;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
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
  if (!m) throw apiError('CHECKSUM_MALFORMED');
  if (m[1].toLowerCase() !== 'sha1') throw apiError('CHECKSUM_ALGORITHM', { algorithm: m[1] });
  if (Buffer.from(m[2], 'base64').length !== 20) throw apiError('CHECKSUM_NOT_SHA1');
  return m[2];
}
