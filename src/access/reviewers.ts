// Who can be named the reviewer of a request (§6.2 "Reviews"): someone whose own abilities let them act
// on it — complete a standard review, give a QC result (accepted, rejected or flagged) to a QC check —
// and never the requester. The Request Review dialog offers only these people; the server refuses any
// other (the same question, asked with the named reviewer's ability).
import type { AppAbility } from './ability-types';
import { asSubject } from './subjects';

export type RequestKind = 'standard' | 'qc';

/** The status a reviewer moves a request to: completion, or a QC result (any of the three). */
const ACTION: Record<RequestKind, string> = { standard: 'completed', qc: 'accepted' };

export interface ReviewRequestFacts {
  kind: RequestKind;
  reviewerId: string;
  requesterId: string;
  /** The requester's organization, which the reviews are made in. */
  organizationId: string;
}

/** `reviewerAbility` is the would-be reviewer's own ability (defineAbilityFor their user). */
export function canActOnRequest(reviewerAbility: AppAbility, r: ReviewRequestFacts): boolean {
  if (r.reviewerId === r.requesterId) return false;
  const requested = asSubject('Review', {
    type: r.kind,
    qc: r.kind === 'qc',
    status: 'pending',
    visibility: 'public',
    reviewerId: r.reviewerId,
    creatorUserId: r.requesterId,
    organizationId: r.organizationId,
    next: { status: ACTION[r.kind] },
  });
  return reviewerAbility.can('update', requested, 'status');
}
