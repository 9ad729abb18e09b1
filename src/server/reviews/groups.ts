// GET /v2/reviews/groups: the review groups (§3 Review group) the caller can see, with counts per
// status computed in SQL over the reviews of each group that the caller may read (§6.2), so a
// reviewer from another organization sees the progress of their own share of the request.
import { and, asc, desc, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listEnvelope } from '../../api/common';
import { ReviewGroup } from '../../api/entities';
import { ReviewGroupQuery } from '../../api/reviews';
import { readScopeSql } from '../db/read-scope-sql';
import { reviews } from '../db/schema';
import { scopeOf } from '../http/guard';
import { toReviewGroup } from './repository';
import { reviewGroupColumns, reviewScopeColumns } from './sync';

export const reviewGroupRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/',
    { schema: { querystring: ReviewGroupQuery, response: { 200: listEnvelope(ReviewGroup) } } },
    async (request) => {
      const q = request.query;
      const ids = [...new Set([...(q.ids ?? []), ...(q.reviewGroupUUID ?? [])])];
      const where: (SQL | undefined)[] = [readScopeSql(scopeOf(request, 'Review'), reviewScopeColumns)];
      if (ids.length) where.push(inArray(reviews.reviewGroupUUID, ids));
      const filter = and(...where);
      const order = q.orderDirection === 'asc' ? asc : desc;
      const lastUpdate = sql`max(${reviews.updatedAt})`;
      const [rows, [{ count }]] = await Promise.all([
        db
          .select(reviewGroupColumns)
          .from(reviews)
          .where(filter)
          .groupBy(reviews.reviewGroupUUID)
          .orderBy(order(lastUpdate), order(reviews.reviewGroupUUID))
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
        db
          .select({ count: sql<number>`count(DISTINCT ${reviews.reviewGroupUUID})::int` })
          .from(reviews)
          .where(filter),
      ]);
      return { result: rows.map(toReviewGroup), count: Number(count), page: q.page, limit: q.limit };
    },
  );
};
