// /v2/annotation-classes: an organization's annotation classes (name, colour). Anyone who may read the
// organization lists its classes and its ancestors'; those who may add annotations there (the
// manageOrganizationAnnotations policy) add, rename, recolour and remove them. A rename or recolour
// also rewrites the classification held in the content of that organization's (and its teams')
// annotations, so every annotation keeps naming a class of the list.
import crypto from 'node:crypto';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ANNOTATION_CLASSES_MAX,
  AnnotationClass,
  AnnotationClassCreateBody,
  AnnotationClassListQuery,
  AnnotationClassPatchBody,
  AnnotationClassResult,
} from '../../api/annotation-classes';
import { DeletedResult, IdParams, listEnvelope } from '../../api/common';
import type { Db } from '../db/client';
import { annotationClasses, organizations } from '../db/schema';
import { apiError, notFound } from '../http/errors';
import { accessOf, assertCreate, assertReadable } from '../http/guard';
import { isUniqueViolation } from '../reviews/repository';

import {
  deleteAnnotationClass,
  insertAnnotationClass,
  toClass,
  updateAnnotationClass,
  type ClassRow,
} from './class-repository';
import { reclassifyAnnotations } from './repository';

/** The organization if the caller may read it, else a 404. */
async function readableOrganization(db: Db, request: FastifyRequest, id: string) {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
  assertReadable(request, 'Organization', row ?? undefined, 'Organization');
  return row;
}

/** Managing an organization's classes takes the right to add annotations there. */
function assertManages(request: FastifyRequest, organizationId: string): void {
  const { actor } = accessOf(request);
  assertCreate(request, 'Annotation', { organizationId, creatorUserId: actor.userId });
}

/** The class `id` names, once the caller may read its organization and manage its classes. */
async function managedClass(db: Db, request: FastifyRequest, id: string): Promise<ClassRow> {
  const [stored] = await db.select().from(annotationClasses).where(eq(annotationClasses.id, id));
  if (!stored) throw notFound('Annotation class');
  await readableOrganization(db, request, stored.organizationId);
  assertManages(request, stored.organizationId);
  return stored;
}

export const annotationClassRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/',
    {
      schema: { querystring: AnnotationClassListQuery, response: { 200: listEnvelope(AnnotationClass) } },
    },
    async (request) => {
      const org = await readableOrganization(
        db,
        request,
        request.query.organizationId ?? accessOf(request).actor.orgId,
      );
      const ids = [org.id, ...(org.parentIds ?? [])];
      const rows = await db
        .select()
        .from(annotationClasses)
        .where(inArray(annotationClasses.organizationId, ids))
        .orderBy(asc(sql`lower(${annotationClasses.name})`), asc(annotationClasses.id));
      return { result: rows.map(toClass), count: rows.length, page: 1, limit: rows.length };
    },
  );

  app.post(
    '/',
    { schema: { body: AnnotationClassCreateBody, response: { 200: AnnotationClassResult } } },
    async (request) => {
      const { actor } = accessOf(request);
      const body = request.body.annotationClass;
      const organizationId = body.organizationId ?? actor.orgId;
      assertManages(request, organizationId);
      await readableOrganization(db, request, organizationId);
      const row = await db.transaction(async (tx) => {
        const [{ n }] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(annotationClasses)
          .where(eq(annotationClasses.organizationId, organizationId));
        if (Number(n) >= ANNOTATION_CLASSES_MAX) throw apiError('TOO_MANY_CLASSES');
        try {
          return await insertAnnotationClass(tx, {
            id: crypto.randomUUID(),
            organizationId,
            name: body.name,
            color: body.color.toLowerCase(),
            creatorUserId: actor.userId,
          });
        } catch (error) {
          if (isUniqueViolation(error)) throw apiError('DUPLICATE_CLASS', { name: body.name });
          throw error;
        }
      });
      return { result: toClass(row) };
    },
  );

  app.patch(
    '/:id',
    {
      schema: { params: IdParams, body: AnnotationClassPatchBody, response: { 200: AnnotationClassResult } },
    },
    async (request) => {
      const stored = await managedClass(db, request, request.params.id);
      const name = request.body.annotationClass.name ?? stored.name;
      const color = (request.body.annotationClass.color ?? stored.color).toLowerCase();
      if (name === stored.name && color === stored.color) return { result: toClass(stored) };
      const row = await db.transaction(async (tx) => {
        let updated: ClassRow;
        try {
          updated = await updateAnnotationClass(tx, stored.id, { name, color });
        } catch (error) {
          if (isUniqueViolation(error)) throw apiError('DUPLICATE_CLASS', { name });
          throw error;
        }
        // The organization's and its teams' annotations of this class follow the new name and colour.
        await reclassifyAnnotations(tx, stored.organizationId, stored.name, { name, color });
        return updated;
      });
      return { result: toClass(row) };
    },
  );

  app.delete('/:id', { schema: { params: IdParams, response: { 200: DeletedResult } } }, async (request) => {
    const stored = await managedClass(db, request, request.params.id);
    // Annotations keep the class name they hold; it is shown as it is, without the list's colour.
    await deleteAnnotationClass(db, stored.id);
    return { result: { id: stored.id } };
  });
};
