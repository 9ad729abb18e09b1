// A minimal tus 1.0 client over app.inject for the upload tests: creation, PATCH with checksum,
// HEAD, DELETE, and a whole-file helper that sends a file in chunks.
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { bearer } from './helpers';

export const TUS = { 'tus-resumable': '1.0.0' };

export const encodeMetadata = (meta: Record<string, string | number | undefined>) =>
  Object.entries(meta)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k} ${Buffer.from(String(v)).toString('base64')}`)
    .join(',');

export const sha1 = (b: Buffer) => crypto.createHash('sha1').update(b).digest('base64');
export const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

export interface CreateOptions {
  filename: string;
  size: number;
  groupId?: string;
  groupSize?: number;
  relativePath?: string;
}

export function tusClient(app: FastifyInstance, token: string) {
  const auth = bearer(token);
  return {
    async create(o: CreateOptions) {
      const res = await app.inject({
        method: 'POST',
        url: '/v2/uploads',
        headers: {
          ...auth,
          ...TUS,
          'upload-length': String(o.size),
          'upload-metadata': encodeMetadata({
            filename: o.filename,
            groupId: o.groupId ?? crypto.randomUUID(),
            groupSize: o.groupSize ?? 1,
            relativePath: o.relativePath,
          }),
        },
      });
      const location = res.headers.location as string | undefined;
      return { res, location, id: location?.split('/').pop() };
    },
    patch(location: string, offset: number, body: Buffer, checksum: string | null = sha1(body)) {
      return app.inject({
        method: 'PATCH',
        url: location,
        headers: {
          ...auth,
          ...TUS,
          'content-type': 'application/offset+octet-stream',
          'upload-offset': String(offset),
          ...(checksum ? { 'upload-checksum': `sha1 ${checksum}` } : {}),
        },
        payload: body,
      });
    },
    head(location: string) {
      return app.inject({ method: 'HEAD', url: location, headers: { ...auth, ...TUS } });
    },
    remove(location: string) {
      return app.inject({ method: 'DELETE', url: location, headers: { ...auth, ...TUS } });
    },
    /** Creates and sends a whole file in chunks of `chunk` bytes; returns the last PATCH's answer. */
    async upload(o: Omit<CreateOptions, 'size'> & { bytes: Buffer; chunk?: number }) {
      const created = await this.create({ ...o, size: o.bytes.length });
      if (created.res.statusCode !== 201)
        throw new Error(`create: ${created.res.statusCode} ${created.res.body}`);
      const chunk = o.chunk ?? 256 * 1024;
      let last;
      for (let offset = 0; offset < o.bytes.length; offset += chunk) {
        last = await this.patch(created.location!, offset, o.bytes.subarray(offset, offset + chunk));
        if (last.statusCode !== 204) throw new Error(`patch: ${last.statusCode} ${last.body}`);
      }
      return { ...created, last };
    },
  };
}
