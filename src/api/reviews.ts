// Reviews, review groups and QC (spec §3 Review and Review group, §4.4, §7): the request schemas of
// /v2/reviews and /v2/reviews/groups, and the display rules (status texts, group progress, QC
// percentage, image processing text) that the server and the app share, so both say the same thing.
import { z } from 'zod';
import { Id } from './common';
import { ReviewGroup, Review } from './entities';
import { ReviewStatuses, ReviewTypes, Visibilities, type ReviewStatus, type ReviewType } from './enums';
import { pageParams, repeated } from './lists';

/** Our limit (the spec gives none): a review comment is a paragraph or a few, not a document. */
export const REVIEW_COMMENT_MAX = 5000;
/** Assignee lists of one review; far above what the Request Review dialog produces. */
export const REVIEW_ASSIGNEES_MAX = 200;

const assigneeIds = z.array(Id).max(REVIEW_ASSIGNEES_MAX);

/**
 * The statuses each type of review moves through (§4.1, §6.2): a standard review from pending to
 * completed; a QC review from pending to a result. Pass, Fail and Flag are QC verbs only. A comment's
 * status is left to the §6.2 rules (its author edits it).
 */
export const STATUSES_OF_TYPE: Record<ReviewType, readonly ReviewStatus[]> = {
  standard: ['pending', 'completed'],
  qc: ['pending', 'accepted', 'rejected', 'flagged'],
  comment: ReviewStatuses,
};

/** GET /v2/reviews (§7 "Reviews: imageId (also an array for QC), reviewGroupUUID, statuses, type, …"). */
export const ReviewListQuery = z.object({
  imageId: repeated(Id),
  reviewGroupUUID: repeated(Id),
  statuses: repeated(z.enum(ReviewStatuses)),
  type: z.enum(ReviewTypes).optional(),
  scanGroupSimpleId: z.string().min(1).max(100).optional(),
  reviewerId: Id.optional(),
  creatorUserId: Id.optional(),
  orderBy: z.enum(['createdAt', 'updatedAt']).default('createdAt'),
  ...pageParams(100, 10),
});
export type ReviewListQuery = z.infer<typeof ReviewListQuery>;

/**
 * One review (§7 "one review is created per selected image per reviewer, sharing a generated review
 * group id"). Defaults (§4.1, §6.2): a standard review is pending and public; a comment review is
 * completed; a QC review (`type: 'qc'`, or `qc: true`) must carry its result. `reviewerId` defaults
 * to the caller for QC and comment reviews. `creatorUserId`/`organizationId` may be sent only as
 * the caller's own ('You can only create reviews for yourself').
 */
export const ReviewCreate = z.object({
  reviewGroupUUID: Id,
  /** The study the request was made from (its slides hold the image); the group takes its name. */
  studyId: Id.nullable().optional(),
  imageId: Id,
  reviewerId: Id.optional(),
  type: z.enum(ReviewTypes).optional(),
  qc: z.boolean().optional(),
  status: z.enum(ReviewStatuses).optional(),
  comment: z.string().max(REVIEW_COMMENT_MAX).optional(),
  visibility: z.enum(Visibilities).optional(),
  assigneeUserIds: assigneeIds.optional(),
  assigneeOrgIds: assigneeIds.optional(),
  creatorUserId: Id.optional(),
  organizationId: Id.optional(),
});
export type ReviewCreate = z.infer<typeof ReviewCreate>;
export const ReviewCreateBody = z.strictObject({ review: ReviewCreate.strict() });

/**
 * PATCH /v2/reviews/:id, "body without id": any field of the review may be sent (a client may send
 * the whole review back); only the ones that differ from the stored row count as changes, and §6.2
 * lets those be comment, status and visibility. Timestamps and inheritedAssignees are ignored.
 */
export const ReviewPatch = ReviewCreate.extend({
  createdAt: z.string().max(40),
  updatedAt: z.string().max(40),
  inheritedAssignees: z.array(z.unknown()).max(REVIEW_ASSIGNEES_MAX),
})
  .partial()
  .strict();
export type ReviewPatch = z.infer<typeof ReviewPatch>;
export const ReviewPatchBody = z.strictObject({ review: ReviewPatch });

export const ReviewResult = z.object({ result: Review });

/** GET /v2/reviews/groups: which groups (`ids` and `reviewGroupUUID` are the same thing). */
export const ReviewGroupQuery = z.object({
  ids: repeated(Id),
  reviewGroupUUID: repeated(Id),
  ...pageParams(100, 10),
});
export type ReviewGroupQuery = z.infer<typeof ReviewGroupQuery>;

// ——— Display rules (§4.4) ———

/**
 * §4.4 gives two wordings per status. `qc` is the QC reading (reports and the QC strip: Pending
 * Review, Passed, Failed, Flagged); `review` the review-card reading (Waiting, Accepted, Rejected,
 * Flagged). `completed` has no text in the spec: 'Completed' in both (docs/decisions.md).
 */
export const REVIEW_STATUS_TEXT: Record<ReviewStatus, { qc: string; review: string }> = {
  pending: { qc: 'Pending Review', review: 'Waiting' },
  accepted: { qc: 'Passed', review: 'Accepted' },
  rejected: { qc: 'Failed', review: 'Rejected' },
  flagged: { qc: 'Flagged', review: 'Flagged' },
  completed: { qc: 'Completed', review: 'Completed' },
};

export function reviewStatusText(status: ReviewStatus, reading: 'qc' | 'review' = 'review'): string {
  return REVIEW_STATUS_TEXT[status][reading];
}

/** The counts of a review group (a ReviewGroup entity satisfies it). */
export type ReviewGroupCounts = Pick<
  ReviewGroup,
  'total' | 'completed' | 'accepted' | 'rejected' | 'flagged' | 'pending'
>;

export interface ReviewGroupProgress {
  /** accepted + rejected + flagged + completed. */
  actioned: number;
  total: number;
  /** §4.4: actioned equals total. */
  complete: boolean;
  /** actioned / total, from 0 to 1; an empty group counts as done (1). */
  progress: number;
}

/** §4.4: "complete when accepted + rejected + flagged + completed equals total; progress is that share". */
export function reviewGroupProgress(group: ReviewGroupCounts): ReviewGroupProgress {
  const actioned = group.accepted + group.rejected + group.flagged + group.completed;
  return {
    actioned,
    total: group.total,
    complete: actioned === group.total,
    progress: group.total > 0 ? Math.min(1, actioned / group.total) : 1,
  };
}

/**
 * §4.4: "the rounded share of statuses other than passed and pending" (the exact formula is not
 * shown). Ours: round(100 × (total − accepted − pending) / total), a whole percent from 0 to 100 —
 * i.e. the failed, flagged (and, outside QC, completed) share of the group; 0 for an empty group.
 */
export function qcPercentage(group: ReviewGroupCounts): number {
  if (group.total <= 0) return 0;
  const other = group.total - group.accepted - group.pending;
  return Math.round((100 * Math.max(0, other)) / group.total);
}

/** An image no QC review speaks of yet (not a review status, so not in REVIEW_STATUS_TEXT). */
export const QC_NOT_REVIEWED = 'Not Reviewed';

/** The QC state of some images: each counted once (see qcTally). */
export interface QcTally extends ReviewGroupCounts {
  images: number;
  notReviewed: number;
}

type QcReview = Pick<Review, 'imageId' | 'status' | 'type' | 'updatedAt'>;

/**
 * The QC state of a study's images, the one count its page, its QC report and its study report show:
 * each image by its latest QC review (by updatedAt); an image with none is Not Reviewed. `total` is
 * the images with a QC review, so a QC check of each image once gives its review group's counts.
 */
export function qcTally(imageIds: readonly string[], reviews: readonly QcReview[]): QcTally {
  const latest = new Map<string, QcReview>();
  for (const r of reviews) {
    if (r.type !== 'qc') continue;
    const prev = latest.get(r.imageId);
    if (!prev || prev.updatedAt < r.updatedAt) latest.set(r.imageId, r);
  }
  const t: QcTally = {
    images: 0,
    notReviewed: 0,
    total: 0,
    completed: 0,
    accepted: 0,
    rejected: 0,
    flagged: 0,
    pending: 0,
  };
  for (const id of new Set(imageIds)) {
    t.images++;
    const r = latest.get(id);
    if (!r) t.notReviewed++;
    else {
      t.total++;
      t[r.status]++;
    }
  }
  return t;
}

export type QcCountKey = 'accepted' | 'rejected' | 'flagged' | 'pending' | 'notReviewed';

/**
 * The rows of every QC summary (study page, study report, both QC reports), in one order and the QC
 * reading of §4.4; Not Reviewed only where images are counted (a study), not a group's reviews.
 */
export function qcCountRows(
  counts: ReviewGroupCounts & { notReviewed?: number },
): { key: QcCountKey; label: string; value: number }[] {
  const rows: { key: QcCountKey; label: string; value: number }[] = (
    ['accepted', 'rejected', 'flagged', 'pending'] as const
  ).map((key) => ({ key, label: reviewStatusText(key, 'qc'), value: counts[key] }));
  if (counts.notReviewed !== undefined)
    rows.push({ key: 'notReviewed', label: QC_NOT_REVIEWED, value: counts.notReviewed });
  return rows;
}

/** §4.4 image processing display in study cards: PROCESSING → Pending, COMPLETED → Complete. */
export const IMAGE_PROCESSING_TEXT = {
  processing: 'Pending',
  completed: 'Complete',
  other: 'Incomplete',
} as const;

export function imageProcessingText(status: string): string {
  const s = status.toLowerCase();
  if (s === 'processing') return IMAGE_PROCESSING_TEXT.processing;
  if (s === 'completed') return IMAGE_PROCESSING_TEXT.completed;
  return IMAGE_PROCESSING_TEXT.other;
}
