// /v2/alignments/rigids: request a rigid alignment (createOrganizationAlignments, own organization),
// list with the §3 query filters, read one. A new one is `active` and queued for the 'align-rigid' job
// (job.ts), which takes it to processing, then fulfilled or failed.
import crypto from 'node:crypto';
import { and, asc, desc, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AlignmentCreateBody, AlignmentListQuery, AlignmentResult } from '../../api/alignments';
import { IdParams, listEnvelope } from '../../api/common';
import { AlignmentRigid } from '../../api/entities';
import { recordActivity } from '../activities/record';
import { ALIGN_RIGID } from '../jobs/kinds';
import { enqueue } from '../jobs/queue';
import { readScopeSql } from '../db/read-scope-sql';
import { alignmentRigids } from '../db/schema';
import { apiError } from '../http/errors';
import { accessOf, assertCreate, assertReadable, scopeOf } from '../http/guard';
import { readableImage } from '../reviews/repository';
import { alignmentScope, findAlignment, insertAlignment, toAlignment } from './repository';

/** `[start, end]`; an end given as a bare day (YYYY-MM-DD) runs to the end of that day. */
function dateRange(column: PgColumn, start?: string, end?: string): SQL[] {
  const out: SQL[] = [];
  if (start) out.push(gte(column, new Date(start)));
  if (end) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(end)) out.push(lt(column, new Date(Date.parse(end) + 86_400_000)));
    else out.push(lte(column, new Date(end)));
  }
  return out;
}

const inputField = (key: string) => sql`${alignmentRigids.inputData} ->> ${key}`;

export const alignmentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/rigids',
    { schema: { querystring: AlignmentListQuery, response: { 200: listEnvelope(AlignmentRigid) } } },
    async (request) => {
      const q = request.query;
      const where: (SQL | undefined)[] = [
        readScopeSql(scopeOf(request, 'AlignmentRigid'), alignmentScope),
        ...dateRange(alignmentRigids.createdAt, q.createdAtStart, q.createdAtEnd),
        ...dateRange(alignmentRigids.updatedAt, q.updatedAtStart, q.updatedAtEnd),
      ];
      if (q.referenceImageId?.length) where.push(inArray(inputField('referenceImageId'), q.referenceImageId));
      if (q.targetImageId?.length) where.push(inArray(inputField('targetImageId'), q.targetImageId));
      if (q.organizationId?.length) where.push(inArray(alignmentRigids.organizationId, q.organizationId));
      if (q.creatorUserId?.length) where.push(inArray(alignmentRigids.creatorUserId, q.creatorUserId));
      if (q.type?.length) where.push(inArray(alignmentRigids.type, q.type));
      if (q.status?.length) where.push(inArray(alignmentRigids.status, q.status));
      const filter = and(...where);
      const order = q.orderDirection === 'asc' ? asc : desc;
      const [rows, [{ count }]] = await Promise.all([
        db
          .select()
          .from(alignmentRigids)
          .where(filter)
          .orderBy(order(alignmentRigids[q.orderBy]), order(alignmentRigids.id))
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
        db
          .select({ count: sql<number>`count(*)::int` })
          .from(alignmentRigids)
          .where(filter),
      ]);
      return { result: rows.map(toAlignment), count: Number(count), page: q.page, limit: q.limit };
    },
  );

  app.get(
    '/rigids/:id',
    { schema: { params: IdParams, response: { 200: AlignmentResult } } },
    async (request) => {
      const row = await findAlignment(db, request.params.id);
      assertReadable(request, 'AlignmentRigid', row, 'Alignment');
      return { result: toAlignment(row!) };
    },
  );

  app.post(
    '/rigids',
    { schema: { body: AlignmentCreateBody, response: { 200: AlignmentResult } } },
    async (request) => {
      const body = request.body.alignmentRigid;
      const { actor } = accessOf(request);
      const values = {
        id: crypto.randomUUID(),
        creatorUserId: body.creatorUserId ?? actor.userId,
        organizationId: body.organizationId ?? actor.orgId,
        type: body.type ?? 'rigid',
        status: 'active',
        inputData: body.inputData,
        outputData: null,
        error: null,
      };
      assertCreate(request, 'AlignmentRigid', values, Object.keys(body));
      const { referenceImageId, targetImageId } = body.inputData;
      if (referenceImageId === targetImageId)
        throw apiError('ALIGNMENT_SAME_IMAGE', { field: 'body.alignmentRigid.inputData.targetImageId' });
      for (const [field, imageId] of [
        ['referenceImageId', referenceImageId],
        ['targetImageId', targetImageId],
      ] as const) {
        if (!(await readableImage(db, request, imageId)))
          throw apiError('UNKNOWN_IMAGE', { field: `body.alignmentRigid.inputData.${field}` });
      }
      const row = await db.transaction(async (tx) => {
        const created = await insertAlignment(tx, values);
        await recordActivity(tx, {
          actionType: 'create',
          reference: 'AlignmentRigid',
          referenceId: created.id,
          diff: { type: created.type, referenceImageId, targetImageId },
          creatorUserId: actor.userId,
          organizationId: actor.orgId,
        });
        await enqueue(tx, ALIGN_RIGID, { alignmentId: created.id });
        return created;
      });
      app.ctx.jobs.nudge();
      return { result: toAlignment(row) };
    },
  );
};
