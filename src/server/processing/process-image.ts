// The 'process-image' job: read the uploaded slide (through the file storage: in place on the local
// disk, a temporary copy under DATA_DIR/tmp when in S3), write its DZI pyramid(s), thumbnail and label
// picture, decode the label's barcode to a slide's simpleId and link the image to that slide, then mark
// the image completed. An unreadable file ends in status failed with the reader's reason (not retried:
// it would fail the same way); anything unexpected is thrown so the queue retries, and after the last
// attempt the image ends failed with 'processing_error'. A canceled image (POST /images/:id/cancel)
// is failed already: the job stops at its next band of tiles and changes nothing more.
import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { normalizeSimpleId } from '../../api/scan-groups';
import type { LayersManifest } from '../../api/tiles';
import type { Db } from '../db/client';
import { images, organizations, scanGroups } from '../db/schema';
import type { JobHandler } from '../jobs/worker';
import { decodeLabel } from '../slides/barcode';
import { SlideError } from '../slides/errors';
import { openSlide } from '../slides/registry';
import type { Slide } from '../slides/types';
import type { FileStorage } from '../storage';
import { slideKeys, tilesDir } from './files';
import { labelPng, rgbHex, thumbnailJpeg } from './previews';
import { writePyramid } from './tiler';

export const PROCESS_IMAGE = 'process-image';

/** Image statuses of a file not yet processed: the job may start, fail or be canceled only then. */
export const WAITING: readonly string[] = ['created', 'processing'];

/** Label outcomes recorded in image.info.code, read by the upload rows (§4.3). */
export const LabelOutcome = {
  linked: 'label_applied',
  unreadable: 'image_label_decode_error',
  noMatch: 'label_does_not_exist',
} as const;

export interface ProcessingDeps {
  db: Db;
  dataDir: string;
  /** Where the originals are (tiles are written under dataDir). */
  storage: FileStorage;
  log: FastifyBaseLogger;
  /** Level-0 pixels per scene past which a slide is refused (MAX_SLIDE_PIXELS, slides/limits.ts). */
  maxSlidePixels?: number;
  /** Called after an image is linked to a slide (recomputes inherited assignees). */
  onLinked?: (db: Db, scanGroupId: string) => Promise<void>;
}

export function processImageHandler(deps: ProcessingDeps): JobHandler {
  return async (job, signal) => {
    const imageId = String(job.payload.imageId);
    const [image] = await deps.db.select().from(images).where(eq(images.id, imageId));
    if (!image || !image.storageKey) return; // deleted meanwhile, or nothing stored: nothing to do
    const started = await deps.db
      .update(images)
      .set({ status: 'processing', workerId: job.lockedBy })
      .where(and(eq(images.id, imageId), inArray(images.status, WAITING)))
      .returning({ id: images.id });
    if (!started.length) return; // canceled (or already done) meanwhile
    const keys = await slideKeys(deps.storage, image.storageKey);
    await deps.storage.withLocalFiles(keys, async (files) => {
      let slide: Slide;
      try {
        slide = await openSlide(files, { maxPixels: deps.maxSlidePixels });
      } catch (error) {
        if (!(error instanceof SlideError)) throw error;
        await markFailed(deps.db, imageId, 'read_error', error);
        return;
      }
      try {
        await render(deps, imageId, image.organizationId, slide, signal);
      } finally {
        await slide.close();
      }
    });
  };
}

async function render(
  deps: ProcessingDeps,
  imageId: string,
  organizationId: string,
  slide: Slide,
  signal?: AbortSignal,
) {
  const out = tilesDir(deps.dataDir, imageId);
  const work = `${out}.partial`;
  await fs.rm(work, { recursive: true, force: true });
  let pyramid;
  try {
    pyramid = await writePyramid(slide, work, { signal });
  } catch (error) {
    // Canceled (or the worker stopping): what was written so far is of no use.
    if (signal?.aborted) await fs.rm(work, { recursive: true, force: true });
    throw error;
  }
  const ranges = pyramid.layers.map((l) => l.range).filter((r): r is { min: number; max: number } => !!r);
  await fs.writeFile(
    path.join(work, 'thumbnail.jpg'),
    await thumbnailJpeg(slide, ranges.length ? ranges : undefined),
  );
  const label = await labelPng(slide);
  if (label) await fs.writeFile(path.join(work, 'label.png'), label.png);
  const manifest: LayersManifest = {
    kind: slide.kind,
    width: pyramid.width,
    height: pyramid.height,
    pixelSizeUm: slide.pixelSizeUm,
    layers: pyramid.layers.map((l, i) => ({
      name: l.name,
      label: slide.kind === 'brightfield' ? slide.channels[0]?.name || 'Brightfield' : slide.channels[i].name,
      color: slide.kind === 'brightfield' ? '#ffffff' : rgbHex(slide.channels[i].color),
      range: l.range,
    })),
  };
  await fs.writeFile(path.join(work, 'layers.json'), JSON.stringify(manifest));
  // Swap in the finished pyramid at once: a retried job never leaves a half-written one behind.
  await fs.rm(out, { recursive: true, force: true });
  await fs.rename(work, out);

  const simpleId = label ? await decodeLabel(label.raw) : undefined;
  const scanGroupId = simpleId ? await findSlide(deps.db, organizationId, simpleId) : undefined;
  const code = scanGroupId
    ? LabelOutcome.linked
    : label && !simpleId
      ? LabelOutcome.unreadable
      : LabelOutcome.noMatch;
  const finished = await deps.db
    .update(images)
    .set({
      status: 'completed',
      displayStatus: 'completed',
      scanType: slide.kind === 'brightfield' ? 'brightfield' : 'autofluorescence',
      mediaType: `image/x-${slide.format}`,
      pixelScale: slide.pixelSizeUm?.x ?? null,
      channels: manifest.layers.map((l) => ({ name: l.label, color: l.color })),
      displayUUIDs: pyramid.layers.map((l) => l.name),
      ...(scanGroupId ? { scanGroupId } : {}),
      info: sql`${images.info} || ${JSON.stringify({ code, desc: simpleId ?? '' })}::jsonb`,
    })
    .where(and(eq(images.id, imageId), eq(images.status, 'processing')))
    .returning({ id: images.id });
  if (!finished.length) {
    // Canceled while the last tiles were written (the cancel reached another process's worker late).
    await fs.rm(out, { recursive: true, force: true });
    return;
  }
  if (scanGroupId) {
    await deps.db
      .update(scanGroups)
      .set({ lastUploadDate: new Date() })
      .where(eq(scanGroups.id, scanGroupId));
    await deps.onLinked?.(deps.db, scanGroupId);
  }
  deps.log.info({ imageId, tiles: pyramid.tiles, simpleId, scanGroupId }, 'image processed');
}

/** The slide with that simpleId inside the image organization's tree (same root), if any. */
async function findSlide(db: Db, organizationId: string, simpleId: string): Promise<string | undefined> {
  const [org] = await db
    .select({ rootId: organizations.rootId })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!org) return undefined;
  const rows = await db
    .select({ id: scanGroups.id })
    .from(scanGroups)
    .innerJoin(organizations, eq(organizations.id, scanGroups.organizationId))
    .where(
      and(
        // As printed (labels from a LIS keep their own form), or as a person would type it.
        inArray(scanGroups.simpleId, [simpleId.trim(), normalizeSimpleId(simpleId)]),
        eq(organizations.rootId, org.rootId),
      ),
    );
  return rows[0]?.id;
}

export async function markFailed(db: Db, imageId: string, code: string, error: unknown): Promise<void> {
  const err = error instanceof Error ? error : new Error(String(error));
  const info = { code, desc: err.message, traceback: err.stack ?? err.message };
  await db
    .update(images)
    .set({ status: 'failed', info: sql`${images.info} || ${JSON.stringify(info)}::jsonb` })
    .where(and(eq(images.id, imageId), inArray(images.status, WAITING)));
}
