// Images as stored and as the API returns them (spec §3), their read-scope columns, where their files
// live, and createImageRecord: how the upload flow adds an image to a slide.
import crypto from 'node:crypto';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { ImageSubject } from '../../access';
import type { Image } from '../../api/entities';
import type { ImageStatus, ImageType, ScanType, StorageStatus } from '../../api/enums';
import { recordActivity } from '../activities/record';
import type { Db } from '../db/client';
import type { ScopeColumns } from '../db/read-scope-sql';
import { images, scanGroups } from '../db/schema';
import { assertReadable } from '../http/guard';
import { filesRoot, tilesDir } from '../processing/files';
import { fromScanGroup } from '../scan-groups/inheritance';

export type ImageRow = typeof images.$inferSelect;

/** Images have no direct assignees: they are read by organization, creator or inheritance (§6.2). */
export const imageScope: ScopeColumns = {
  organizationId: images.organizationId,
  creatorUserId: images.creatorUserId,
  inheritedAssignees: images.inheritedAssignees,
};

export function toImage(row: ImageRow): Image {
  return {
    id: row.id,
    name: row.name,
    organizationId: row.organizationId,
    creatorUserId: row.creatorUserId,
    status: row.status as ImageStatus,
    mediaType: row.mediaType,
    info: row.info,
    scanType: (row.scanType as ScanType | null) ?? null,
    channels: row.channels,
    imageType: row.imageType as ImageType,
    scanGroupId: row.scanGroupId,
    storageStatus: row.storageStatus as StorageStatus,
    archiveAt: row.archiveAt?.toISOString() ?? null,
    sourceImageId: row.sourceImageId,
    scanOrderId: row.scanOrderId,
    predictorId: row.predictorId,
    pixelScale: row.pixelScale,
    displayUUIDs: row.displayUUIDs,
    displayStatus: row.displayStatus,
    workerId: row.workerId,
    inheritedAssignees: row.inheritedAssignees,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function findImage(db: Db, id: string, lock = false): Promise<ImageRow | undefined> {
  const q = db.select().from(images).where(eq(images.id, id));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

/** The image and its entity, or 404 'Image not found' when missing or not readable by the caller. */
export async function readableImage(db: Db, request: FastifyRequest, id: string, lock = false) {
  const row = await findImage(db, id, lock);
  const entity = row && toImage(row);
  assertReadable(request, 'Image', entity && imageSubject(entity), 'Image');
  return { row: row as ImageRow, entity: entity as Image };
}

/** The image as src/access sees it (no slide is `undefined` there, not null). */
export const imageSubject = (image: Image): ImageSubject => ({
  ...image,
  scanGroupId: image.scanGroupId ?? undefined,
});

export type ImageFileKind = 'original' | 'thumbnail' | 'label';

/**
 * Where an image's file lives on disk, or null when it has none: the original under DATA_DIR/files at
 * its storageKey, the thumbnail and label image where the processing job writes them (its tiles folder).
 */
export function imageFilePath(
  dataDir: string,
  row: Pick<ImageRow, 'id' | 'storageKey'>,
  kind: ImageFileKind,
): string | null {
  if (kind === 'thumbnail') return path.join(tilesDir(dataDir, row.id), 'thumbnail.jpg');
  if (kind === 'label') return path.join(tilesDir(dataDir, row.id), 'label.png');
  if (!row.storageKey) return null;
  const root = filesRoot(dataDir);
  const full = path.resolve(root, row.storageKey);
  // A storage key is ours, but never let one point outside the files folder.
  return full.startsWith(root + path.sep) ? full : null;
}

export interface NewImage {
  id?: string;
  name: string;
  organizationId: string;
  creatorUserId: string | null;
  scanGroupId?: string | null;
  status?: ImageStatus;
  displayStatus?: string;
  mediaType?: string | null;
  scanType?: ScanType | null;
  imageType?: ImageType;
  channels?: Array<{ name: string; color: string }>;
  pixelScale?: number | null;
  info?: Image['info'];
  storageKey?: string | null;
  fileSize?: number | null;
  sourceImageId?: string | null;
  scanOrderId?: string | null;
  predictorId?: string | null;
}

/**
 * Adds an image (the upload flow calls this once the file has a slide): it inherits its slide's
 * assignees and storage status, the slide's lastUploadDate moves to now, and an 'upload' activity is
 * written. Pass a transaction when this belongs with other writes. Authorization is the caller's.
 */
export async function createImageRecord(db: Db, values: NewImage): Promise<ImageRow> {
  const [group] = values.scanGroupId
    ? await db.select().from(scanGroups).where(eq(scanGroups.id, values.scanGroupId))
    : [];
  if (values.scanGroupId && !group) throw new Error(`images: no slide ${values.scanGroupId}`);
  const [row] = await db
    .insert(images)
    .values({
      ...values,
      id: values.id ?? crypto.randomUUID(),
      scanGroupId: values.scanGroupId ?? null,
      storageStatus: group?.storageStatus ?? 'active',
      archiveAt: group?.archiveAt ?? null,
      inheritedAssignees: group ? fromScanGroup(group) : [],
    })
    .returning();
  if (group)
    await db.update(scanGroups).set({ lastUploadDate: new Date() }).where(eq(scanGroups.id, group.id));
  await recordActivity(db, {
    actionType: 'upload',
    reference: 'Image',
    referenceId: row.id,
    diff: { name: row.name, scanGroupId: row.scanGroupId },
    creatorUserId: values.creatorUserId,
    organizationId: values.organizationId,
  });
  return row;
}
