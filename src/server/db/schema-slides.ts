// Slides (scan groups), their images, scan orders and order lists, organs, pipelines, predictors (§3).
import {
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
  bigint,
} from 'drizzle-orm/pg-core';
import type { ImageInfo, StorageHistoryItem } from '../../api/entities';
import type { LayersManifest } from '../../api/tiles';
import { assigneeColumns, readScopeIndexes, at, createdAt, textArray, updatedAt, changeSeq } from './columns';

export const scanGroups = pgTable(
  'scan_groups',
  {
    /** Set by a trigger on every insert and update: the sync feed's monotonic cursor. */
    changeSeq: changeSeq(),
    id: uuid().primaryKey(),
    simpleId: text().notNull(),
    name: text(),
    notes: text().notNull().default(''),
    lisInfo: jsonb().$type<Record<string, unknown>>(),
    organId: uuid(),
    animal: text(),
    tags: textArray(),
    status: text().notNull().default('created'),
    storageStatus: text().notNull().default('active'),
    archiveAt: at(),
    storageHistory: jsonb().$type<StorageHistoryItem[]>().notNull().default([]),
    organizationId: uuid().notNull(),
    creatorUserId: uuid(),
    lastUploadDate: at(),
    ...assigneeColumns(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('scan_groups_simple_id_idx').on(t.simpleId),
    index('scan_groups_org_idx').on(t.organizationId),
    index('scan_groups_updated_idx').on(t.updatedAt, t.id),
    // The list's default order and its organization + date filter (bench/README.md): lists sort by
    // `<col> DESC NULLS LAST, id DESC`, which only an index declared in that order serves.
    // Migration 0014 adds organization_id and reader_keys (0013, not declared here) as INCLUDE columns.
    index('scan_groups_created_desc_idx').on(t.createdAt.desc().nullsLast(), t.id.desc().nullsFirst()),
    // Migration 0012 adds the other sort keys as INCLUDE columns (Drizzle's builder has none).
    index('scan_groups_org_created_desc_idx').on(
      t.organizationId,
      t.createdAt.desc().nullsLast(),
      t.id.desc().nullsFirst(),
    ),
    ...readScopeIndexes('scan_groups', t),
  ],
);

export const images = pgTable(
  'images',
  {
    /** Set by a trigger on every insert and update: the sync feed's monotonic cursor. */
    changeSeq: changeSeq(),
    id: uuid().primaryKey(),
    name: text().notNull(),
    organizationId: uuid().notNull(),
    creatorUserId: uuid(),
    status: text().notNull().default('created'),
    mediaType: text(),
    info: jsonb().$type<ImageInfo>().notNull().default({}),
    scanType: text(),
    channels: jsonb().$type<Array<{ name: string; color: string }>>().notNull().default([]),
    imageType: text().notNull().default('real'),
    scanGroupId: uuid(),
    storageStatus: text().notNull().default('active'),
    archiveAt: at(),
    sourceImageId: uuid(),
    scanOrderId: uuid(),
    predictorId: uuid(),
    pixelScale: doublePrecision(),
    displayUUIDs: textArray(),
    displayStatus: text().notNull().default('created'),
    workerId: text(),
    /** Where the original file lives in storage (relative key), and its size in bytes. */
    storageKey: text(),
    fileSize: bigint({ mode: 'number' }),
    /**
     * Which scene of the original this image shows (0-based). A file with several scenes is one image
     * per scene, all with the same storageKey; the first scene's image holds the file's size.
     */
    scene: integer().notNull().default(0),
    /** The upload group the image came from (the group's answer lists its images, one per scene). */
    uploadGroupId: uuid(),
    /**
     * The image's layers.json (size, pixel size, layers with colours and display ranges), stored as
     * soon as the slide's header is read: tiles are cut from the original on demand from then until
     * the pyramid is written (processing/tile-on-demand.ts). Server-side only.
     */
    manifest: jsonb().$type<LayersManifest>(),
    inheritedAssignees: assigneeColumns().inheritedAssignees,
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('images_scan_group_idx').on(t.scanGroupId),
    index('images_upload_group_idx').on(t.uploadGroupId),
    index('images_org_idx').on(t.organizationId),
    index('images_updated_idx').on(t.updatedAt, t.id),
    index('images_creator_idx').on(t.creatorUserId),
    index('images_inherited_gin').using('gin', t.inheritedAssignees.op('jsonb_path_ops')),
  ],
);

export const scanOrders = pgTable(
  'scan_orders',
  {
    /** Set by a trigger on every insert and update: the sync feed's monotonic cursor. */
    changeSeq: changeSeq(),
    id: uuid().primaryKey(),
    creatorUserId: uuid(),
    organizationId: uuid().notNull(),
    status: text().notNull().default('inactive'),
    scanGroupId: uuid(),
    pipelineId: uuid(),
    studyIds: textArray(),
    notes: text().notNull().default(''),
    ...assigneeColumns(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('scan_orders_org_idx').on(t.organizationId),
    index('scan_orders_updated_idx').on(t.updatedAt, t.id),
  ],
);

export const scanOrderLists = pgTable('scan_order_lists', {
  /** Set by a trigger on every insert and update: the sync feed's monotonic cursor. */
  changeSeq: changeSeq(),
  id: uuid().primaryKey(),
  status: text().notNull().default('active'),
  creatorUserId: uuid(),
  organizationId: uuid().notNull(),
  ...assigneeColumns(),
  scanOrderIds: textArray(),
  expiration: at(),
  orderBy: text(),
  orderDirection: text(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const organs = pgTable('organs', {
  /** Set by a trigger on every insert and update: the sync feed's monotonic cursor. */
  changeSeq: changeSeq(),
  id: uuid().primaryKey(),
  name: text().notNull(),
  animal: text().notNull(),
  ...assigneeColumns(),
  createdBy: uuid(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const pipelines = pgTable('pipelines', {
  /** Set by a trigger on every insert and update: the sync feed's monotonic cursor. */
  changeSeq: changeSeq(),
  id: uuid().primaryKey(),
  creatorUserId: uuid(),
  name: text().notNull(),
  predictorIds: textArray(),
  organId: uuid(),
  assigneeOrgIds: textArray(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const predictors = pgTable('predictors', {
  /** Set by a trigger on every insert and update: the sync feed's monotonic cursor. */
  changeSeq: changeSeq(),
  id: uuid().primaryKey(),
  creatorUserId: uuid(),
  organizationId: uuid(),
  archiveAt: at(),
  storageStatus: text().notNull().default('active'),
  status: text().notNull().default('active'),
  name: text().notNull(),
  title: text().notNull().default(''),
  version: text().notNull().default('1'),
  mediaType: text(),
  organId: uuid(),
  scanType: text(),
  inputPixelScale: doublePrecision(),
  outputPixelScale: doublePrecision(),
  outputTileShape: jsonb().$type<number[]>(),
  outputTileOverlap: integer(),
  inputDataType: text(),
  outputDataType: text(),
  inputChannels: jsonb().$type<unknown[]>().notNull().default([]),
  outputChannels: jsonb().$type<unknown[]>().notNull().default([]),
  uuid: uuid(),
  defaultViewerSettings: jsonb().$type<Record<string, unknown>>(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
