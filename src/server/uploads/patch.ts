// PATCH /v2/uploads/:id, the tus 1.0 core request, answered here rather than by @tus/server: tus 2.x
// turns the Node request into a web Request, its body into a web ReadableStream and back into three
// Node stream stages, with one file write per 16–64 KiB piece a browser sends — four times the CPU
// of receiving the bytes (bench/README.md, uploads). The body goes from the Node request to the
// store (`writeChunk`) instead, under the same lock tus uses for the resource. The protocol is tus's:
// Upload-Offset must match (409), Content-Type is application/offset+octet-stream, the body may not
// pass the upload's length (413), an expired resource is 410, the answer is 204 with Upload-Offset
// (and Upload-Expires while unfinished); the checksum extension's Upload-Checksum is verified (460).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS, TUS_RESUMABLE } from '@tus/utils';
import { apiError, tusError } from '../http/errors';
import { finishPart } from './assemble';
import type { UploadRuntime } from './runtime';

/** tus's own wait before a request holding a resource's lock is stopped for a newer one. */
const LOCK_DRAIN_MS = 3000;

interface TusError {
  status_code: number;
  body: string;
}
const isTusError = (e: unknown): e is TusError =>
  !!e && typeof e === 'object' && typeof (e as TusError).status_code === 'number';
const fail = (e: TusError) => tusError(e.status_code, e.body);

const header = (request: FastifyRequest, name: string): string | undefined => {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export async function patchUpload(
  rt: UploadRuntime,
  request: FastifyRequest,
  reply: FastifyReply,
  id: string,
  checksum: string | undefined,
): Promise<FastifyReply> {
  if (header(request, 'tus-resumable') !== TUS_RESUMABLE) {
    reply.header('Tus-Version', TUS_RESUMABLE);
    throw apiError('TUS_VERSION');
  }
  const offsetText = header(request, 'upload-offset');
  if (offsetText === undefined) throw fail(ERRORS.MISSING_OFFSET);
  const offset = Number(offsetText);
  if (!Number.isSafeInteger(offset) || offset < 0 || String(offset) !== offsetText)
    throw apiError('TUS_OFFSET_INVALID');
  const type = header(request, 'content-type');
  if (type === undefined) throw fail(ERRORS.INVALID_CONTENT_TYPE);
  if (type !== 'application/offset+octet-stream') throw apiError('TUS_CONTENT_TYPE_INVALID');
  if (header(request, 'upload-length') !== undefined)
    throw fail(ERRORS.UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION);
  const lengthText = header(request, 'content-length');
  const contentLength = lengthText === undefined ? undefined : Number(lengthText);

  // The resource's lock, as tus takes it: a newer request for the same upload (a second client, a
  // resume after a connection the server has not seen close) stops this one after a short drain.
  const stop = new AbortController();
  let drain: ReturnType<typeof setTimeout> | undefined;
  const lock = rt.locker.newLock(id);
  try {
    await lock.lock(stop.signal, () => {
      drain ??= setTimeout(() => stop.abort(), LOCK_DRAIN_MS);
    });
  } catch (e) {
    throw isTusError(e) ? fail(e) : e;
  }
  let upload;
  let end: number;
  try {
    upload = await rt.store.getUpload(id);
    const expiry = rt.store.getExpiration();
    const created = upload.creation_date ? new Date(upload.creation_date).getTime() : Date.now();
    if (expiry > 0 && Date.now() > created + expiry) throw ERRORS.FILE_NO_LONGER_EXISTS;
    if (upload.offset !== offset) throw ERRORS.INVALID_OFFSET;
    const limit = (upload.size ?? Number.MAX_SAFE_INTEGER) - offset;
    if (contentLength !== undefined && contentLength > limit) throw ERRORS.ERR_SIZE_EXCEEDED;
    end = await rt.store.writeChunk(request.raw, id, offset, {
      checksum,
      contentLength,
      limit,
      signal: stop.signal,
    });
  } catch (e) {
    // A request stopped half-way leaves its connection with unread bytes: close it after answering.
    if (stop.signal.aborted) reply.header('Connection', 'close');
    if ((e as NodeJS.ErrnoException).code === 'ENOSPC') throw apiError('STORAGE_FULL');
    throw isTusError(e) ? fail(e) : e;
  } finally {
    clearTimeout(drain);
    await lock.unlock();
  }

  if (end === upload.size) await finishPart(rt.deps, id);
  reply.header('Upload-Offset', String(end));
  const expiry = rt.store.getExpiration();
  if (expiry > 0 && upload.creation_date && (upload.size === undefined || end < upload.size))
    reply.header('Upload-Expires', new Date(new Date(upload.creation_date).getTime() + expiry).toUTCString());
  return reply.status(204).send();
}
