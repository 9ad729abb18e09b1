// The "Menu checks" of spec §6.2 as named questions the app asks to enable or grey out controls.
// Each is one ability check; the matching tooltip text comes from denial.ts with the same arguments.
import type { AppAbility } from './ability-types';
import { asSubject, type AdminAreaName, type SubjectMap } from './subjects';

/** The signed-in user, for checks about things they would create. */
export interface Me {
  userId: string;
  organizationId: string;
}

type Study = SubjectMap['Study'];

export const canPrintStudy = (ability: AppAbility, study: Study) =>
  ability.can('print', asSubject('Study', study));

export const canDownloadImage = (ability: AppAbility, image: SubjectMap['Image']) =>
  ability.can('download', asSubject('Image', image));

/** Share study is an update of the study's assigneeUserIds. */
export const canShareStudy = (ability: AppAbility, study: Study) =>
  ability.can('update', asSubject('Study', study), 'assigneeUserIds');

/** Request review: creating a standard pending review owned by the user. */
export const canRequestReview = (ability: AppAbility, me: Me) =>
  ability.can(
    'create',
    asSubject('Review', {
      type: 'standard',
      status: 'pending',
      visibility: 'public',
      creatorUserId: me.userId,
      organizationId: me.organizationId,
    }),
  );

export const canRenameStudy = (ability: AppAbility, study: Study) =>
  ability.can('update', asSubject('Study', study), 'name');

export const canDeleteStudy = (ability: AppAbility, study: Study) =>
  ability.can('delete', asSubject('Study', study));

/** Also decides whether the add-member control shows (§6.2). A new study follows §4.5. */
export const canCreateStudy = (ability: AppAbility, me: Me) =>
  ability.can(
    'create',
    asSubject('Study', {
      creatorUserId: me.userId,
      organizationId: me.organizationId,
      assigneeUserIds: [me.userId],
      assigneeOrgIds: [me.organizationId],
    }),
  );

export const canEditStudyTags = (ability: AppAbility, study: Study) =>
  ability.can('update', asSubject('Study', study), 'tags');

export const canShareSlide = (ability: AppAbility, slide: SubjectMap['ScanGroup']) =>
  ability.can('share', asSubject('ScanGroup', slide));

/** Replicate to study: an update of the target study's scanGroupIds. */
export const canReplicateToStudy = (ability: AppAbility, study: Study) =>
  ability.can('update', asSubject('Study', study), 'scanGroupIds');

/** Archive or reactivate a slide: an update of its archiveAt. */
export const canArchiveSlide = (ability: AppAbility, slide: SubjectMap['ScanGroup']) =>
  ability.can('update', asSubject('ScanGroup', slide), 'archiveAt');

export const canCreateScanGroup = (ability: AppAbility, me: Me) =>
  ability.can(
    'create',
    asSubject('ScanGroup', { creatorUserId: me.userId, organizationId: me.organizationId }),
  );

export const canCreateScanOrder = (ability: AppAbility, me: Me) =>
  ability.can(
    'create',
    asSubject('ScanOrder', { creatorUserId: me.userId, organizationId: me.organizationId }),
  );

/** The Upload Images button: creating an active image in the own organization. */
export const canUploadImages = (ability: AppAbility, me: Me) =>
  ability.can(
    'create',
    asSubject('Image', {
      creatorUserId: me.userId,
      organizationId: me.organizationId,
      storageStatus: 'active',
    }),
  );

/** Create New Team: any organization create permission, the parent is chosen afterwards. */
export const canCreateTeam = (ability: AppAbility) => ability.can('create', 'Organization');

export const canViewAdminArea = (ability: AppAbility, area: AdminAreaName) =>
  ability.can('view', asSubject('AdminArea', { name: area }));
