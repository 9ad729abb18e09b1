// Files in an S3-compatible bucket (S3_BUCKET set). Uploads in progress are @tus/s3-store multipart
// uploads under uploads/ (uploads/<id> once complete, uploads/<id>.info with tus's metadata,
// uploads/<id>.part with the tail shorter than a part); a finished one is copied server-side to its
// image key and every upload object removed. tests/api/uploads-s3.test.ts runs all of it against an
// S3-compatible server (s3rver).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { S3 } from '@aws-sdk/client-s3';
import { S3Store } from '@tus/s3-store';
import { DataStore, type Upload } from '@tus/utils';
import type { ByteSource } from '../slides/file';
import { assertKey, type FileStorage, type StorageSettings } from './index';
import { RangedSource, type RangedOptions } from './ranged';

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

/** S3's single CopyObject takes at most 5 GiB; bigger objects are copied in parts of this size. */
const COPY_PART = 1024 * 1024 * 1024;
const SINGLE_COPY_MAX = 5 * 1024 * 1024 * 1024;

export class S3Storage implements FileStorage {
  readonly kind = 's3' as const;
  readonly checksumMode = 'spool' as const;
  readonly uploads: DataStore;
  private readonly tus: TusS3Store;
  private readonly bucket: string;
  readonly settings: StorageSettings;

  constructor(
    settings: S3Settings,
    expiryMs: number,
    private readonly ranged: Partial<RangedOptions> = {},
    /** Files up to this size are stored with one PutObject, bigger ones in parts of this size. */
    private readonly partBytes = 64 * 1024 * 1024,
  ) {
    this.settings = { kind: 's3', s3: settings, expiryMs, ranged, partBytes };
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

  async putFile(key: string, file: string): Promise<void> {
    assertKey(key);
    const { size } = await fsp.stat(file);
    if (size <= this.partBytes) {
      // Streamed from the file: memory holds the SDK's chunks, not the file.
      const body = fs.createReadStream(file);
      await this.s3.putObject({ Bucket: this.bucket, Key: key, Body: body, ContentLength: size });
      return;
    }
    // One PutObject takes at most 5 GiB: bigger files go in parts, read one part at a time.
    const { UploadId } = await this.s3.createMultipartUpload({ Bucket: this.bucket, Key: key });
    const handle = await fsp.open(file, 'r');
    try {
      const parts: Array<{ ETag?: string; PartNumber: number }> = [];
      for (let start = 0, n = 1; start < size; start += this.partBytes, n++) {
        const body = new Uint8Array(Math.min(this.partBytes, size - start));
        await handle.read(body, 0, body.length, start);
        const part = await this.s3.uploadPart({
          Bucket: this.bucket,
          Key: key,
          UploadId,
          PartNumber: n,
          Body: body,
          ContentLength: body.length,
        });
        parts.push({ ETag: part.ETag, PartNumber: n });
      }
      await this.s3.completeMultipartUpload({
        Bucket: this.bucket,
        Key: key,
        UploadId,
        MultipartUpload: { Parts: parts },
      });
    } catch (error) {
      await this.s3.abortMultipartUpload({ Bucket: this.bucket, Key: key, UploadId }).catch(() => undefined);
      throw error;
    } finally {
      await handle.close();
    }
  }

  async adoptFile(key: string, file: string): Promise<void> {
    await this.putFile(key, file);
    await fsp.rm(file, { force: true });
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

  async openSource(key: string, ranged?: Partial<RangedOptions>): Promise<ByteSource> {
    assertKey(key);
    const size = await this.size(key);
    if (size === undefined) throw new Error(`storage: no object "${key}"`);
    const fetchRange = async (start: number, end: number): Promise<Uint8Array> => {
      const res = await this.s3.getObject({
        Bucket: this.bucket,
        Key: key,
        Range: `bytes=${start}-${end - 1}`,
      });
      if (!res.Body) return new Uint8Array(0);
      return res.Body.transformToByteArray();
    };
    return new RangedSource(key, size, fetchRange, { ...this.ranged, ...ranged });
  }

  async freeBytes(): Promise<number | undefined> {
    return undefined;
  }
}
