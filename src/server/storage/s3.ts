// Files in an S3-compatible bucket (S3_BUCKET set). Uploads in progress are @tus/s3-store multipart
// uploads under uploads/ (uploads/<id> once complete, uploads/<id>.info with tus's metadata,
// uploads/<id>.part with the tail shorter than a part); a finished one is copied server-side to its
// image key and every upload object removed. tests/api/uploads-s3.test.ts runs all of it against an
// S3-compatible server (s3rver).
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3 } from '@aws-sdk/client-s3';
import { S3Store } from '@tus/s3-store';
import { DataStore, type Upload } from '@tus/utils';
import { assertKey, type FileStorage } from './index';

export interface S3Settings {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

export function s3ConfigFromEnv(env: NodeJS.ProcessEnv): S3Settings | undefined {
  if (!env.S3_BUCKET) return undefined;
  return {
    bucket: env.S3_BUCKET,
    region: env.S3_REGION || 'us-east-1',
    endpoint: env.S3_ENDPOINT || undefined,
    accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
    forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true' || env.S3_FORCE_PATH_STYLE === '1',
  };
}

/** @tus/s3-store keeps its client protected; the storage needs it for copies and deletes. */
class TusS3Store extends S3Store {
  get s3(): S3 {
    return this.client;
  }
  /** Drops the cached metadata of an upload (after its objects were removed behind tus's back). */
  forget(id: string): Promise<void> {
    return this.cache.delete(id);
  }
}

/** Presents a store's ids without the `uploads/` prefix its objects carry in the bucket. */
class PrefixedStore extends DataStore {
  constructor(
    private readonly inner: DataStore,
    private readonly prefix: string,
  ) {
    super();
    this.extensions = inner.extensions;
  }
  private key = (id: string) => `${this.prefix}${id}`;
  private strip = (upload: Upload): Upload =>
    Object.assign(upload, { id: upload.id.slice(this.prefix.length) });
  override async create(file: Upload): Promise<Upload> {
    file.id = this.key(file.id);
    return this.strip(await this.inner.create(file));
  }
  override remove(id: string) {
    return this.inner.remove(this.key(id));
  }
  override write(stream: Readable, id: string, offset: number) {
    return this.inner.write(stream, this.key(id), offset);
  }
  override async getUpload(id: string) {
    return this.strip(await this.inner.getUpload(this.key(id)));
  }
  override declareUploadLength(id: string, length: number) {
    return this.inner.declareUploadLength(this.key(id), length);
  }
  override deleteExpired() {
    return this.inner.deleteExpired();
  }
  override getExpiration() {
    return this.inner.getExpiration();
  }
}

/** Copies older than this were left by a process that stopped in the middle of a job. */
const STALE_COPY_MS = 24 * 3_600_000;

async function removeStaleCopies(tmp: string): Promise<void> {
  const entries = await fsp.readdir(tmp).catch(() => [] as string[]);
  for (const name of entries.filter((n) => n.startsWith('files-'))) {
    const st = await fsp.stat(path.join(tmp, name)).catch(() => undefined);
    if (st && Date.now() - st.mtimeMs > STALE_COPY_MS)
      await fsp.rm(path.join(tmp, name), { recursive: true, force: true });
  }
}

/** S3's single CopyObject takes at most 5 GiB; bigger objects are copied in parts of this size. */
const COPY_PART = 1024 * 1024 * 1024;
const SINGLE_COPY_MAX = 5 * 1024 * 1024 * 1024;

export class S3Storage implements FileStorage {
  readonly kind = 's3' as const;
  readonly checksumMode = 'spool' as const;
  readonly uploads: DataStore;
  private readonly tus: TusS3Store;
  private readonly bucket: string;

  constructor(
    settings: S3Settings,
    private readonly dataDir: string,
    expiryMs: number,
  ) {
    this.bucket = settings.bucket;
    this.tus = new TusS3Store({
      partSize: 8 * 1024 * 1024,
      expirationPeriodInMilliseconds: expiryMs,
      // Expiry is the database's job (expire-uploads), not a bucket lifecycle rule on tags, and not
      // every S3-compatible store takes object tags.
      useTags: false,
      s3ClientConfig: {
        // Checksums only where S3 requires them: the SDK's default (CRC32 trailers in aws-chunked
        // bodies) is not understood by many S3-compatible stores, which then store the framing as
        // bytes. Chunks are verified by the upload store's SHA-1 before they reach the bucket anyway.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        bucket: settings.bucket,
        region: settings.region,
        endpoint: settings.endpoint,
        forcePathStyle: settings.forcePathStyle,
        credentials:
          settings.accessKeyId && settings.secretAccessKey
            ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
            : undefined,
      },
    });
    this.uploads = new PrefixedStore(this.tus, 'uploads/');
  }

  private get s3(): S3 {
    return this.tus.s3;
  }

  async exists(key: string): Promise<boolean> {
    return (await this.size(key)) !== undefined;
  }

  async size(key: string): Promise<number | undefined> {
    assertKey(key);
    try {
      const head = await this.s3.headObject({ Bucket: this.bucket, Key: key });
      return head.ContentLength;
    } catch (e) {
      const status = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404) return undefined;
      throw e;
    }
  }

  async stream(key: string, range?: { start: number; end: number }): Promise<Readable> {
    assertKey(key);
    const res = await this.s3.getObject({
      Bucket: this.bucket,
      Key: key,
      Range: range ? `bytes=${range.start}-${range.end}` : undefined,
    });
    return res.Body as Readable;
  }

  async delete(keyOrPrefix: string): Promise<void> {
    const keys = keyOrPrefix.endsWith('/') ? await this.list(keyOrPrefix) : [keyOrPrefix];
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      batch.forEach(assertKey);
      if (batch.length)
        await this.s3.deleteObjects({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        });
    }
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.s3.listObjectsV2({
        Bucket: this.bucket,
        Prefix: prefix,
        ContinuationToken: token,
      });
      for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  async adoptUpload(uploadId: string, key: string): Promise<void> {
    assertKey(key);
    const from = `uploads/${uploadId}`;
    const size = await this.size(from);
    if (size === undefined) {
      if (await this.exists(key)) return; // copied by an earlier attempt
      throw new Error(`storage: upload ${uploadId} has no bytes`);
    }
    const source = `${this.bucket}/${encodeURIComponent(from).replace(/%2F/g, '/')}`;
    if (size <= SINGLE_COPY_MAX) {
      await this.s3.copyObject({ Bucket: this.bucket, Key: key, CopySource: source });
    } else {
      const { UploadId } = await this.s3.createMultipartUpload({ Bucket: this.bucket, Key: key });
      const parts: Array<{ ETag?: string; PartNumber: number }> = [];
      for (let start = 0, n = 1; start < size; start += COPY_PART, n++) {
        const end = Math.min(size, start + COPY_PART) - 1;
        const part = await this.s3.uploadPartCopy({
          Bucket: this.bucket,
          Key: key,
          UploadId,
          PartNumber: n,
          CopySource: source,
          CopySourceRange: `bytes=${start}-${end}`,
        });
        parts.push({ ETag: part.CopyPartResult?.ETag, PartNumber: n });
      }
      await this.s3.completeMultipartUpload({
        Bucket: this.bucket,
        Key: key,
        UploadId,
        MultipartUpload: { Parts: parts },
      });
    }
    await this.removeUpload(uploadId);
  }

  async removeUpload(uploadId: string): Promise<void> {
    const key = `uploads/${uploadId}`;
    assertKey(key);
    // Aborts the multipart upload (its parts are the bulk of the bytes); fails harmlessly when it was
    // completed or never began. Then every object of the upload, whatever tus managed to remove.
    await this.tus.remove(key).catch(() => undefined);
    await this.s3.deleteObjects({
      Bucket: this.bucket,
      Delete: { Objects: [key, `${key}.info`, `${key}.part`].map((Key) => ({ Key })), Quiet: true },
    });
    await this.tus.forget(key);
  }

  async withLocalFiles<T>(keys: string[], work: (paths: string[]) => Promise<T>): Promise<T> {
    keys.forEach(assertKey);
    const tmp = path.join(this.dataDir, 'tmp');
    await fsp.mkdir(tmp, { recursive: true });
    await removeStaleCopies(tmp);
    const dir = path.join(tmp, `files-${crypto.randomBytes(8).toString('hex')}`);
    try {
      const paths: string[] = [];
      for (const key of keys) {
        const local = path.join(dir, ...key.split('/'));
        await fsp.mkdir(path.dirname(local), { recursive: true });
        await pipeline(await this.stream(key), fs.createWriteStream(local));
        paths.push(local);
      }
      return await work(paths);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }

  async freeBytes(): Promise<number | undefined> {
    return undefined;
  }
}
