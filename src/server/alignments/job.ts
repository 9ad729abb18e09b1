// The 'align-rigid' job: computes a requested rigid alignment. It takes the request (active →
// processing), reads both images' thumbnails and level-0 sizes (stored by the processing job:
// processing/derived.ts; a 512-pixel picture of the whole slide costs one JPEG decode, where reading a slide
// level would reopen the original, possibly from S3), aligns them (compute/rigid.ts) and stores the
// result (fulfilled) or the reason there is none (failed). Anything unexpected is thrown so the queue
// retries; after the last attempt the alignment ends failed with a plain reason (failAlignment).
import { and, eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { AlignmentFailureText, type AlignmentFailureReason } from '../../api/alignments';
import type { LayersManifest } from '../../api/tiles';
import type { Db } from '../db/client';
import { alignmentRigids, images } from '../db/schema';
import type { JobHandler } from '../jobs/worker';
import type { JobRow } from '../jobs/queue';
import { readDerived } from '../processing/derived';
import { AlignmentFailure, alignRigid, type AlignSource } from './compute/rigid';

/** What the job needs of its surroundings. */
export interface AlignDeps {
  db: Db;
  dataDir: string;
}

/** One image's picture and level-0 size, or the reason it has none. */
async function sourceOf(
  deps: AlignDeps,
  imageId: string,
  role: 'reference' | 'target',
): Promise<AlignSource> {
  const [image] = await deps.db.select({ status: images.status }).from(images).where(eq(images.id, imageId));
  if (!image) throw new AlignmentFailure(role === 'reference' ? 'referenceGone' : 'targetGone');
  const notReady = new AlignmentFailure(role === 'reference' ? 'referenceNotReady' : 'targetNotReady');
  if (image.status !== 'completed') throw notReady;
  const layers = await readDerived(deps.dataDir, imageId, 'layers.json');
  const jpeg = await readDerived(deps.dataDir, imageId, 'thumbnail.jpg');
  if (!layers || !jpeg) throw notReady;
  const manifest = JSON.parse(layers.toString('utf8')) as LayersManifest;
  if (!(manifest.width > 0 && manifest.height > 0)) throw notReady;
  const { data, info } = await sharp(jpeg)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixelSize = manifest.pixelSizeUm ? (manifest.pixelSizeUm.x + manifest.pixelSizeUm.y) / 2 : undefined;
  return {
    picture: { width: info.width, height: info.height, data: new Uint8Array(data), channels: 3 },
    width: manifest.width,
    height: manifest.height,
    pixelSizeUm: pixelSize && pixelSize > 0 ? pixelSize : undefined,
    // The thumbnail of a fluorescence slide is its channels composited on black (previews.ts).
    kind: manifest.kind,
  };
}

/** Ends an alignment this job holds (processing, or still active when the job died before taking it). */
async function finish(
  db: Db,
  id: string,
  set: Partial<typeof alignmentRigids.$inferInsert>,
  from: string[] = ['processing'],
): Promise<void> {
  await db
    .update(alignmentRigids)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(alignmentRigids.id, id), inArray(alignmentRigids.status, from)));
}

export function alignRigidHandler(deps: AlignDeps): JobHandler {
  return async (job, signal) => {
    const id = String(job.payload.alignmentId);
    // A retried attempt finds its alignment processing already and takes it up again.
    const [row] = await deps.db
      .update(alignmentRigids)
      .set({ status: 'processing', updatedAt: new Date() })
      .where(and(eq(alignmentRigids.id, id), inArray(alignmentRigids.status, ['active', 'processing'])))
      .returning();
    if (!row) return; // gone, or finished meanwhile
    const input = row.inputData as { referenceImageId: string; targetImageId: string };
    try {
      const reference = await sourceOf(deps, input.referenceImageId, 'reference');
      const target = await sourceOf(deps, input.targetImageId, 'target');
      const outputData = await alignRigid(reference, target, signal);
      await finish(deps.db, id, { status: 'fulfilled', outputData, error: null });
    } catch (error) {
      if (!(error instanceof AlignmentFailure)) throw error;
      await finish(deps.db, id, { status: 'failed', error: AlignmentFailureText[error.reason] });
    }
  };
}

/** Ends the alignment of a job that failed on every attempt (the queue's onGiveUp). */
export async function failAlignment(db: Db, job: JobRow): Promise<void> {
  const reason: AlignmentFailureReason = 'unexpected';
  await finish(
    db,
    String(job.payload.alignmentId),
    { status: 'failed', error: AlignmentFailureText[reason] },
    ['active', 'processing'],
  );
}
