// What the local store shows of a review made on this device until the server's row arrives (the
// outbox preview, docs/offline.md): made by the signed-in user in their organization, public, with
// no assignees yet. `now` is an ISO time; reviews made together share it.
import type { Me } from '../../api/auth';
import type { Review } from '../../api/entities';

export function newReviewPreview(
  me: Me,
  now: string,
  fields: Pick<Review, 'qc'> & Partial<Review>,
): Partial<Review> {
  return {
    creatorUserId: me.user.id,
    organizationId: me.organization.id,
    visibility: 'public',
    assigneeUserIds: [],
    assigneeOrgIds: [],
    inheritedAssignees: [],
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
}
