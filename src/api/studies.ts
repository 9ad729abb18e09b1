// Requests and responses of /v2/studies and /v2/user-viewer-settings (spec §7), with the study limits
// of §5/§9. Also the pieces shared by every resource with set-valued fields (tags, assignees):
// a PATCH may carry `{add: {...}, remove: {...}}` next to the entity so that offline edits merge.
import { z } from 'zod';
import { Id } from './common';
import { STUDY_NAME_MAX, TAG_MAX_LENGTH, TAGS_PER_STUDY_MAX } from './constants';
import { editBase, OverwrittenList } from './edit-base';
import { errorText } from './errors';
import { Study, UserViewerSettings, ViewerOptions } from './entities';
import { isoDateParam, pageParams, repeated } from './lists';

/** Texts of our own where the spec gives only the rule (§5), for the form and the server alike. */
export const StudyRuleText = {
  nameRequired: 'Study name is required',
  nameTooLong: `Study name must be at most ${STUDY_NAME_MAX} characters`,
  tagEmpty: 'A tag cannot be empty',
  tagTooLong: `A tag must be at most ${TAG_MAX_LENGTH} characters`,
  /** The catalogue's refusal, also the schema's problem for a list too long. */
  tooManyTags: errorText('STUDY_TOO_MANY_TAGS'),
  viewerSettingsTooLarge: 'The viewer settings are too large',
} as const;

/** Most ids a set-valued field may hold; generous, but bounds the work of one request. */
export const SET_MAX = 500;

export const Tag = z
  .string()
  .trim()
  .min(1, StudyRuleText.tagEmpty)
  .max(TAG_MAX_LENGTH, StudyRuleText.tagTooLong);
/** A tag to remove is matched as stored, so any short string will do. */
const TagToRemove = z.string().trim().max(200);
export const IdSet = z.array(Id).max(SET_MAX);
export const TagList = z.array(Tag).max(TAGS_PER_STUDY_MAX, StudyRuleText.tooManyTags);

const StudyName = z
  .string({ message: StudyRuleText.nameRequired })
  .trim()
  .min(1, StudyRuleText.nameRequired)
  .max(STUDY_NAME_MAX, StudyRuleText.nameTooLong);

/** The fields a client may send; who may set which is src/access's call (STUDY_FIELDS). */
const studyFields = {
  name: StudyName,
  tags: TagList,
  scanGroupIds: IdSet,
  assigneeUserIds: IdSet,
  assigneeOrgIds: IdSet,
  viewerOptions: ViewerOptions.nullable(),
};

export const CreateStudyBody = z.strictObject({
  study: z.strictObject({
    ...studyFields,
    tags: TagList.optional(),
    scanGroupIds: IdSet.optional(),
    assigneeUserIds: IdSet.optional(),
    assigneeOrgIds: IdSet.optional(),
    viewerOptions: ViewerOptions.nullable().optional(),
    /** Only ever the caller ('You can only create studies for yourself'); filled in when absent. */
    creatorUserId: Id.optional(),
    organizationId: Id.optional(),
  }),
});
export type CreateStudyBody = z.input<typeof CreateStudyBody>;

/** Set operations on a study's set-valued fields, applied atomically on the stored row. */
const StudySetOps = z.strictObject({
  tags: z.array(TagToRemove).max(SET_MAX).optional(),
  scanGroupIds: IdSet.optional(),
  assigneeUserIds: IdSet.optional(),
  assigneeOrgIds: IdSet.optional(),
});

/** What a client that echoes the whole study back may also send; ignored or checked unchanged. */
export const echoedFields = {
  id: Id,
  status: z.string().max(40),
  organizationId: Id,
  creatorUserId: Id.nullable(),
  createdAt: z.string().max(40),
  updatedAt: z.string().max(40),
  inheritedAssignees: z.array(z.unknown()).max(SET_MAX),
};

/** A study's fields whose overwriting is reported to the writer (src/api/edit-base.ts). */
export const STUDY_GUARDED_FIELDS = ['name'] as const;

export const UpdateStudyBody = z
  .strictObject({
    study: z
      .strictObject({ ...studyFields, ...echoedFields })
      .partial()
      .optional(),
    add: StudySetOps.extend({ tags: z.array(Tag).max(TAGS_PER_STUDY_MAX).optional() }).optional(),
    remove: StudySetOps.optional(),
    base: editBase(STUDY_GUARDED_FIELDS).optional(),
  })
  .refine((b) => b.study || b.add || b.remove, { message: 'Send study, add or remove' });
export type UpdateStudyBody = z.input<typeof UpdateStudyBody>;

export const StudyOrderBy = z.enum(['createdAt', 'updatedAt', 'name']);

/** §7 "Filters used" for studies; arrays are repeated parameters. */
export const StudyListQuery = z.object({
  ...pageParams(100, 25),
  orderBy: StudyOrderBy.default('updatedAt'),
  name: z.string().trim().max(STUDY_NAME_MAX).optional(),
  organizationId: repeated(Id),
  creatorUserId: repeated(Id),
  animalName: repeated(z.string().max(100)),
  organId: repeated(Id),
  /** A slide's id or its simpleId. */
  slideId: repeated(z.string().max(64)),
  tag: repeated(z.string().max(TAG_MAX_LENGTH)),
  createdAtStart: isoDateParam.optional(),
  createdAtEnd: isoDateParam.optional(),
});
export type StudyListQuery = z.input<typeof StudyListQuery>;

export const StudyTagsQuery = z.object({ search: z.string().max(TAG_MAX_LENGTH).optional() });
export const StudyTags = z.object({ tags: z.array(z.string()) });

export const StudyResult = z.object({ result: Study });
/** A PATCH's answer: the stored study, and the newer values it replaced, if any. */
export const UpdateStudyResult = StudyResult.extend({ overwritten: OverwrittenList.optional() });

// --- user viewer settings (one's own, per study) ---

/** Free-form viewer state (channels, colours, exposure...), bounded so one row stays small. */
export const ViewerSettingsValue = z
  .record(z.string().max(100), z.unknown())
  .refine((v) => JSON.stringify(v).length <= 20_000, { message: StudyRuleText.viewerSettingsTooLarge });

export const CreateViewerSettingsBody = z.strictObject({
  studyId: Id.nullable().optional(),
  viewerSettings: ViewerSettingsValue,
  creatorUserId: Id.optional(),
});
export const UpdateViewerSettingsBody = z.strictObject({ viewerSettings: ViewerSettingsValue });
export const ViewerSettingsListQuery = z.object({
  ...pageParams(100, 10),
  creatorUserId: Id.optional(),
  studyId: Id.optional(),
});
export const ViewerSettingsResult = z.object({ result: UserViewerSettings });
