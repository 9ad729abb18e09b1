// /v2/images: list by slide, stats, read, update (status and display only while storage is active,
// §4.5), and signed download URLs for the original, the thumbnail and the slide label (§7, §9).
// The traceback is only shown to super admins (redactImage).
import { and, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { redactImage } from '../../access';
import { IdParams, listEnvelope } from '../../api/common';
import { Image } from '../../api/entities';
import {
  DownloadUrl,
  ImageListQuery,
  ImageResult,
  ImageStats,
  ImageStatsQuery,
  UpdateImageBody,
  type ImageFilters,
} from '../../api/images';
import { recordActivity } from '../activities/record';
import { loadSigningSecret } from '../auth/secret';
import { images } from '../db/schema';
import { readScopeSql } from '../db/read-scope-sql';
import { accessOf, assertCan, assertUpdate, scopeOf } from '../http/guard';
import { linkOrigin } from '../http/origins';
import { containsPattern, dateRange, ordering, pageOf } from '../lists/list-sql';
import { imageCancelRoute } from './cancel-route';
import { fileSigner } from './file-urls';
import {
  imageScope,
  imageSubject,
  readableImage,
  toImage,
  updateImage,
  type ImageFileKind,
} from './repository';

/** The image as this caller may see it: without info.traceback unless a super admin. */
export function redacted(request: FastifyRequest, image: Image): Image {
  const out = redactImage(accessOf(request).ability, {
    ...image,
    scanGroupId: image.scanGroupId ?? undefined,
  });
  return { ...out, scanGroupId: image.scanGroupId };
}

/** Filters shared by the list and the stats (§7 "Filters used": images by scanGroupId, and more). */
function filters(request: FastifyRequest, q: ImageFilters) {
  const where: SQL[] = [];
  const scope = readScopeSql(scopeOf(request, 'Image'), imageScope);
  if (scope) where.push(scope);
  if (q.scanGroupId) where.push(inArray(images.scanGroupId, q.scanGroupId));
  if (q.id) where.push(inArray(images.id, q.id));
  if (q.organizationId) where.push(inArray(images.organizationId, q.organizationId));
  if (q.creatorUserId) where.push(inArray(images.creatorUserId, q.creatorUserId));
  if (q.status) where.push(inArray(images.status, q.status));
  if (q.storageStatus) where.push(inArray(images.storageStatus, q.storageStatus));
  if (q.sourceImageId) where.push(inArray(images.sourceImageId, q.sourceImageId));
  if (q.name) where.push(ilike(images.name, containsPattern(q.name)));
  where.push(...dateRange(images.createdAt, q.createdAtStart, q.createdAtEnd));
  return where;
}

export const imageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;
  const signer = fileSigner(await loadSigningSecret(db, app.ctx.config.jwtSecret));

  app.get(
    '/',
    { schema: { querystring: ImageListQuery, response: { 200: listEnvelope(Image) } } },
    async (request) => {
      const q = request.query;
      const { rows, count } = await pageOf(
        db,
        images,
        filters(request, q),
        ordering(images[q.orderBy], q.orderDirection, images.id),
        q,
      );
      return { result: rows.map((r) => redacted(request, toImage(r))), count, page: q.page, limit: q.limit };
    },
  );

  app.get(
    '/stats',
    { schema: { querystring: ImageStatsQuery, response: { 200: ImageStats } } },
    async (request) => {
      const where = filters(request, request.query);
      const [{ total }] = await db
        .select({ total: sql<string>`coalesce(sum(${images.fileSize}), 0)::text` })
        .from(images)
        .where(and(...where));
      return { totalFileSize: Number(total) };
    },
  );

  app.get('/:id', { schema: { params: IdParams, response: { 200: ImageResult } } }, async (request) => {
    const { entity } = await readableImage(db, request, request.params.id);
    return { result: redacted(request, entity) };
  });

  app.patch(
    '/:id',
    { schema: { params: IdParams, body: UpdateImageBody, response: { 200: ImageResult } } },
    async (request) => {
      const { actor } = accessOf(request);
      const patch = request.body.image;
      const result = await db.transaction(async (tx) => {
        const { row, entity } = await readableImage(tx, request, request.params.id, true);
        if (Object.keys(patch).length === 0) return entity;
        assertUpdate(request, 'Image', imageSubject(entity), patch);
        const { info, ...plain } = patch;
        const set: PgUpdateSetSource<typeof images> = { ...plain };
        if (info) set.info = sql`${images.info} || ${JSON.stringify(info)}::jsonb`;
        const updated = await updateImage(tx, row.id, set);
        // The activity feed is read more widely than the traceback may be: keep it out.
        const { traceback: _hidden, ...safeInfo } = info ?? {};
        await recordActivity(tx, {
          actionType: 'update',
          reference: 'Image',
          referenceId: row.id,
          diff: info ? { ...plain, info: safeInfo } : plain,
          creatorUserId: actor.userId,
          organizationId: actor.orgId,
        });
        return toImage(updated);
      });
      return { result: redacted(request, result) };
    },
  );

  const urlFor = (request: FastifyRequest, imageId: string, kind: ImageFileKind) => {
    const { token } = signer.sign(imageId, kind);
    const origin = linkOrigin(app, request);
    return { url: `${origin}/v2/files/${token}` };
  };

  app.get(
    '/:id/download-url',
    { schema: { params: IdParams, response: { 200: DownloadUrl } } },
    async (request) => {
      const { entity } = await readableImage(db, request, request.params.id);
      // 'You can only download active images' comes from the access rules' denial.
      assertCan(request, 'download', 'Image', imageSubject(entity));
      return urlFor(request, entity.id, 'original');
    },
  );

  await app.register(imageCancelRoute);

  // Previews are part of seeing the image: reading it is enough, whatever its storage.
  for (const [path, kind] of [
    ['/:id/thumbnail/download-url', 'thumbnail'],
    ['/:id/labels/download-url', 'label'],
  ] as const) {
    app.get(path, { schema: { params: IdParams, response: { 200: DownloadUrl } } }, async (request) => {
      const { entity } = await readableImage(db, request, request.params.id);
      return urlFor(request, entity.id, kind);
    });
  }
};
