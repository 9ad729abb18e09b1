// Where files live (DESIGN "Real parts"): DATA_DIR/files by default, an S3-compatible bucket when
// S3_BUCKET is set. One interface for both, so uploads and processing run the same code either way.
// Keys are relative, '/'-separated: uploads/<tus id> while bytes arrive, images/<imageId>/<file> after;
// what processing derives from an image (its pyramid pack, thumbnail and label picture) under
// derived/<imageId>/, apart from the uploaded files so no uploaded name can meet one of them.
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { DataStore } from '@tus/utils';
import type { ByteSource } from '../slides/file';
import { LocalStorage } from './local';
import type { RangedOptions } from './ranged';
import { S3Storage, s3ConfigFromEnv, type S3Settings } from './s3';

/**
 * What a storage is built from, as plain values: another process (the pyramid's, pyramid-child.ts)
 * builds its own instance of the same storage from them (`storageFrom`).
 */
export type StorageSettings =
  | { kind: 'local'; root: string; expiryMs: number }
  | { kind: 's3'; s3: S3Settings; expiryMs: number; ranged: Partial<RangedOptions>; partBytes: number };

export interface FileStorage {
  readonly kind: 'local' | 's3';
  /** What this storage was built from (`storageFrom` builds an equal one). */
  readonly settings: StorageSettings;
  /**
   * The tus datastore of uploads in progress. Its ids are the bare tus ids; the bytes sit under
   * `uploads/` in this storage.
   */
  readonly uploads: DataStore;
  /**
   * How a chunk's checksum is verified: 'inline' writes while hashing straight into the upload's file
   * and cuts it back on a mismatch (needs `uploadFile`); 'spool' hashes into a temporary file first
   * (object stores cannot take bytes back).
   */
  readonly checksumMode: 'inline' | 'spool';
  /** The local file an upload in progress is written to (inline mode only). */
  uploadFile?(uploadId: string): string;
  exists(key: string): Promise<boolean>;
  /** Size in bytes, or undefined when the key does not exist. */
  size(key: string): Promise<number | undefined>;
  /** The bytes of a key; `range` is inclusive like HTTP's. */
  stream(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Stores a local file's bytes at `key`, replacing what is there (moving an install's files). */
  putFile(key: string, file: string): Promise<void>;
  /**
   * Stores a local file's bytes at `key` and removes the local file: a rename on the local disk (the
   * file must be on the same disk as the storage), an upload streamed from the file to a bucket.
   */
  adoptFile(key: string, file: string): Promise<void>;
  /** Deletes a key, or every key under it when it ends with '/'. Missing keys are fine. */
  delete(keyOrPrefix: string): Promise<void>;
  /** Keys under a prefix ending with '/', recursively. */
  list(prefix: string): Promise<string[]>;
  /**
   * Moves a finished upload's bytes to `key` and forgets its tus resource. Idempotent: when the
   * upload is gone and `key` exists, a previous call already did it (a retry after a crash).
   */
  adoptUpload(uploadId: string, key: string): Promise<void>;
  /** Removes an upload's bytes and tus metadata; a missing upload is fine. */
  removeUpload(uploadId: string): Promise<void>;
  /**
   * A key's bytes for random access by the slide readers, without copying them here: the file itself
   * when local; ranged GETs through a bounded block cache when in S3 (ranged.ts), sized by `ranged`
   * when given (the storage's default otherwise). A missing key throws.
   */
  openSource(key: string, ranged?: Partial<RangedOptions>): Promise<ByteSource>;
  /** Bytes still free where uploads are written, when the storage can tell (local disks). */
  freeBytes(): Promise<number | undefined>;
}

export interface StorageOptions {
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  /** Unfinished uploads expire this long after creation (tus expiration); 0 never. */
  expiryMs: number;
  /** Block and cache sizes of ranged reads from S3 (default DEFAULT_RANGED). */
  ranged?: Partial<RangedOptions>;
}

export function createStorage(opts: StorageOptions): FileStorage {
  const s3 = s3ConfigFromEnv(opts.env ?? process.env);
  if (s3) return new S3Storage(s3, opts.expiryMs, opts.ranged);
  return new LocalStorage(path.join(opts.dataDir, 'files'), opts.expiryMs);
}

/** A storage built from another's `settings` (in another thread, which cannot share the instance). */
export function storageFrom(settings: StorageSettings): FileStorage {
  if (settings.kind === 's3')
    return new S3Storage(settings.s3, settings.expiryMs, settings.ranged, settings.partBytes);
  return new LocalStorage(settings.root, settings.expiryMs);
}

const instances = new Map<string, FileStorage>();

/**
 * The storage of a data directory, made once per process: the upload routes and the processing job
 * share it (and with it the tus store's in-memory state).
 */
export function storageFor(opts: StorageOptions): FileStorage {
  const key = path.resolve(opts.dataDir);
  let s = instances.get(key);
  if (!s) {
    s = createStorage(opts);
    instances.set(key, s);
  }
  return s;
}

/** Drops the memoized storage of a data directory (tests that delete their directory). */
export function forgetStorage(dataDir: string): void {
  instances.delete(path.resolve(dataDir));
}

/** A key must stay inside the storage: no absolute paths, no '..', no empty segments. */
export function assertKey(key: string): void {
  const parts = key.split('/');
  if (
    !key ||
    key.startsWith('/') ||
    parts.some((p) => p === '' || p === '.' || p === '..') ||
    key.includes('\\')
  )
    throw new Error(`storage: bad key "${key}"`);
}
