// An S3-compatible server for the tests, in this process on a free port: s3rver (npm, files on disk
// under a temporary directory). s3rver answers most of the S3 API with real signature checks, but not
// two multipart operations that @tus/s3-store needs: ListParts (the offset of an upload is the sum of
// its parts) and AbortMultipartUpload (termination frees the parts). Both are added here, over
// s3rver's own store of pending parts (<bucket>/._S3rver_uploads/<uploadId>/<partNumber>, written by
// its UploadPart), with S3's wire format: ListPartsResult XML, NoSuchUpload as 404. It also counts the
// bytes each object's GETs sent, so a test can tell a ranged read from a whole download.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  status: number;
  body: unknown;
  /** Content-Length of the response, as s3rver sets it for GetObject (the range's length). */
  length?: number;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
interface S3rverInstance {
  middleware: Middleware[];
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverCtor = new (options: Record<string, unknown>) => S3rverInstance;
interface S3ErrorCtor {
  new (code: string, message: string, detail?: Record<string, string>): Error;
}

const require = createRequire(import.meta.url);

export interface TestS3 {
  env: Record<string, string>;
  bucket: string;
  /** Where s3rver keeps the buckets' files (deleted by close). */
  directory: string;
  /** Upload ids of multipart uploads begun and neither completed nor aborted. */
  pendingMultipartUploads(): Promise<string[]>;
  /** Bytes sent by GETs of the key (every range, whole downloads too) since the last reset. */
  bytesServed(key: string): number;
  resetServed(): void;
  close(): Promise<void>;
}

export async function startS3(bucket = 'tessera-test'): Promise<TestS3> {
  const S3rver = require('s3rver') as S3rverCtor;
  const S3Error = require('s3rver/lib/models/error') as S3ErrorCtor;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const uploadsDir = () => server.store.getResourcePath(bucket, undefined, 'uploads');

  const multipartOps: Middleware = async (ctx, next) => {
    const m = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
    const uploadId = ctx.query.uploadId;
    const listParts = ctx.method === 'GET' && m && uploadId && !('partNumber' in ctx.query);
    const abort = ctx.method === 'DELETE' && m && uploadId;
    if (!(listParts || abort) || !m || !uploadId) return next();
    if (!/^[0-9a-f]+$/.test(uploadId) || m[1] !== bucket)
      throw new S3Error('NoSuchUpload', 'The specified upload does not exist.', { UploadId: uploadId });
    const dir = path.join(uploadsDir(), uploadId);
    const entries = await fsp.readdir(dir).catch(() => undefined);
    if (!entries)
      throw new S3Error('NoSuchUpload', 'The specified upload does not exist.', { UploadId: uploadId });
    if (abort) {
      await fsp.rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    const marker = Number(ctx.query['part-number-marker'] ?? 0);
    const numbers = entries
      .filter((e) => /^\d+$/.test(e))
      .map(Number)
      .filter((n) => n > marker)
      .sort((a, b) => a - b);
    const parts = await Promise.all(
      numbers.map(async (n) => {
        const st = await fsp.stat(path.join(dir, String(n)));
        const md5 = await fsp.readFile(path.join(dir, `${n}.md5`), 'utf8');
        return { PartNumber: n, LastModified: st.mtime.toISOString(), ETag: `"${md5}"`, Size: st.size };
      }),
    );
    ctx.body = {
      ListPartsResult: {
        Bucket: bucket,
        Key: decodeURIComponent(m[2]),
        UploadId: uploadId,
        PartNumberMarker: marker,
        NextPartNumberMarker: parts.length ? parts[parts.length - 1].PartNumber : marker,
        MaxParts: 10000,
        IsTruncated: false,
        ...(parts.length ? { Part: parts } : {}),
      },
    };
  };
  // Before s3rver's router (the last middleware), after its logging and XML encoding.
  server.middleware.splice(server.middleware.length - 1, 0, multipartOps);

  const served = new Map<string, number>();
  const countGets: Middleware = async (ctx, next) => {
    await next();
    const m = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
    if (ctx.method !== 'GET' || !m || ctx.query.uploadId || (ctx.status !== 200 && ctx.status !== 206))
      return;
    const key = decodeURIComponent(m[2]);
    served.set(key, (served.get(key) ?? 0) + (ctx.length ?? 0));
  };
  server.middleware.unshift(countGets);

  const { port } = await server.run();
  return {
    bucket,
    directory,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async pendingMultipartUploads() {
      const entries = await fsp.readdir(uploadsDir()).catch(() => [] as string[]);
      return entries.sort();
    },
    bytesServed: (key) => served.get(key) ?? 0,
    resetServed: () => served.clear(),
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
