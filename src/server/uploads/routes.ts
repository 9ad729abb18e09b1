// /v2/uploads: the tus 1.0 endpoint (creation, termination, checksum, expiration) on @tus/server,
// in its own plugin scope so that Fastify leaves request bodies to tus (STACK gotcha 8).
// Everything that needs the caller or the database happens here before tus sees a request: the
// metadata, extension, size and permission checks of a creation (nothing is stored when they fail),
// ownership of a resource, the answer for uploads already finished, and termination of a group.
// PATCH bodies do not go through tus at all (patch.ts).
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Metadata } from '@tus/utils';
import { inputIssue } from '../../api/input';
import { slideFileRole } from '../../api/slide-formats';
import { TUS_VERSION, UploadIdParams, UploadMetadata } from '../../api/uploads';
import { actorOf } from '../http/authenticate';
import { apiError, notFound } from '../http/errors';
import { assertCan } from '../http/guard';
import { cancelGroup, finishPart } from './assemble';
import { describeBytes } from './config';
import { patchUpload } from './patch';
import {
  deletePart,
  findGroup,
  findPart,
  insertGroupIfNew,
  insertPart,
  nameGroup,
  partsOf,
} from './repository';
import { uploadRuntime } from './runtime';
import { chunkContext, parseChecksumHeader, type ChunkContext } from './store';

const header = (request: FastifyRequest, name: string): string | undefined => {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

const gone = () => apiError('UPLOAD_GONE');

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
      throw apiError('TUS_LENGTH_REQUIRED');
    const size = Number(header(request, 'upload-length'));
    if (!Number.isSafeInteger(size) || size < 0) throw apiError('TUS_LENGTH_INVALID');
    let raw: Record<string, string | null>;
    try {
      raw = Metadata.parse(header(request, 'upload-metadata'));
    } catch {
      throw apiError('TUS_METADATA_INVALID');
    }
    const unfit = inputIssue(raw, 'metadata');
    if (unfit) throw apiError('VALIDATION', unfit);
    const parsed = UploadMetadata.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw apiError('TUS_METADATA_FIELD', { path: issue.path.join('.'), problem: issue.message });
    }
    // A file sent without a group (a plain tus client) is a group of one under an id of our own.
    const meta = { ...parsed.data, groupId: parsed.data.groupId ?? crypto.randomUUID() };
    const role = slideFileRole(meta.filename);
    if (role === 'folderMain' && meta.groupSize === 1) throw apiError('MRXS_NEEDS_FOLDER');
    const alone = role === 'single';
    const inFolder = role === 'folderMain' || role === 'folderData';
    if (!(alone ? meta.groupSize === 1 : inFolder && meta.groupSize > 1))
      throw apiError('INCOMPATIBLE_FILE_FORMAT');
    if (size > rt.settings.maxBytes)
      throw apiError('TOO_LARGE', { max: describeBytes(rt.settings.maxBytes) });
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
      await insertGroupIfNew(tx, {
        id: meta.groupId,
        creatorUserId: actor.user.id,
        organizationId: actor.organization.id,
        fileCount: meta.groupSize,
      });
      const group = (await findGroup(tx, meta.groupId, true))!;
      if (group.creatorUserId !== actor.user.id) throw apiError('GROUP_TAKEN');
      if (group.status !== 'uploading') throw apiError('GROUP_CLOSED');
      if (group.fileCount !== meta.groupSize) throw apiError('TUS_GROUP_SIZE_DIFFERS');
      const parts = await partsOf(tx, meta.groupId);
      if (parts.some((p) => p.relativePath === relativePath)) throw apiError('DUPLICATE_PART');
      if (parts.length >= group.fileCount) throw apiError('GROUP_FULL');
      if (!group.name && (role === 'single' || role === 'folderMain'))
        await nameGroup(tx, meta.groupId, meta.filename);
      await insertPart(tx, {
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
    if (reply.raw.statusCode >= 400) await deletePart(db, id);
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
    if (part.status === 'complete') throw apiError('UPLOAD_COMPLETE');
    if (part.status !== 'uploading') throw gone();
    const checksum = parseChecksumHeader(header(request, 'upload-checksum'));
    return patchUpload(rt, request, reply, part.id, checksum);
  });

  // Termination: cancels the whole group (an .mrxs folder is one upload) and frees every byte of it.
  app.delete('/:id', { schema: { params: UploadIdParams, hide: true } }, async (request, reply) => {
    const part = await ownPart(request, request.params.id);
    if (!(await cancelGroup(rt.deps, part.groupId))) throw apiError('UPLOAD_FINISHED');
    return reply.status(204).send();
  });
};
