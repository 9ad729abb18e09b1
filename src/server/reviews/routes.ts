// /v2/reviews: list with the §7 filters, read one, request (create) and update reviews, QC results
// and comments under the §6.2 rules; /v2/reviews/groups lives in ./groups.ts. Review groups are
// kept by a database trigger in the same transaction as each review write (migration 0003).
import crypto from 'node:crypto';
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams, listEnvelope } from '../../api/common';
import { Review } from '../../api/entities';
import type { ReviewStatus, ReviewType } from '../../api/enums';
import { ReviewCreateBody, ReviewListQuery, ReviewPatchBody, ReviewResult } from '../../api/reviews';
import { recordActivity } from '../activities/record';
import { readScopeSql } from '../db/read-scope-sql';
import { images, reviews, scanGroups } from '../db/schema';
import { apiError } from '../http/errors';
import { accessOf, assertCreate, assertReadable, assertUpdate, scopeOf } from '../http/guard';
import { checkQcDecision } from './conflicts';
import { reviewGroupRoutes } from './groups';
import { checkReviewer, checkStatusOfType, checkStudy, groupStudy } from './request-checks';
import { checkReviewReferences, reviewPatch, reviewSubject } from './rules';
import { findReview, insertReview, isUniqueViolation, toReview, updateReview } from './repository';
import { reviewScopeColumns } from './sync';

/** §4.1 "New reviews are created pending, standard, public"; §6.2 comments are completed; QC must say. */
const DEFAULT_STATUS: Record<ReviewType, ReviewStatus | undefined> = {
  standard: 'pending',
  comment: 'completed',
  qc: undefined,
};

export const reviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;
  await app.register(reviewGroupRoutes, { prefix: '/groups' });

  app.get(
    '/',
    { schema: { querystring: ReviewListQuery, response: { 200: listEnvelope(Review) } } },
    async (request) => {
      const q = request.query;
      const where: (SQL | undefined)[] = [readScopeSql(scopeOf(request, 'Review'), reviewScopeColumns)];
      if (q.imageId?.length) where.push(inArray(reviews.imageId, q.imageId));
      if (q.reviewGroupUUID?.length) where.push(inArray(reviews.reviewGroupUUID, q.reviewGroupUUID));
      if (q.statuses?.length) where.push(inArray(reviews.status, q.statuses));
      if (q.type) where.push(eq(reviews.type, q.type));
      if (q.reviewerId) where.push(eq(reviews.reviewerId, q.reviewerId));
      if (q.creatorUserId) where.push(eq(reviews.creatorUserId, q.creatorUserId));
      if (q.scanGroupSimpleId) {
        const ofSlide = db
          .select({ id: images.id })
          .from(images)
          .innerJoin(scanGroups, eq(scanGroups.id, images.scanGroupId))
          .where(eq(scanGroups.simpleId, q.scanGroupSimpleId));
        where.push(inArray(reviews.imageId, ofSlide));
      }
      const filter = and(...where);
      const order = q.orderDirection === 'asc' ? asc : desc;
      const [rows, [{ count }]] = await Promise.all([
        db
          .select()
          .from(reviews)
          .where(filter)
          .orderBy(order(reviews[q.orderBy]), order(reviews.id))
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
        db
          .select({ count: sql<number>`count(*)::int` })
          .from(reviews)
          .where(filter),
      ]);
      return { result: rows.map(toReview), count: Number(count), page: q.page, limit: q.limit };
    },
  );

  app.get('/:id', { schema: { params: IdParams, response: { 200: ReviewResult } } }, async (request) => {
    const row = await findReview(db, request.params.id);
    assertReadable(request, 'Review', row && reviewSubject(row), 'Review');
    return { result: toReview(row!) };
  });

  app.post('/', { schema: { body: ReviewCreateBody, response: { 200: ReviewResult } } }, async (request) => {
    const body = request.body.review;
    const { actor } = accessOf(request);
    const type: ReviewType = body.type ?? (body.qc ? 'qc' : 'standard');
    if (body.qc !== undefined && body.qc !== (type === 'qc'))
      throw apiError('QC_MISMATCH', { field: 'body.review.qc' });
    // A QC request: a QC review naming its reviewer and no result yet is pending until
    // the QC reviewer gives the result; requesting it needs what requesting a review needs.
    const qcRequest = type === 'qc' && body.status === undefined && !!body.reviewerId;
    const status = body.status ?? (qcRequest ? 'pending' : DEFAULT_STATUS[type]);
    if (!status) throw apiError('QC_NEEDS_RESULT', { field: 'body.review.status' });
    checkStatusOfType(type, status);
    const reviewerId = body.reviewerId ?? (type === 'standard' ? undefined : actor.userId);
    if (!reviewerId) throw apiError('REVIEWER_REQUIRED', { field: 'body.review.reviewerId' });
    const values = {
      id: crypto.randomUUID(),
      creatorUserId: body.creatorUserId ?? actor.userId,
      organizationId: body.organizationId ?? actor.orgId,
      reviewGroupUUID: body.reviewGroupUUID,
      studyId: body.studyId ?? null,
      imageId: body.imageId,
      reviewerId,
      status,
      comment: body.comment ?? '',
      type,
      qc: type === 'qc',
      visibility: body.visibility ?? 'public',
      assigneeUserIds: [...new Set(body.assigneeUserIds ?? [])],
      assigneeOrgIds: [...new Set(body.assigneeOrgIds ?? [])],
      inheritedAssignees: [],
    };
    // Permission first (403 with the spec's text), then whether what it points at exists (400).
    // Requesting a QC review needs what requesting a review needs (a pending request, §6.2 menu check).
    if (qcRequest && status === 'pending')
      assertCreate(request, 'Review', { ...values, type: 'standard' as const }, Object.keys(body));
    else assertCreate(request, 'Review', values, Object.keys(body));
    await checkReviewReferences(db, request, values);
    // A request names someone else who can act on it (a QC result or a comment is one's own).
    if (type === 'standard' || qcRequest) await checkReviewer(app, values);
    values.studyId = await groupStudy(db, { ...values, studyId: body.studyId ?? undefined });
    if (values.studyId) await checkStudy(db, request, values.studyId, values.imageId);

    try {
      const row = await db.transaction(async (tx) => {
        const created = await insertReview(tx, values);
        await recordActivity(tx, {
          actionType: 'create',
          reference: 'Review',
          referenceId: created.id,
          diff: {
            reviewGroupUUID: created.reviewGroupUUID,
            imageId: created.imageId,
            reviewerId,
            status,
            type,
          },
          creatorUserId: actor.userId,
          organizationId: actor.orgId,
        });
        return created;
      });
      return { result: toReview(row) };
    } catch (error) {
      if (isUniqueViolation(error)) throw apiError('DUPLICATE_REVIEW');
      throw error;
    }
  });

  app.patch(
    '/:id',
    { schema: { params: IdParams, body: ReviewPatchBody, response: { 200: ReviewResult } } },
    async (request) => {
      const stored = await findReview(db, request.params.id);
      assertReadable(request, 'Review', stored && reviewSubject(stored), 'Review');
      const { actor } = accessOf(request);
      const patch = reviewPatch(stored!, request.body.review);
      if (Object.keys(patch).length === 0) return { result: toReview(stored!) };
      checkStatusOfType(stored!.type as ReviewType, patch.status);
      assertUpdate(request, 'Review', reviewSubject(stored!), patch);
      await checkReviewReferences(db, request, patch);
      await checkQcDecision(db, stored!, patch.status, request.body.review.updatedAt, actor.userId);

      try {
        const row = await db.transaction(async (tx) => {
          const updated = await updateReview(tx, stored!.id, patch);
          await recordActivity(tx, {
            // A changed status is the review being done (or QC'd); anything else an edit.
            actionType: patch.status !== undefined ? 'review' : 'update',
            reference: 'Review',
            referenceId: updated.id,
            diff: patch,
            creatorUserId: actor.userId,
            organizationId: actor.orgId,
          });
          return updated;
        });
        return { result: toReview(row) };
      } catch (error) {
        if (isUniqueViolation(error)) throw apiError('DUPLICATE_REVIEW');
        throw error;
      }
    },
  );
};
