// Images as stored and as the API returns them (spec §3), their read-scope columns, where their
// files live, and the writes of the image routes. The upload flow adds them (uploads/image-records.ts).
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { ImageSubject } from '../../access';
import type { Image } from '../../api/entities';
import type { ImageStatus, ImageType, ScanType, StorageStatus } from '../../api/enums';
import { CANCELED_INFO } from '../../api/images';
import type { Db } from '../db/client';
import type { ScopeColumns } from '../db/read-scope-sql';
import { images } from '../db/schema';
import { assertReadable } from '../http/guard';
import { filesRoot, tilesDir } from '../processing/files';

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

/** Writes `set` (plain values or SQL of the stored ones) to the image; the row as it is now. */
export async function updateImage(
  db: Db,
  id: string,
  set: PgUpdateSetSource<typeof images>,
): Promise<ImageRow> {
  const [updated] = await db.update(images).set(set).where(eq(images.id, id)).returning();
  return updated;
}

/**
 * Fails the image with info.code 'aborted' if its status is still one of `waiting` (processing's
 * statuses before the end); the row as it is now, or undefined when it was not waiting.
 */
export async function markImageCanceled(
  db: Db,
  id: string,
  waiting: readonly string[],
): Promise<ImageRow | undefined> {
  const [updated] = await db
    .update(images)
    .set({ status: 'failed', info: sql`${images.info} || ${JSON.stringify(CANCELED_INFO)}::jsonb` })
    .where(and(eq(images.id, id), inArray(images.status, waiting)))
    .returning();
  return updated;
}
