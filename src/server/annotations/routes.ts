// /v2/annotations: list by image, per-slide counts for the slide cards, read one, create in the own
// organization, change one's own content, delete one's own (spec §3, §6.2, §7).
import crypto from 'node:crypto';
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AnnotationCounts,
  AnnotationCountsQuery,
  AnnotationCreateBody,
  AnnotationListQuery,
  AnnotationPatchBody,
  AnnotationResult,
} from '../../api/annotations';
import { DeletedResult, IdParams, listEnvelope } from '../../api/common';
import { Annotation } from '../../api/entities';
import { recordActivity } from '../activities/record';
import { readScopeSql } from '../db/read-scope-sql';
import { annotations, images } from '../db/schema';
import { accessOf, assertCan, assertCreate, assertReadable, assertUpdate, scopeOf } from '../http/guard';
import {
  annotationChanges,
  annotationScope,
  checkAnnotationReferences,
  deleteAnnotation,
  findAnnotation,
  insertAnnotation,
  toAnnotation,
  updateAnnotation,
} from './repository';

export const annotationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/',
    { schema: { querystring: AnnotationListQuery, response: { 200: listEnvelope(Annotation) } } },
    async (request) => {
      const q = request.query;
      const where: (SQL | undefined)[] = [readScopeSql(scopeOf(request, 'Annotation'), annotationScope)];
      if (q.imageId?.length) where.push(inArray(annotations.imageId, q.imageId));
      if (q.reviewId?.length) where.push(inArray(annotations.reviewId, q.reviewId));
      if (q.creatorUserId) where.push(eq(annotations.creatorUserId, q.creatorUserId));
      const filter = and(...where);
      const order = q.orderDirection === 'asc' ? asc : desc;
      const [rows, [{ count }]] = await Promise.all([
        db
          .select()
          .from(annotations)
          .where(filter)
          .orderBy(order(annotations[q.orderBy]), order(annotations.id))
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
        db
          .select({ count: sql<number>`count(*)::int` })
          .from(annotations)
          .where(filter),
      ]);
      return { result: rows.map(toAnnotation), count: Number(count), page: q.page, limit: q.limit };
    },
  );

  app.get(
    '/counts',
    { schema: { querystring: AnnotationCountsQuery, response: { 200: AnnotationCounts } } },
    async (request) => {
      const ids = [...new Set(request.query.scanGroupId ?? [])];
      const counts: Record<string, number> = Object.fromEntries(ids.map((id) => [id, 0]));
      if (ids.length === 0) return { counts };
      const rows = await db
        .select({ scanGroupId: images.scanGroupId, n: sql<number>`count(*)::int` })
        .from(annotations)
        .innerJoin(images, eq(images.id, annotations.imageId))
        .where(
          and(
            inArray(images.scanGroupId, ids),
            readScopeSql(scopeOf(request, 'Annotation'), annotationScope),
          ),
        )
        .groupBy(images.scanGroupId);
      for (const r of rows) if (r.scanGroupId) counts[r.scanGroupId] = Number(r.n);
      return { counts };
    },
  );

  app.get('/:id', { schema: { params: IdParams, response: { 200: AnnotationResult } } }, async (request) => {
    const row = await findAnnotation(db, request.params.id);
    assertReadable(request, 'Annotation', row, 'Annotation');
    return { result: toAnnotation(row!) };
  });

  app.post(
    '/',
    { schema: { body: AnnotationCreateBody, response: { 200: AnnotationResult } } },
    async (request) => {
      const body = request.body.annotation;
      const { actor } = accessOf(request);
      const values = {
        id: crypto.randomUUID(),
        creatorUserId: body.creatorUserId ?? actor.userId,
        organizationId: body.organizationId ?? actor.orgId,
        imageId: body.imageId,
        content: body.content ?? null,
        name: body.name ?? '',
        sourceImageId: body.sourceImageId ?? null,
        reviewId: body.reviewId ?? null,
      };
      assertCreate(request, 'Annotation', values, Object.keys(body));
      await checkAnnotationReferences(db, request, values);
      const row = await db.transaction(async (tx) => {
        const created = await insertAnnotation(tx, values);
        await recordActivity(tx, {
          actionType: 'create',
          reference: 'Annotation',
          referenceId: created.id,
          diff: { imageId: created.imageId, name: created.name },
          creatorUserId: actor.userId,
          organizationId: actor.orgId,
        });
        return created;
      });
      return { result: toAnnotation(row) };
    },
  );

  app.patch(
    '/:id',
    { schema: { params: IdParams, body: AnnotationPatchBody, response: { 200: AnnotationResult } } },
    async (request) => {
      const stored = await findAnnotation(db, request.params.id);
      assertReadable(request, 'Annotation', stored, 'Annotation');
      const { actor } = accessOf(request);
      const changes = annotationChanges(stored!, request.body.annotation);
      if (Object.keys(changes).length === 0) return { result: toAnnotation(stored!) };
      // `content` is one field whatever its JSON shape: checked as a leaf, not as content.type etc.
      const fields = Object.fromEntries(Object.keys(changes).map((k) => [k, JSON.stringify(changes[k])]));
      assertUpdate(request, 'Annotation', stored!, fields);
      const row = await db.transaction(async (tx) => {
        const updated = await updateAnnotation(tx, stored!.id, changes);
        await recordActivity(tx, {
          actionType: 'update',
          reference: 'Annotation',
          referenceId: updated.id,
          diff: { fields: Object.keys(changes) },
          creatorUserId: actor.userId,
          organizationId: actor.orgId,
        });
        return updated;
      });
      return { result: toAnnotation(row) };
    },
  );

  app.delete('/:id', { schema: { params: IdParams, response: { 200: DeletedResult } } }, async (request) => {
    const stored = await findAnnotation(db, request.params.id);
    assertReadable(request, 'Annotation', stored, 'Annotation');
    assertCan(request, 'delete', 'Annotation', stored!);
    const { actor } = accessOf(request);
    await db.transaction(async (tx) => {
      await deleteAnnotation(tx, stored!.id);
      await recordActivity(tx, {
        actionType: 'delete',
        reference: 'Annotation',
        referenceId: stored!.id,
        diff: { imageId: stored!.imageId },
        creatorUserId: actor.userId,
        organizationId: actor.orgId,
      });
      // Annotations are not a mirrored kind (src/api/sync.ts), so there is no tombstone to record.
    });
    return { result: { id: stored!.id } };
  });
};
