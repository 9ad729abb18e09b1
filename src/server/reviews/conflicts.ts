// QC decisions are server-authoritative: a QC result sent from a copy of the review older
// than the stored one is refused (409) when someone else has meanwhile set a result, so a decision
// made offline never silently overwrites a colleague's. The decider is read from the activity feed
// (every status change records a 'review' activity in the same transaction as the write).
import { and, desc, eq } from 'drizzle-orm';
import type { ReviewStatus } from '../../api/enums';
import { reviewStatusText } from '../../api/reviews';
import type { Db } from '../db/client';
import { activities, users } from '../db/schema';
import { apiError } from '../http/errors';
import type { ReviewRow } from './repository';

/** The user who last changed this review's status, if any did. */
async function lastDecider(db: Db, reviewId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: activities.creatorUserId })
    .from(activities)
    .where(
      and(
        eq(activities.reference, 'Review'),
        eq(activities.referenceId, reviewId),
        eq(activities.actionType, 'review'),
      ),
    )
    .orderBy(desc(activities.date))
    .limit(1);
  return row?.userId ?? undefined;
}

/**
 * 409 when `next` (a QC result) is sent on a copy made at `copyUpdatedAt` (the body's `updatedAt`)
 * and the stored QC review has since received a result from another user. Without `updatedAt` the
 * client claims no copy, and the change applies as before (last write wins).
 */
export async function checkQcDecision(
  db: Db,
  stored: ReviewRow,
  next: ReviewStatus | undefined,
  copyUpdatedAt: string | undefined,
  actorUserId: string,
): Promise<void> {
  if (stored.type !== 'qc' || next === undefined || stored.status === 'pending' || !copyUpdatedAt) return;
  const copy = Date.parse(copyUpdatedAt);
  if (Number.isNaN(copy) || copy >= new Date(stored.updatedAt).getTime()) return;
  const decider = await lastDecider(db, stored.id);
  if (!decider || decider === actorUserId) return;
  const [user] = await db
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, decider));
  const who = user?.name || user?.email || 'Another reviewer';
  throw apiError('QC_DECIDED_FIRST', {
    who,
    result: reviewStatusText(stored.status as ReviewStatus, 'qc'),
  });
}
