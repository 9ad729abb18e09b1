// Studies, reviews, annotations, alignments, reactions, activities, viewer settings (§3).
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ViewerOptions } from '../../api/entities';
import { assigneeColumns, readScopeIndexes, createdAt, textArray, updatedAt, changeSeq } from './columns';

export const studies = pgTable(
  'studies',
  {
    /** Set by a trigger on every insert and update: the sync feed's monotonic cursor. */
    changeSeq: changeSeq(),
    id: uuid().primaryKey(),
    name: text().notNull(),
    tags: textArray(),
    scanGroupIds: textArray(),
    organizationId: uuid().notNull(),
    status: text().notNull().default('created'),
    creatorUserId: uuid(),
    ...assigneeColumns(),
    viewerOptions: jsonb().$type<ViewerOptions>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('studies_org_idx').on(t.organizationId),
    index('studies_updated_idx').on(t.updatedAt, t.id),
    // The list's default order, `updated_at DESC NULLS LAST, id DESC` (bench/README.md).
    // Migrations 0014 and 0017 add organization_id, reader_keys (0013) and name_lower (0017), neither
    // declared here, as INCLUDE columns.
    index('studies_updated_desc_idx').on(t.updatedAt.desc().nullsLast(), t.id.desc().nullsFirst()),
    // An organization's studies in a created-at window read only the window's rows (api-lists bench:
    // the organization index alone fetched ~400 rows to keep ~50).
    // Migrations 0012 and 0017 add the other sort keys and name_lower as INCLUDE columns (Drizzle's
    // builder has none).
    index('studies_org_created_desc_idx').on(
      t.organizationId,
      t.createdAt.desc().nullsLast(),
      t.id.desc().nullsFirst(),
    ),
    ...readScopeIndexes('studies', t),
  ],
);

export const reviews = pgTable(
  'reviews',
  {
    /** Set by a trigger on every insert and update: the sync feed's monotonic cursor. */
    changeSeq: changeSeq(),
    id: uuid().primaryKey(),
    creatorUserId: uuid(),
    organizationId: uuid().notNull(),
    reviewGroupUUID: uuid().notNull(),
    /** The study the review was requested from, when it was (it names the group). */
    studyId: uuid(),
    imageId: uuid().notNull(),
    reviewerId: uuid(),
    status: text().notNull().default('pending'),
    comment: text().notNull().default(''),
    type: text().notNull().default('standard'),
    qc: boolean().notNull().default(false),
    visibility: text().notNull().default('public'),
    ...assigneeColumns(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('reviews_group_idx').on(t.reviewGroupUUID),
    index('reviews_image_idx').on(t.imageId),
    // "One review per image per reviewer" in a group (§7); comments may be many.
    uniqueIndex('reviews_one_per_reviewer_idx')
      .on(t.reviewGroupUUID, t.imageId, t.reviewerId)
      .where(sql`type <> 'comment'`),
  ],
);

/**
 * One row per review group (§3 Review group), kept by the `review_groups_apply` trigger on `reviews`
 * (same transaction as the review write): counts over the group's reviews, and who may read the
 * group (its creator and organization, the reviewers and assignees of its reviews). It gives the
 * groups their own sync cursor.
 */
export const reviewGroups = pgTable('review_groups', {
  /** Set by a trigger on every insert and update: the sync feed's monotonic cursor. */
  changeSeq: changeSeq(),
  id: uuid().primaryKey(),
  organizationId: uuid().notNull(),
  creatorUserId: uuid(),
  memberUserIds: textArray(),
  memberOrgIds: textArray(),
  total: integer().notNull().default(0),
  completed: integer().notNull().default(0),
  accepted: integer().notNull().default(0),
  rejected: integer().notNull().default(0),
  flagged: integer().notNull().default(0),
  pending: integer().notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const annotations = pgTable(
  'annotations',
  {
    id: uuid().primaryKey(),
    creatorUserId: uuid(),
    organizationId: uuid().notNull(),
    content: jsonb().$type<unknown>(),
    imageId: uuid().notNull(),
    sourceImageId: uuid(),
    reviewId: uuid(),
    name: text().notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // The viewer reads every annotation of an image, page by page in creation order: one index walk
  // per page and per count instead of a scan of every image's annotations.
  (t) => [index('annotations_image_created_idx').on(t.imageId, t.createdAt, t.id)],
);

export const alignmentRigids = pgTable('alignment_rigids', {
  id: uuid().primaryKey(),
  creatorUserId: uuid(),
  organizationId: uuid().notNull(),
  type: text().notNull().default('rigid'),
  status: text().notNull().default('inactive'),
  error: text(),
  outputData: jsonb().$type<unknown>(),
  inputData: jsonb().$type<unknown>(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const reactions = pgTable(
  'reactions',
  {
    /** Set by a trigger on every insert and update: the sync feed's monotonic cursor. */
    changeSeq: changeSeq(),
    id: uuid().primaryKey(),
    creatorUserId: uuid().notNull(),
    organizationId: uuid().notNull(),
    reactionType: text().notNull().default('heart'),
    reference: text().notNull().default('ScanGroup'),
    referenceId: uuid().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('reactions_once_idx').on(t.creatorUserId, t.reactionType, t.reference, t.referenceId)],
);

export const activities = pgTable(
  'activities',
  {
    id: uuid().primaryKey(),
    date: createdAt(),
    diff: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    referenceId: uuid(),
    actionType: text().notNull(),
    reference: text().notNull(),
    creatorUserId: uuid(),
    organizationId: uuid(),
  },
  (t) => [index('activities_date_idx').on(t.date), index('activities_org_idx').on(t.organizationId)],
);

export const userViewerSettings = pgTable('user_viewer_settings', {
  id: uuid().primaryKey(),
  studyId: uuid(),
  creatorUserId: uuid().notNull(),
  organizationId: uuid().notNull(),
  viewerSettings: jsonb().$type<Record<string, unknown>>().notNull().default({}),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const tombstones = pgTable(
  'tombstones',
  {
    /** Set by a trigger on every insert and update: the sync feed's monotonic cursor. */
    changeSeq: changeSeq(),
    kind: text().notNull(),
    id: uuid().notNull(),
    deletedAt: createdAt(),
  },
  (t) => [index('tombstones_kind_idx').on(t.kind, t.deletedAt)],
);

/**
 * Each Idempotency-Key per user: reserved when its first request starts (completedAt null while it
 * runs), then the stored outcome, so a replayed mutation is answered, not applied again. requestHash
 * tells a true replay from the key sent again with another body.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    key: text().notNull(),
    userId: uuid().notNull(),
    method: text().notNull(),
    path: text().notNull(),
    statusCode: text().notNull(),
    body: jsonb().$type<unknown>(),
    requestHash: text(),
    createdAt: createdAt(),
    completedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [primaryKey({ columns: [t.key, t.userId] })],
);
