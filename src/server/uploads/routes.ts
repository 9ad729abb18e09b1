// /v2/uploads: the tus 1.0 endpoint (creation, termination, checksum, expiration) on @tus/server,
// in its own plugin scope so that Fastify leaves request bodies to tus (STACK gotcha 8).
// Everything that needs the caller or the database happens here before tus sees a request: the
// metadata, extension, size and permission checks of a creation (nothing is stored when they fail),
// ownership of a resource, the answer for uploads already finished, and termination of a group.
// PATCH bodies do not go through tus at all (patch.ts).
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Metadata } from '@tus/utils';
import { inputProblem } from '../../api/input';
import { UploadText } from '../../api/messages';
import {
  extensionOf,
  isMrxsDataFile,
  isSlideFile,
  TUS_VERSION,
  UploadIdParams,
  UploadMetadata,
  UploadOwnText,
} from '../../api/uploads';
import { uploadGroups, uploads } from '../db/schema';
import { actorOf } from '../http/authenticate';
import { badRequest, conflict, HttpError, notFound } from '../http/errors';
import { assertCan } from '../http/guard';
import { cancelGroup, finishPart } from './assemble';
import { describeBytes } from './config';
import { patchUpload } from './patch';
import { findGroup, findPart, partsOf } from './repository';
import { uploadRuntime } from './runtime';
import { chunkContext, parseChecksumHeader, type ChunkContext } from './store';

const header = (request: FastifyRequest, name: string): string | undefined => {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

const gone = () => new HttpError(410, 'This upload was canceled or has expired', 'UPLOAD_GONE');
const incompatible = (message: string = UploadText.incompatibleFormat) =>
  new HttpError(415, message, 'INCOMPATIBLE_FILE_FORMAT');

export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  const rt = uploadRuntime(app);
  const { db } = app.ctx;

  // tus reads the bodies itself: no parser may touch them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  // Our own answers (errors, finished uploads) are tus answers too.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('Tus-Resumable', TUS_VERSION);
    reply.header('Cache-Control', 'no-store');
    return payload;
  });

  const toTus = async (request: FastifyRequest, reply: FastifyReply, ctx: ChunkContext = {}) => {
    reply.hijack();
    await chunkContext.run(ctx, () => rt.tus.handle(request.raw, reply.raw));
  };

  /** The caller's own resource, or 404: nobody learns of another's upload. */
  const ownPart = async (request: FastifyRequest, id: string) => {
    const part = await findPart(db, id);
    if (!part || part.creatorUserId !== actorOf(request).user.id) throw notFound('Upload');
    return part;
  };

  /** A finished upload answers HEAD itself: its bytes may already have moved to the image. */
  const finished = (reply: FastifyReply, size: number) =>
    reply.status(200).header('Upload-Offset', String(size)).header('Upload-Length', String(size)).send();

  for (const url of ['/', '/:id']) {
    // Discovery (Tus-Version, Tus-Extension, Tus-Max-Size); the checksum algorithm is ours to add.
    app.options(url, { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
      reply.raw.setHeader('Tus-Checksum-Algorithm', 'sha1');
      await toTus(request, reply);
    });
  }

  app.post('/', { schema: { hide: true } }, async (request, reply) => {
    const actor = actorOf(request);
    if (
      header(request, 'upload-defer-length') !== undefined ||
      header(request, 'upload-length') === undefined
    )
      throw badRequest('Upload-Length is required');
    const size = Number(header(request, 'upload-length'));
    if (!Number.isSafeInteger(size) || size < 0) throw badRequest('Upload-Length must be a byte count');
    let raw: Record<string, string | null>;
    try {
      raw = Metadata.parse(header(request, 'upload-metadata'));
    } catch {
      throw badRequest('Upload-Metadata is not valid tus metadata');
    }
    const unfit = inputProblem(raw, 'metadata');
    if (unfit) throw badRequest(unfit, 'VALIDATION');
    const parsed = UploadMetadata.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw badRequest(`metadata.${issue.path.join('.')}: ${issue.message}`);
    }
    // A file sent without a group (a plain tus client) is a group of one under an id of our own.
    const meta = { ...parsed.data, groupId: parsed.data.groupId ?? crypto.randomUUID() };
    const ext = extensionOf(meta.filename);
    if (ext === '.mrxs' && meta.groupSize === 1) throw incompatible(UploadOwnText.mrxsNeedsFolder);
    const alone = isSlideFile(meta.filename) && ext !== '.mrxs';
    const inFolder = ext === '.mrxs' || isMrxsDataFile(meta.filename);
    if (!(alone ? meta.groupSize === 1 : inFolder && meta.groupSize > 1)) throw incompatible();
    if (size > rt.settings.maxBytes)
      throw new HttpError(413, UploadOwnText.tooLarge(describeBytes(rt.settings.maxBytes)), 'TOO_LARGE');
    assertCan(request, 'create', 'Image', {
      organizationId: actor.organization.id,
      creatorUserId: actor.user.id,
      storageStatus: 'active',
    });

    const id = crypto.randomBytes(16).toString('hex');
    const relativePath = meta.relativePath ?? meta.filename;
    const now = new Date();
    const expiresAt = new Date(now.getTime() + (rt.settings.expiryMs || 100 * 365 * 86_400_000));
    await db.transaction(async (tx) => {
      await tx
        .insert(uploadGroups)
        .values({
          id: meta.groupId,
          creatorUserId: actor.user.id,
          organizationId: actor.organization.id,
          fileCount: meta.groupSize,
        })
        .onConflictDoNothing({ target: uploadGroups.id });
      const group = (await findGroup(tx, meta.groupId, true))!;
      if (group.creatorUserId !== actor.user.id) throw conflict(UploadOwnText.groupTaken);
      if (group.status !== 'uploading') throw conflict(UploadOwnText.groupClosed, 'GROUP_CLOSED');
      if (group.fileCount !== meta.groupSize)
        throw badRequest('metadata.groupSize: differs from the group’s');
      const parts = await partsOf(tx, meta.groupId);
      if (parts.some((p) => p.relativePath === relativePath)) throw conflict(UploadOwnText.duplicatePart);
      if (parts.length >= group.fileCount) throw conflict(UploadOwnText.groupFull);
      if (!group.name && isSlideFile(meta.filename))
        await tx.update(uploadGroups).set({ name: meta.filename }).where(eq(uploadGroups.id, meta.groupId));
      await tx.insert(uploads).values({
        id,
        groupId: meta.groupId,
        creatorUserId: actor.user.id,
        fileName: meta.filename,
        relativePath,
        size,
        expiresAt,
      });
    });
    await toTus(request, reply, { newUploadId: id });
    // tus could not create the resource (a full disk: 507): the part is forgotten, so a retry starts afresh.
    if (reply.raw.statusCode >= 400) await db.delete(uploads).where(eq(uploads.id, id));
  });

  app.head('/:id', { schema: { params: UploadIdParams, hide: true } }, async (request, reply) => {
    const part = await ownPart(request, request.params.id);
    if (part.status === 'complete') return finished(reply, part.size);
    if (part.status !== 'uploading') throw gone();
    // All bytes in but never recorded (the server stopped between the last byte and the database):
    // finish now, since the client will not send another PATCH.
    const stored = await rt.store.getUpload(part.id).catch(() => undefined);
    if (stored && stored.offset === part.size) {
      await finishPart(rt.deps, part.id);
      return finished(reply, part.size);
    }
    await toTus(request, reply);
  });

  app.patch('/:id', { schema: { params: UploadIdParams, hide: true } }, async (request, reply) => {
    const part = await ownPart(request, request.params.id);
    if (part.status === 'complete') throw conflict('This upload is already complete', 'UPLOAD_COMPLETE');
    if (part.status !== 'uploading') throw gone();
    let checksum: string | undefined;
    try {
      checksum = parseChecksumHeader(header(request, 'upload-checksum'));
    } catch (e) {
      throw badRequest((e as Error).message, 'BAD_CHECKSUM');
    }
    return patchUpload(rt, request, reply, part.id, checksum);
  });

  // Termination: cancels the whole group (an .mrxs folder is one upload) and frees every byte of it.
  app.delete('/:id', { schema: { params: UploadIdParams, hide: true } }, async (request, reply) => {
    const part = await ownPart(request, request.params.id);
    if (!(await cancelGroup(rt.deps, part.groupId)))
      throw conflict('This upload has already finished', 'UPLOAD_FINISHED');
    return reply.status(204).send();
  });
};
