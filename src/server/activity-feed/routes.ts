// GET /v2/activities: the activity feeds (§2.2 dashboard recent-activity, organization-activity,
// collaborator-activity). By default what the Activity read scope allows (own organization and teams,
// and one's own); with collaborator=true, what others did to rows the caller can read, wherever they sit.
import { and, eq, inArray, isNotNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SubjectType } from '../../access';
import { ActivityListQuery } from '../../api/activities';
import { listEnvelope } from '../../api/common';
import { Activity } from '../../api/entities';
import { activities, images, reviews, scanGroups, scanOrders, studies } from '../db/schema';
import { readScopeSql, type ScopeColumns } from '../db/read-scope-sql';
import { accessOf, scopeOf } from '../http/guard';
import { imageScope } from '../images/repository';
import { scanGroupScope } from '../scan-groups/repository';
import { studyScope } from '../studies/repository';
import { dateRange, ordering, pageOf } from '../lists/list-sql';

/** The columns the Activity read scope tests (one object: readScopeSql keeps its SQL per object). */
const activityScope: ScopeColumns = {
  organizationId: activities.organizationId,
  creatorUserId: activities.creatorUserId,
};

type ActivityRow = typeof activities.$inferSelect;

const toActivity = (row: ActivityRow): Activity => ({
  id: row.id,
  date: row.date.toISOString(),
  diff: row.diff,
  referenceId: row.referenceId,
  actionType: row.actionType,
  reference: row.reference,
  creatorUserId: row.creatorUserId,
  organizationId: row.organizationId,
});

/** The kinds a collaborator feed follows: activity `reference` → the table and its read scope. */
const FOLLOWED: Array<{ reference: SubjectType; table: PgTable; id: PgColumn; scope: ScopeColumns }> = [
  { reference: 'Study', table: studies, id: studies.id, scope: studyScope },
  { reference: 'ScanGroup', table: scanGroups, id: scanGroups.id, scope: scanGroupScope },
  { reference: 'Image', table: images, id: images.id, scope: imageScope },
  {
    reference: 'ScanOrder',
    table: scanOrders,
    id: scanOrders.id,
    scope: {
      organizationId: scanOrders.organizationId,
      creatorUserId: scanOrders.creatorUserId,
      assigneeUserIds: scanOrders.assigneeUserIds,
      assigneeOrgIds: scanOrders.assigneeOrgIds,
    },
  },
  {
    reference: 'Review',
    table: reviews,
    id: reviews.id,
    scope: {
      organizationId: reviews.organizationId,
      creatorUserId: reviews.creatorUserId,
      reviewerId: reviews.reviewerId,
      visibility: reviews.visibility,
      assigneeUserIds: reviews.assigneeUserIds,
      assigneeOrgIds: reviews.assigneeOrgIds,
    },
  },
];

export const activityRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/',
    { schema: { querystring: ActivityListQuery, response: { 200: listEnvelope(Activity) } } },
    async (request) => {
      const q = request.query;
      const { actor } = accessOf(request);
      const where: SQL[] = [];
      if (q.collaborator) {
        where.push(isNotNull(activities.creatorUserId), ne(activities.creatorUserId, actor.userId));
        const followed = FOLLOWED.map(({ reference, table, id, scope }) => {
          const readable = readScopeSql(scopeOf(request, reference), scope) ?? sql`true`;
          return and(
            eq(activities.reference, reference),
            sql`EXISTS (SELECT 1 FROM ${table} WHERE ${id} = ${activities.referenceId} AND ${readable})`,
          );
        });
        where.push(or(...followed)!);
      } else {
        const scope = readScopeSql(scopeOf(request, 'Activity'), activityScope);
        if (scope) where.push(scope);
      }
      if (q.organizationId) where.push(inArray(activities.organizationId, q.organizationId));
      if (q.creatorUserId) where.push(inArray(activities.creatorUserId, q.creatorUserId));
      if (q.reference) where.push(inArray(activities.reference, q.reference));
      if (q.referenceId) where.push(inArray(activities.referenceId, q.referenceId));
      if (q.actionType) where.push(inArray(activities.actionType, q.actionType));
      where.push(...dateRange(activities.date, q.dateStart, q.dateEnd));
      const { rows, count } = await pageOf(
        db,
        activities,
        where,
        ordering(activities.date, q.orderDirection, activities.id),
        q,
      );
      return { result: rows.map(toActivity), count, page: q.page, limit: q.limit };
    },
  );
};
