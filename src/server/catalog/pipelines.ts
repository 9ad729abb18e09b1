// /v2/pipelines: staining pipelines (an organ and its predictors) that scan orders are placed on.
// Readable by the organizations they are assigned to and those organizations' teams; managed by
// platform administrators (§1, §3 Pipeline).
import crypto from 'node:crypto';
import { and, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PipelineCreateBody, PipelineListQuery, PipelinePatchBody } from '../../api/catalog';
import { DeletedResult, IdParams, listEnvelope } from '../../api/common';
import { Pipeline } from '../../api/entities';
import { SET_FIELDS } from '../../api/set-fields';
import { recordActivity } from '../activities/record';
import type { Db } from '../db/client';
import { organizations, organs, pipelines, predictors, scanOrders } from '../db/schema';
import { readScopeSql, type ScopeColumns } from '../db/read-scope-sql';
import { apiError, notFound } from '../http/errors';
import { accessOf, assertCan, assertReadable, assertUpdate, scopeOf } from '../http/guard';
import { likePattern } from '../organizations/like';
import { resolveSets, sameSet } from '../organizations/set-ops';
import { changedOnly } from '../organizations/validate';
import { recordDeletion } from '../sync/kinds';
import { assertExist } from './exists';
import { toPipeline } from './entities';
import { orderOf, pageWindow } from './order';
import { deletePipeline, insertPipeline, updatePipeline } from './repository';

/** The column the Pipeline read scope tests (one object: readScopeSql keeps its SQL per object). */
const pipelineScope: ScopeColumns = { assigneeOrgIds: pipelines.assigneeOrgIds };

const One = z.object({ result: Pipeline });

/** The organ, predictors and organizations a pipeline names must exist. */
async function checkReferences(
  db: Db,
  p: { organId?: string | null; predictorIds?: string[]; assigneeOrgIds?: string[] },
) {
  await assertExist(db, organs, organs.id, p.organId ? [p.organId] : [], () =>
    apiError('NO_SUCH_ORGAN', { field: 'organId' }),
  );
  await assertExist(db, predictors, predictors.id, p.predictorIds, (id) =>
    apiError('NO_SUCH_PREDICTOR', { id }),
  );
  await assertExist(db, organizations, organizations.id, p.assigneeOrgIds, (id) =>
    apiError('NO_SUCH_ORGANIZATION', { field: 'assigneeOrgIds', id }),
  );
}

export const pipelineRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;
  const find = async (id: string) => (await db.select().from(pipelines).where(eq(pipelines.id, id)))[0];

  app.get(
    '/',
    { schema: { querystring: PipelineListQuery, response: { 200: listEnvelope(Pipeline) } } },
    async (request) => {
      const q = request.query;
      const where: (SQL | undefined)[] = [readScopeSql(scopeOf(request, 'Pipeline'), pipelineScope)];
      if (q.organId?.length) where.push(inArray(pipelines.organId, q.organId));
      if (q.search) where.push(ilike(pipelines.name, likePattern(q.search)));
      if (q.id?.length) where.push(inArray(pipelines.id, q.id));
      const filter = and(...where);
      const { limit, offset } = pageWindow(q);
      const columns = {
        name: pipelines.name,
        createdAt: pipelines.createdAt,
        updatedAt: pipelines.updatedAt,
      };
      const [rows, [{ count }]] = await Promise.all([
        db
          .select()
          .from(pipelines)
          .where(filter)
          .orderBy(...orderOf(q, columns, pipelines.id))
          .limit(limit)
          .offset(offset),
        db
          .select({ count: sql<number>`count(*)::int` })
          .from(pipelines)
          .where(filter),
      ]);
      return { result: rows.map(toPipeline), count: Number(count), page: q.page, limit: q.limit };
    },
  );

  app.get('/:id', { schema: { params: IdParams, response: { 200: One } } }, async (request) => {
    const row = await find(request.params.id);
    assertReadable(request, 'Pipeline', row, 'Pipeline');
    return { result: toPipeline(row) };
  });

  app.post('/', { schema: { body: PipelineCreateBody, response: { 200: One } } }, async (request) => {
    const { actor } = accessOf(request);
    const body = request.body.pipeline;
    const id = crypto.randomUUID();
    const values = {
      id,
      name: body.name,
      organId: body.organId ?? null,
      predictorIds: [...new Set(body.predictorIds ?? [])],
      assigneeOrgIds: [...new Set(body.assigneeOrgIds ?? [])],
      creatorUserId: actor.userId,
    };
    assertCan(request, 'create', 'Pipeline', values);
    await checkReferences(db, values);
    const row = await db.transaction(async (tx) => {
      const created = await insertPipeline(tx, values);
      await recordActivity(tx, {
        actionType: 'create',
        reference: 'Pipeline',
        referenceId: id,
        diff: body,
        creatorUserId: actor.userId,
        organizationId: actor.orgId,
      });
      return created;
    });
    return { result: toPipeline(row) };
  });

  app.patch(
    '/:id',
    { schema: { params: IdParams, body: PipelinePatchBody, response: { 200: One } } },
    async (request) => {
      const { actor } = accessOf(request);
      assertReadable(request, 'Pipeline', await find(request.params.id), 'Pipeline');
      const row = await db.transaction(async (tx) => {
        const [stored] = await tx
          .select()
          .from(pipelines)
          .where(eq(pipelines.id, request.params.id))
          .for('update');
        if (!stored) throw notFound('Pipeline');
        const entity = request.body.pipeline ?? {};
        const sets = resolveSets(SET_FIELDS.pipelines, stored, entity, request.body);
        const patch = changedOnly(stored, { name: entity.name, organId: entity.organId });
        for (const f of SET_FIELDS.pipelines) {
          const next = sets[f];
          if (next && !sameSet(next, stored[f])) patch[f] = next;
        }
        if (Object.keys(patch).length === 0) return stored;
        assertUpdate(request, 'Pipeline', stored, patch);
        await checkReferences(tx, patch as Parameters<typeof checkReferences>[1]);
        const updated = await updatePipeline(tx, stored.id, { ...patch, updatedAt: new Date() });
        await recordActivity(tx, {
          actionType: 'update',
          reference: 'Pipeline',
          referenceId: stored.id,
          diff: patch,
          creatorUserId: actor.userId,
          organizationId: actor.orgId,
        });
        return updated;
      });
      return { result: toPipeline(row) };
    },
  );

  app.delete('/:id', { schema: { params: IdParams, response: { 200: DeletedResult } } }, async (request) => {
    const { actor } = accessOf(request);
    const row = await find(request.params.id);
    assertReadable(request, 'Pipeline', row, 'Pipeline');
    assertCan(request, 'delete', 'Pipeline', row);
    await db.transaction(async (tx) => {
      const [used] = await tx
        .select({ id: scanOrders.id })
        .from(scanOrders)
        .where(eq(scanOrders.pipelineId, row.id))
        .limit(1);
      if (used) throw apiError('PIPELINE_IN_USE');
      await deletePipeline(tx, row.id);
      await recordDeletion(tx, 'pipelines', [row.id]);
      await recordActivity(tx, {
        actionType: 'delete',
        reference: 'Pipeline',
        referenceId: row.id,
        diff: { name: row.name },
        creatorUserId: actor.userId,
        organizationId: actor.orgId,
      });
    });
    return { result: { id: row.id } };
  });
};
