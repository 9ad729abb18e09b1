// The "Menu checks" of spec §6.2 as named questions the app asks to enable or grey out controls.
// Each is one ability check; the matching tooltip text comes from denial.ts with the same arguments.
import { defineAbilityFor } from './abilities';
import type { AppAbility } from './ability-types';
import type { Actor } from './actor';
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

/** Add annotation and Draw region in the viewer: an annotation of the user's, in their organization. */
export const annotationToCreate = (me: Me) =>
  asSubject('Annotation', { creatorUserId: me.userId, organizationId: me.organizationId });

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

/** The areas /administrator shows as tabs (setup has its own page). */
const ADMINISTRATOR_AREAS: readonly AdminAreaName[] = [
  'organization',
  'teams',
  'users',
  'pictor-admin',
  'activity',
];

/**
 * Account Administrator in the settings menu: one of its areas opens to the user, or the catalogue
 * (organs, pipelines, predictors) they may add to.
 */
export const canOpenAdministrator = (ability: AppAbility) =>
  ADMINISTRATOR_AREAS.some((area) => canViewAdminArea(ability, area)) || ability.can('create', 'Organ');

/**
 * Whether this person may share studies they are on (§6.2: share on a Study), so that someone without
 * a study can be told whom to ask. Judged with that person's own abilities, as the server would.
 */
export const canShareStudies = (person: Actor) => defineAbilityFor(person).can('share', 'Study');
