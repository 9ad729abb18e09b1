// The 'process-image' job: read the uploaded slide (through the file storage: in place on the local
// disk, by ranged reads when in S3) in two steps. First, as soon as it is open,
// make the image viewable (viewable.ts: its manifest, its label read and linked to the slide it names,
// status completed), so its tiles are cut on demand at once; then write its DZI pyramid(s) into one pack
// file on the local disk, and store its thumbnail, label picture and then the pack through the file
// storage (derived.ts): the pack stored is the pyramid complete. An image shows one scene of its file: the
// first scene's job adds an image (and a job) for each further scene (uploads/scenes.ts). An unreadable
// file ends in status failed with the reader's reason (not retried: it would fail the same way);
// anything unexpected is thrown so the queue retries (a retry of a viewable image only writes the
// pyramid), and after the last attempt an image not yet viewable ends failed with 'processing_error'.
// A canceled image (POST /images/:id/cancel, only before it is viewable) is failed already: the job
// changes nothing more.
import fs from 'node:fs/promises';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { LayersManifest } from '../../api/tiles';
import type { Db } from '../db/client';
import { images } from '../db/schema';
import type { JobHandler } from '../jobs/worker';
import { SlideError } from '../slides/errors';
import type { Slide } from '../slides/types';
import type { FileStorage } from '../storage';
import { addSceneImages } from '../uploads/scenes';
import {
  forgetPack,
  packKey,
  previewKey,
  pyramidDone,
  removeDerived,
  storeBytes,
  sweepWork,
  workDir,
  workFile,
} from './derived';
import { openStoredSlide, slideKeys, tilesDir } from './files';
import { forgetOpenSlide } from './tile-on-demand';
import { PYRAMID_NICENESS, writePackInChild } from './pyramid-process';
import { makeViewable } from './viewable';

/** Image statuses of a file not yet processed: the job may start, fail or be canceled only then. */
export const WAITING: readonly string[] = ['created', 'processing'];

export interface ProcessingDeps {
  db: Db;
  dataDir: string;
  /** Where the originals are, and where what is derived from them is stored. */
  storage: FileStorage;
  log: FastifyBaseLogger;
  /** Level-0 pixels per scene past which a slide is refused (MAX_SLIDE_PIXELS, slides/limits.ts). */
  maxSlidePixels?: number;
  /** Called after an image is linked to a slide (recomputes inherited assignees). */
  onLinked?: (db: Db, scanGroupId: string) => Promise<void>;
  /**
   * Awaited once the image is viewable, before its pyramid is written (tests hold the job there to
   * request tiles while it processes).
   */
  onViewable?: (imageId: string) => Promise<void>;
}

export function processImageHandler(deps: ProcessingDeps): JobHandler {
  return async (job, signal) => {
    const imageId = String(job.payload.imageId);
    const [image] = await deps.db.select().from(images).where(eq(images.id, imageId));
    if (!image || !image.storageKey) return; // deleted meanwhile, or nothing stored: nothing to do
    // Viewable already (a retry after the pyramid step failed): only the pyramid remains, if it does.
    const viewable = image.status === 'completed' ? image.manifest : null;
    if (viewable) {
      if (await pyramidDone(deps.storage, deps.dataDir, imageId)) return;
    } else {
      const started = await deps.db
        .update(images)
        .set({ status: 'processing', workerId: job.lockedBy })
        .where(and(eq(images.id, imageId), inArray(images.status, WAITING)))
        .returning({ id: images.id });
      if (!started.length) return; // canceled (or already done) meanwhile
    }
    const keys = await slideKeys(deps.storage, image.storageKey);
    let slide: Slide;
    try {
      // By key through the storage: the file itself on disk, ranged reads from S3 (no local copy).
      slide = await openStoredSlide(deps.storage, keys, {
        maxPixels: deps.maxSlidePixels,
        scene: image.scene,
      });
    } catch (error) {
      if (!(error instanceof SlideError)) throw error;
      await markFailed(deps.db, imageId, 'read_error', error);
      return;
    }
    let manifest = viewable;
    try {
      if (!manifest) {
        await addSceneImages(deps.db, image, slide.scenes);
        manifest = (await makeViewable(deps, imageId, image.organizationId, slide)) ?? null;
        if (!manifest) return; // canceled or deleted meanwhile
        deps.log.info({ imageId }, 'image viewable');
        await deps.onViewable?.(imageId);
      }
    } finally {
      // The pyramid's child opens the slide itself: this one holds nothing it needs meanwhile.
      await slide.close();
    }
    await render(deps, imageId, { keys, scene: image.scene }, manifest, signal);
  };
}

/** Each work folder's sweep, done by the first render in it of this process. */
const swept = new Map<string, Promise<number>>();

/**
 * Writes the pyramid(s) and layers.json into a pack on the local disk (DATA_DIR/work) and makes the
 * thumbnail and label picture, in a child process of its own (pyramid-process.ts) so that requests are
 * answered meanwhile; stores the thumbnail and label picture, then the pack: a tile asked for before
 * the pack is stored is cut on demand, and a retried job never leaves half a pyramid behind.
 */
async function render(
  deps: ProcessingDeps,
  imageId: string,
  source: { keys: string[]; scene: number },
  manifest: LayersManifest,
  signal?: AbortSignal,
) {
  const work = workDir(deps.dataDir);
  await fs.mkdir(work, { recursive: true });
  // Once per process: what an ended process of this host left half-written.
  if (!swept.has(work))
    swept.set(
      work,
      sweepWork(work).catch(() => 0),
    );
  await swept.get(work);
  const file = workFile(work, imageId, 'pack');
  // On failure the pack is gone when this rejects (writePackInChild waits for the child's end): a
  // retry starts the pyramid again.
  const rendered = await writePackInChild(
    {
      storage: deps.storage.settings,
      keys: source.keys,
      scene: source.scene,
      maxPixels: deps.maxSlidePixels,
      file,
      layersJson: JSON.stringify(manifest),
      niceness: PYRAMID_NICENESS,
    },
    { signal },
  );
  try {
    const { storage } = deps;
    await storeBytes(storage, previewKey(imageId, 'thumbnail.jpg'), rendered.thumbnail, work);
    if (rendered.label) await storeBytes(storage, previewKey(imageId, 'label.png'), rendered.label, work);
    else await storage.delete(previewKey(imageId, 'label.png'));
    await storage.adoptFile(packKey(imageId), file);
  } finally {
    await fs.rm(file, { force: true });
  }
  await forgetPack(deps.dataDir, imageId);
  // Loose files of an earlier processing of this image are superseded by the pack.
  await fs.rm(tilesDir(deps.dataDir, imageId), { recursive: true, force: true });
  const [still] = await deps.db.select({ id: images.id }).from(images).where(eq(images.id, imageId));
  if (!still) await removeDerived(deps.storage, deps.dataDir, imageId); // deleted while it was written
  await forgetOpenSlide(deps.dataDir, imageId);
  deps.log.info({ imageId, tiles: rendered.pyramid.tiles, bytes: rendered.bytes }, 'image processed');
}

export async function markFailed(db: Db, imageId: string, code: string, error: unknown): Promise<void> {
  const err = error instanceof Error ? error : new Error(String(error));
  const info = { code, desc: err.message, traceback: err.stack ?? err.message };
  await db
    .update(images)
    .set({ status: 'failed', info: sql`${images.info} || ${JSON.stringify(info)}::jsonb` })
    .where(and(eq(images.id, imageId), inArray(images.status, WAITING)));
}
