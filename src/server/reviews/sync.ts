// Reviews and review groups in the sync feed. A group row (table review_groups, kept by a trigger)
// moves with every write to one of its reviews; the feed hands it to a caller who may read at least
// one review of the group, with the counts over the reviews they may read — the same numbers as
// GET /v2/reviews/groups (reviewGroupColumns is shared by both).
import { and, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { ReviewGroup } from '../../api/entities';
import type { Db } from '../db/client';
import { reviewGroups, reviews } from '../db/schema';
import { readScopeSql, type ScopeColumns } from '../db/read-scope-sql';
import { scopeOf } from '../http/guard';
import type { SyncSource } from '../sync/kinds';
import { toReview, toReviewGroup, type ReviewRow } from './repository';

/** The Review read scope (§6.2: author, reviewer, public to the organization and assignees). */
export const reviewScopeColumns: ScopeColumns = {
  creatorUserId: reviews.creatorUserId,
  reviewerId: reviews.reviewerId,
  organizationId: reviews.organizationId,
  visibility: reviews.visibility,
  assigneeUserIds: reviews.assigneeUserIds,
  assigneeOrgIds: reviews.assigneeOrgIds,
};

/** The same scope on a group: its members stand in for the assignees (and reviewers) of its reviews. */
export const reviewGroupScopeColumns: ScopeColumns = {
  creatorUserId: reviewGroups.creatorUserId,
  organizationId: reviewGroups.organizationId,
  assigneeUserIds: reviewGroups.memberUserIds,
  assigneeOrgIds: reviewGroups.memberOrgIds,
};

const countOf = (status: string) => sql<number>`(count(*) FILTER (WHERE ${reviews.status} = ${status}))::int`;

/** One group as a caller sees it: a SELECT over `reviews` grouped by review_group_uuid. */
export const reviewGroupColumns = {
  id: reviews.reviewGroupUUID,
  total: sql<number>`count(*)::int`,
  completed: countOf('completed'),
  accepted: countOf('accepted'),
  rejected: countOf('rejected'),
  flagged: countOf('flagged'),
  pending: countOf('pending'),
  createdAt: sql<Date>`min(${reviews.createdAt})`,
  updatedAt: sql<Date>`max(${reviews.updatedAt})`,
};

/** The reviews the caller may read (undefined: all). */
export const readableReviews = (request: FastifyRequest): SQL | undefined =>
  readScopeSql(scopeOf(request, 'Review'), reviewScopeColumns);

/** A review_groups row is the caller's when they may read at least one review of the group. */
export const readableReviewGroup = (request: FastifyRequest): SQL =>
  sql`EXISTS (SELECT 1 FROM ${reviews} WHERE ${reviews.reviewGroupUUID} = ${reviewGroups.id} AND ${
    readableReviews(request) ?? sql`true`
  })`;

/** The groups `ids` as the caller sees them, in the order of `ids`; unreadable ones are left out. */
export async function reviewGroupsAsSeenBy(
  db: Db,
  request: FastifyRequest,
  ids: readonly string[],
): Promise<ReviewGroup[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(reviewGroupColumns)
    .from(reviews)
    .where(and(inArray(reviews.reviewGroupUUID, [...ids]), readableReviews(request)))
    .groupBy(reviews.reviewGroupUUID);
  const byId = new Map(rows.map((r) => [r.id, toReviewGroup(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export const reviewSyncSources: readonly SyncSource[] = [
  {
    kind: 'reviews',
    type: 'Review',
    table: reviews,
    idColumn: reviews.id,
    changeSeqColumn: reviews.changeSeq,
    scope: reviewScopeColumns,
    toEntities: async (_db, rows) => rows.map((r) => toReview(r as ReviewRow)),
  },
  {
    kind: 'review-groups',
    type: 'Review',
    table: reviewGroups,
    idColumn: reviewGroups.id,
    changeSeqColumn: reviewGroups.changeSeq,
    scope: reviewGroupScopeColumns,
    readable: readableReviewGroup,
    toEntities: (db, rows, request) =>
      reviewGroupsAsSeenBy(
        db,
        request,
        rows.map((r) => String(r.id)),
      ),
  },
];
