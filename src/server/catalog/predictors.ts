// /v2/predictors: the assays (§3 Predictor) a pipeline runs. Everyone reads them (the Assay filter,
// §2.7); platform administrators create, change and delete them.
import crypto from 'node:crypto';
import { and, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PredictorCreateBody,
  PredictorListQuery,
  PredictorPatchBody,
  type PredictorFields,
} from '../../api/catalog';
import { DeletedResult, IdParams, listEnvelope } from '../../api/common';
import { Predictor } from '../../api/entities';
import { recordActivity } from '../activities/record';
import type { Db } from '../db/client';
import { organizations, organs, pipelines, predictors } from '../db/schema';
import { apiError, notFound } from '../http/errors';
import { accessOf, assertCan, assertUpdate } from '../http/guard';
import { likePattern } from '../organizations/like';
import { sqlArray } from '../users/repository';
import { changedOnly } from '../organizations/validate';
import { recordDeletion } from '../sync/kinds';
import { assertExist } from './exists';
import { toPredictor } from './entities';
import { orderOf, pageWindow } from './order';
import { deletePredictor, insertPredictor, updatePredictor } from './repository';

const One = z.object({ result: Predictor });
type Fields = Partial<z.output<typeof PredictorFields>>;

async function checkReferences(db: Db, p: Fields) {
  await assertExist(db, organs, organs.id, p.organId ? [p.organId] : [], () =>
    apiError('NO_SUCH_ORGAN', { field: 'organId' }),
  );
  await assertExist(db, organizations, organizations.id, p.organizationId ? [p.organizationId] : [], (id) =>
    apiError('NO_SUCH_ORGANIZATION', { field: 'organizationId', id }),
  );
}

/** Body fields → column values: dates become Dates; everything else maps one to one. */
function columns(p: Fields) {
  const { archiveAt, ...rest } = p;
  return {
    ...rest,
    ...(archiveAt !== undefined ? { archiveAt: archiveAt === null ? null : new Date(archiveAt) } : {}),
  };
}

export const predictorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;
  const find = async (id: string) => (await db.select().from(predictors).where(eq(predictors.id, id)))[0];

  app.get(
    '/',
    { schema: { querystring: PredictorListQuery, response: { 200: listEnvelope(Predictor) } } },
    async (request) => {
      const q = request.query;
      const where: (SQL | undefined)[] = [];
      if (q.name) {
        const pattern = likePattern(q.name);
        where.push(or(ilike(predictors.name, pattern), ilike(predictors.title, pattern)));
      }
      if (q.organId?.length) where.push(inArray(predictors.organId, q.organId));
      if (q.scanType?.length) where.push(sql`${predictors.scanType} = ANY(${sqlArray(q.scanType)})`);
      if (q.id?.length) where.push(inArray(predictors.id, q.id));
      const filter = and(...where);
      const { limit, offset } = pageWindow(q);
      const order = {
        name: predictors.name,
        createdAt: predictors.createdAt,
        updatedAt: predictors.updatedAt,
      };
      const [rows, [{ count }]] = await Promise.all([
        db
          .select()
          .from(predictors)
          .where(filter)
          .orderBy(...orderOf(q, order, predictors.id))
          .limit(limit)
          .offset(offset),
        db
          .select({ count: sql<number>`count(*)::int` })
          .from(predictors)
          .where(filter),
      ]);
      return { result: rows.map(toPredictor), count: Number(count), page: q.page, limit: q.limit };
    },
  );

  app.get('/:id', { schema: { params: IdParams, response: { 200: One } } }, async (request) => {
    const row = await find(request.params.id);
    if (!row) throw notFound('Predictor');
    return { result: toPredictor(row) };
  });

  app.post('/', { schema: { body: PredictorCreateBody, response: { 200: One } } }, async (request) => {
    const { actor } = accessOf(request);
    const body = request.body.predictor;
    const id = crypto.randomUUID();
    assertCan(request, 'create', 'Predictor', { id, creatorUserId: actor.userId });
    await checkReferences(db, body);
    const row = await db.transaction(async (tx) => {
      const created = await insertPredictor(tx, {
        ...columns(body),
        name: body.name,
        id,
        creatorUserId: actor.userId,
      });
      await recordActivity(tx, {
        actionType: 'create',
        reference: 'Predictor',
        referenceId: id,
        diff: { name: body.name, version: created.version },
        creatorUserId: actor.userId,
        organizationId: actor.orgId,
      });
      return created;
    });
    return { result: toPredictor(row) };
  });

  app.patch(
    '/:id',
    { schema: { params: IdParams, body: PredictorPatchBody, response: { 200: One } } },
    async (request) => {
      const { actor } = accessOf(request);
      const row = await db.transaction(async (tx) => {
        const [stored] = await tx
          .select()
          .from(predictors)
          .where(eq(predictors.id, request.params.id))
          .for('update');
        if (!stored) throw notFound('Predictor');
        const asSent = toPredictor(stored) as unknown as Record<string, unknown>;
        const patch = changedOnly(asSent, request.body.predictor ?? {}) as Fields;
        if (Object.keys(patch).length === 0) return stored;
        assertUpdate(request, 'Predictor', { id: stored.id, creatorUserId: stored.creatorUserId }, patch);
        await checkReferences(tx, patch);
        const updated = await updatePredictor(tx, stored.id, { ...columns(patch), updatedAt: new Date() });
        await recordActivity(tx, {
          actionType: 'update',
          reference: 'Predictor',
          referenceId: stored.id,
          diff: patch,
          creatorUserId: actor.userId,
          organizationId: actor.orgId,
        });
        return updated;
      });
      return { result: toPredictor(row) };
    },
  );

  app.delete('/:id', { schema: { params: IdParams, response: { 200: DeletedResult } } }, async (request) => {
    const { actor } = accessOf(request);
    const row = await find(request.params.id);
    if (!row) throw notFound('Predictor');
    assertCan(request, 'delete', 'Predictor', { id: row.id, creatorUserId: row.creatorUserId });
    await db.transaction(async (tx) => {
      const [used] = await tx
        .select({ id: pipelines.id })
        .from(pipelines)
        .where(sql`${pipelines.predictorIds} @> ${sqlArray([row.id])}`)
        .limit(1);
      if (used) throw apiError('PREDICTOR_IN_USE');
      await deletePredictor(tx, row.id);
      await recordDeletion(tx, 'predictors', [row.id]);
      await recordActivity(tx, {
        actionType: 'delete',
        reference: 'Predictor',
        referenceId: row.id,
        diff: { name: row.name },
        creatorUserId: actor.userId,
        organizationId: actor.orgId,
      });
    });
    return { result: { id: row.id } };
  });
};
