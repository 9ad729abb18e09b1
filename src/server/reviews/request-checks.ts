// What a review request must be, beyond who may make it (src/access): a status of its own type (Pass,
// Fail and Flag are QC results, never a standard review's), a reviewer who can act on it and is not
// the requester, a group of one kind and one study, and a study that holds the image. Each refusal is
// a 400 naming the field, so what the app never offers the API refuses too.
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { asSubject, canActOnRequest, defineAbilityFor } from '../../access';
import type { ReviewStatus, ReviewType } from '../../api/enums';
import { STATUSES_OF_TYPE } from '../../api/reviews';
import type { Db } from '../db/client';
import { images, reviews, studies } from '../db/schema';
import { apiError } from '../http/errors';
import { accessOf } from '../http/guard';
import { loadActor } from '../http/authenticate';
import { toStudy } from '../studies/repository';

/** 400 when `status` is not one the review's type moves through. */
export function checkStatusOfType(type: ReviewType, status: ReviewStatus | undefined): void {
  if (status !== undefined && !STATUSES_OF_TYPE[type].includes(status))
    throw apiError(type === 'qc' ? 'QC_STATUS_EXPECTED' : 'STANDARD_STATUS_EXPECTED', {
      field: 'body.review.status',
    });
}

/** 400 when the named reviewer is the requester, or could not act on what is requested of them. */
export async function checkReviewer(
  app: FastifyInstance,
  review: { type: ReviewType; reviewerId: string; creatorUserId: string; organizationId: string },
): Promise<void> {
  if (review.type === 'comment') return;
  if (review.reviewerId === review.creatorUserId)
    throw apiError('OWN_REVIEWER', { field: 'body.review.reviewerId' });
  const actor = await loadActor(app, review.reviewerId);
  const able =
    !!actor &&
    canActOnRequest(
      defineAbilityFor({
        user: actor.user,
        organization: { ...actor.organization, childIds: actor.childIds },
      }),
      {
        kind: review.type,
        reviewerId: review.reviewerId,
        requesterId: review.creatorUserId,
        organizationId: review.organizationId,
      },
    );
  if (!able)
    throw apiError(review.type === 'qc' ? 'REVIEWER_CANNOT_QC' : 'REVIEWER_CANNOT_REVIEW', {
      field: 'body.review.reviewerId',
    });
}

/**
 * The study a new review belongs to: the one it names, else its group's. 400 when the review would
 * join a group of the other kind or of another study.
 */
export async function groupStudy(
  db: Db,
  review: { reviewGroupUUID: string; type: ReviewType; studyId?: string },
): Promise<string | null> {
  const [first] = await db
    .select({ type: reviews.type, studyId: reviews.studyId })
    .from(reviews)
    .where(and(eq(reviews.reviewGroupUUID, review.reviewGroupUUID), ne(reviews.type, 'comment')))
    .limit(1);
  if (!first) return review.studyId ?? null;
  if (review.type !== 'comment' && first.type !== review.type)
    throw apiError(first.type === 'qc' ? 'QC_GROUP' : 'STANDARD_GROUP', { field: 'body.review.type' });
  if (review.studyId && first.studyId && review.studyId !== first.studyId)
    throw apiError('GROUP_OF_OTHER_STUDY', { field: 'body.review.studyId' });
  return review.studyId ?? first.studyId;
}

/** 400 when the study is unknown to the caller or none of its slides holds the image. */
export async function checkStudy(
  db: Db,
  request: FastifyRequest,
  studyId: string,
  imageId: string,
): Promise<void> {
  const [row] = await db.select().from(studies).where(eq(studies.id, studyId));
  if (!row || !accessOf(request).ability.can('read', asSubject('Study', toStudy(row))))
    throw apiError('UNKNOWN_STUDY', { field: 'body.review.studyId' });
  const [image] = await db
    .select({ scanGroupId: images.scanGroupId })
    .from(images)
    .where(eq(images.id, imageId));
  if (!image?.scanGroupId || !row.scanGroupIds.includes(image.scanGroupId))
    throw apiError('IMAGE_NOT_IN_STUDY', { field: 'body.review.imageId' });
}
