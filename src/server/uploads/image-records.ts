// Adding an image (what an upload makes once its file has a slide, and each further scene of that
// file, scenes.ts): it takes its slide's assignees and storage status, and writes the 'upload'
// activity. The images folder reads and serves them; only the upload flow makes them.
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Image } from '../../api/entities';
import type { ImageStatus, ImageType, ScanType } from '../../api/enums';
import { recordActivity } from '../activities/record';
import type { Db } from '../db/client';
import { images, scanGroups } from '../db/schema';
import { fromScanGroup } from '../scan-groups/inheritance';

export type ImageRow = typeof images.$inferSelect;

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
  scene?: number;
  uploadGroupId?: string | null;
  /** Default now; a scene's image is placed right after the first scene's (the viewer's order). */
  createdAt?: Date;
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
