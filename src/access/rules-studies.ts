// §6.2 rules for studies, reviews and QC, annotations, and the small personal and catalogue kinds
// (reactions, viewer settings, organs, pipelines, predictors).
import type { MongoQuery } from '@casl/ability';
import { Denied } from '../api/messages';
import type { ResolvedActor } from './actor';
import type { Builder } from './ability-types';

/** "Studies: create, update and print only the name, scanGroupIds, tags and assignees". */
export const STUDY_FIELDS = ['name', 'scanGroupIds', 'tags', 'assigneeUserIds', 'assigneeOrgIds'];
/** What a review's author or reviewer edits; everything else of a review is fixed at creation. */
export const REVIEW_EDIT_FIELDS = ['comment', 'visibility'];
export const QC_RESULTS = ['accepted', 'rejected', 'flagged'];

const FULL = ['create', 'read', 'update', 'delete', 'share', 'print'] as const;

export function studyRules({ can }: Builder, a: ResolvedActor): void {
  const mine = { $in: a.orgAndTeams };
  // "An assignee": listed by name, or the own organization is (a new study has both, §4.5).
  const assignee: MongoQuery[] = [{ assigneeUserIds: a.userId }, { assigneeOrgIds: a.orgId }];

  if (a.superAdmin) {
    can([...FULL], ['Study', 'Review', 'Annotation']);
    can(['create', 'read', 'update', 'delete'], ['Organ', 'Pipeline', 'Predictor']);
  }
  if (a.has('platformExperimentManagement'))
    can('manage', ['Study', 'Review', 'Organ', 'Pipeline', 'Predictor']);

  // Studies. Every assignee may tag; the study policy adds the rest.
  for (const cond of assignee) can('update', 'Study', ['tags'], cond);
  if (a.has('manageOrganizationStudies')) {
    can('create', 'Study', STUDY_FIELDS, { organizationId: a.orgId, assigneeUserIds: a.userId });
    for (const cond of assignee) {
      can(['update', 'print'], 'Study', STUDY_FIELDS, cond);
      can('share', 'Study', cond);
    }
    can('delete', 'Study', { organizationId: mine });
    can('delete', 'Study', { creatorUserId: a.userId });
  }

  // Reviews. `next.status` is the proposed status of an update (see fields.ts).
  can('create', 'Review', { type: 'comment', status: 'completed', organizationId: a.orgId });
  can('update', 'Review', ['comment', 'status', 'visibility'], { type: 'comment', creatorUserId: a.userId });
  if (a.has('manageOrganizationReview')) {
    can('create', 'Review', { type: 'standard', status: 'pending', organizationId: a.orgId });
    can('update', 'Review', REVIEW_EDIT_FIELDS, {
      type: 'standard',
      status: 'pending',
      creatorUserId: a.userId,
    });
  }
  // The invited reviewer works on their pending review, and completes it.
  const pendingForMe = { type: 'standard', status: 'pending', reviewerId: a.userId };
  can('update', 'Review', REVIEW_EDIT_FIELDS, pendingForMe);
  can('update', 'Review', ['status'], { ...pendingForMe, 'next.status': { $in: ['pending', 'completed'] } });
  if (a.has('manageOrganizationQC')) {
    const results = { $in: QC_RESULTS };
    can('create', 'Review', { type: 'qc', status: results, organizationId: a.orgId });
    const whoseQc: MongoQuery[] = [{ organizationId: mine }, { reviewerId: a.userId }];
    for (const whose of whoseQc) {
      can('update', 'Review', REVIEW_EDIT_FIELDS, { type: 'qc', ...whose });
      can('update', 'Review', ['status'], { type: 'qc', ...whose, 'next.status': results });
    }
  }

  // Annotations: made in the own organization; afterwards only their content, only one's own.
  if (a.has('manageOrganizationAnnotations')) {
    can('create', 'Annotation', { organizationId: a.orgId });
    can('update', 'Annotation', ['content'], { creatorUserId: a.userId });
    can('delete', 'Annotation', { creatorUserId: a.userId });
  }

  // Personal things everyone has.
  can('create', 'Reaction', { organizationId: a.orgId, creatorUserId: a.userId });
  can('delete', 'Reaction', { creatorUserId: a.userId });
  can('create', 'UserViewerSettings', { creatorUserId: a.userId });
  can('update', 'UserViewerSettings', ['viewerSettings.**'], { creatorUserId: a.userId });
  can('delete', 'UserViewerSettings', { creatorUserId: a.userId });
}

/** Added last: they hold for everyone, super admins included. */
export function studyDenials({ cannot }: Builder, a: ResolvedActor): void {
  const notMe = { $ne: a.userId };
  cannot('create', 'Study', { creatorUserId: notMe }).because(Denied.studiesForYourself);
  cannot('create', 'Review', { creatorUserId: notMe }).because(Denied.reviewsForYourself);
  cannot('create', 'Annotation', { creatorUserId: notMe }).because(Denied.annotationsForYourself);
}
