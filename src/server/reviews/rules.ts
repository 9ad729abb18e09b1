// What a review request may change and point at: the changed fields of a PATCH (a client may send
// the whole review back), the fields fixed at creation, and the checks that the image, reviewer and
// assignees a review names exist and are readable by the caller.
import { inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { asSubject, type ReviewSubject } from '../../access';
import type { ReviewStatus, ReviewType, Visibility } from '../../api/enums';
import type { ReviewPatch } from '../../api/reviews';
import type { Db } from '../db/client';
import { organizations } from '../db/schema';
import { apiError } from '../http/errors';
import { accessOf } from '../http/guard';
import { readableImage, readableUser, type ReviewRow } from './repository';

/** A stored review as src/access sees it. */
export function reviewSubject(row: ReviewRow): ReviewSubject {
  return {
    ...row,
    reviewerId: row.reviewerId ?? undefined,
    status: row.status as ReviewStatus,
    type: row.type as ReviewType,
    visibility: row.visibility as Visibility,
  };
}

/** Sent back unchanged by clients that echo the whole review; never written. */
const IGNORED = new Set(['createdAt', 'updatedAt', 'inheritedAssignees']);
/** What a review is about and whose it is: fixed at creation, for everyone. */
const FIXED = new Set([
  'reviewGroupUUID',
  'studyId',
  'imageId',
  'type',
  'qc',
  'creatorUserId',
  'organizationId',
]);

export type ReviewChanges = {
  comment?: string;
  status?: ReviewStatus;
  visibility?: Visibility;
  reviewerId?: string;
  assigneeUserIds?: string[];
  assigneeOrgIds?: string[];
};

const sameSet = (a: readonly string[], b: readonly string[]) => {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
};

/** The fields of `body` that differ from `stored`; 400 when one of them is fixed. */
export function reviewPatch(stored: ReviewRow, body: ReviewPatch): ReviewChanges {
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || IGNORED.has(key)) continue;
    const current: unknown = stored[key as keyof ReviewRow];
    const same = Array.isArray(value)
      ? Array.isArray(current) && sameSet(value as string[], current as string[])
      : value === current;
    if (same) continue;
    if (FIXED.has(key)) throw apiError('REVIEW_FIELD_FIXED', { field: `body.review.${key}` });
    changes[key] = Array.isArray(value) ? [...new Set(value as string[])] : value;
  }
  return changes as ReviewChanges;
}

/** 400 naming the field when the image, reviewer or an assignee is unknown to the caller. */
export async function checkReviewReferences(
  db: Db,
  request: FastifyRequest,
  refs: { imageId?: string; reviewerId?: string; assigneeUserIds?: string[]; assigneeOrgIds?: string[] },
): Promise<void> {
  const { actor, ability } = accessOf(request);
  if (refs.imageId && !(await readableImage(db, request, refs.imageId)))
    throw apiError('UNKNOWN_IMAGE', { field: 'body.review.imageId' });
  if (
    refs.reviewerId &&
    refs.reviewerId !== actor.userId &&
    !(await readableUser(db, request, refs.reviewerId))
  )
    throw apiError('UNKNOWN_REVIEWER', { field: 'body.review.reviewerId' });
  for (const id of refs.assigneeUserIds ?? []) {
    if (id !== actor.userId && !(await readableUser(db, request, id)))
      throw apiError('UNKNOWN_USER', { field: 'body.review.assigneeUserIds' });
  }
  const orgIds = refs.assigneeOrgIds ?? [];
  if (orgIds.length) {
    const rows = await db
      .select({ id: organizations.id, rootId: organizations.rootId })
      .from(organizations)
      .where(inArray(organizations.id, orgIds));
    const readable = new Set(
      rows.filter((r) => ability.can('read', asSubject('Organization', r))).map((r) => r.id),
    );
    if (orgIds.some((id) => !readable.has(id)))
      throw apiError('UNKNOWN_ORGANIZATION', { field: 'body.review.assigneeOrgIds' });
  }
}
