// One image per scene: an uploaded file holding several scenes (a Zeiss slide with three tissue sections
// is one .czi with three) becomes one image per scene, each processed by its own job to its own size,
// channels, pyramid and thumbnail, and linked by the label like the first. The first scene's image is
// the one the upload made; when its job opens the file and counts the scenes, it adds the others here.
// Their ids (and their jobs' ids) derive from the first image's id and the scene, so a retried job
// finds them made and adds nothing twice.
import crypto from 'node:crypto';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { sceneImageName } from '../../api/images';
import type { Db } from '../db/client';
import { images } from '../db/schema';
import { PROCESS_IMAGE } from '../jobs/kinds';
import { enqueue } from '../jobs/queue';
import { createImageRecord, type ImageRow } from './image-records';

/** A name-based (version 5 layout) UUID of `first` and `scene`: the same inputs, the same id. */
export function sceneImageId(first: string, scene: number): string {
  const b = crypto.createHash('sha1').update(`${first}/scene/${scene}`).digest().subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * Makes the images of scenes 1..count-1 of `first`'s file (status created, same file, organization,
 * creator, upload group and slide) and queues their processing, in one transaction; names every
 * scene's image 'file (scene i of n)'. Does nothing for a file of one scene or for a scene's image.
 */
export async function addSceneImages(db: Db, first: ImageRow, count: number): Promise<string[]> {
  if (count <= 1 || first.scene !== 0 || !first.storageKey) return [];
  const fileName = path.posix.basename(first.storageKey);
  const wanted = Array.from({ length: count - 1 }, (_, i) => ({
    scene: i + 1,
    id: sceneImageId(first.id, i + 1),
  }));
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(images).where(eq(images.id, first.id)).for('update');
    if (row?.status !== 'processing') return []; // deleted or canceled meanwhile: no more scenes
    const have = new Set(
      (
        await tx
          .select({ id: images.id })
          .from(images)
          .where(
            inArray(
              images.id,
              wanted.map((w) => w.id),
            ),
          )
      ).map((r) => r.id),
    );
    if (row.name === fileName)
      await tx
        .update(images)
        .set({ name: sceneImageName(fileName, 0, count) })
        .where(eq(images.id, row.id));
    const added: string[] = [];
    for (const w of wanted.filter((x) => !have.has(x.id))) {
      await createImageRecord(tx, {
        id: w.id,
        name: sceneImageName(fileName, w.scene, count),
        organizationId: row.organizationId,
        creatorUserId: row.creatorUserId,
        scanGroupId: row.scanGroupId,
        status: 'created',
        imageType: 'real',
        info: { uploadStart: row.info.uploadStart, uploadEnd: row.info.uploadEnd, size: row.info.size },
        storageKey: row.storageKey,
        // The file is counted once, on the first scene's image (the storage totals add fileSize up).
        fileSize: null,
        scene: w.scene,
        uploadGroupId: row.uploadGroupId,
        // Right after the first scene's image, in scene order: lists sort images by createdAt.
        createdAt: new Date(row.createdAt.getTime() + w.scene),
      });
      await enqueue(tx, PROCESS_IMAGE, { imageId: w.id }, { id: w.id });
      added.push(w.id);
    }
    return added;
  });
}
