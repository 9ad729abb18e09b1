// The first step of processing, run as soon as the slide is open (its header and index read, no pixel
// of full resolution decoded): the image's manifest (size, pixel size, layers with colours and display
// ranges), its label read and linked to the slide it names, and the image marked completed, so it is
// viewable at once: its tiles are cut on demand (tile-on-demand.ts) until the pyramid written behind
// it exists. Costs a few reads of the file's smallest levels and the label, whatever the slide's size.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { normalizeSimpleId } from '../../api/scan-groups';
import type { LayersManifest } from '../../api/tiles';
import type { Db } from '../db/client';
import { images, organizations, scanGroups } from '../db/schema';
import { decodeLabel } from '../slides/barcode';
import type { Slide } from '../slides/types';
import { labelPng, rgbHex } from './previews';
import { channelRange } from './tiler';

/** Label outcomes recorded in image.info.code, read by the upload rows (§4.3). */
export const LabelOutcome = {
  linked: 'label_applied',
  unreadable: 'image_label_decode_error',
  noMatch: 'label_does_not_exist',
} as const;

export interface ViewableDeps {
  db: Db;
  /** Called after an image is linked to a slide (recomputes inherited assignees). */
  onLinked?: (db: Db, scanGroupId: string) => Promise<void>;
}

/**
 * The layers.json of the slide: one RGB layer for brightfield, one per channel for fluorescence with
 * the display range the tiler maps it through (channelRange: the same data, the same range), named as
 * the tiler names its pyramids.
 */
export async function slideManifest(slide: Slide): Promise<LayersManifest> {
  const { width, height } = slide.levels[0];
  const layers: LayersManifest['layers'] =
    slide.kind === 'brightfield'
      ? [{ name: 'rgb', label: slide.channels[0]?.name || 'Brightfield', color: '#ffffff' }]
      : await Promise.all(
          slide.channels.map(async (c, i) => ({
            name: `c${i}`,
            label: c.name,
            color: rgbHex(c.color),
            range: await channelRange(slide, i),
          })),
        );
  return { kind: slide.kind, width, height, pixelSizeUm: slide.pixelSizeUm, layers };
}

/**
 * Stores the manifest, links the label and marks image `imageId` completed (viewable). Returns the
 * manifest, or undefined when the image was canceled or deleted meanwhile (nothing changed then).
 */
export async function makeViewable(
  deps: ViewableDeps,
  imageId: string,
  organizationId: string,
  slide: Slide,
): Promise<LayersManifest | undefined> {
  const manifest = await slideManifest(slide);
  const label = await labelPng(slide);
  const simpleId = label ? await decodeLabel(label.raw) : undefined;
  const scanGroupId = simpleId ? await findSlide(deps.db, organizationId, simpleId) : undefined;
  const code = scanGroupId
    ? LabelOutcome.linked
    : label && !simpleId
      ? LabelOutcome.unreadable
      : LabelOutcome.noMatch;
  const done = await deps.db
    .update(images)
    .set({
      status: 'completed',
      displayStatus: 'completed',
      scanType: slide.kind === 'brightfield' ? 'brightfield' : 'autofluorescence',
      mediaType: `image/x-${slide.format}`,
      pixelScale: slide.pixelSizeUm?.x ?? null,
      channels: manifest.layers.map((l) => ({ name: l.label, color: l.color })),
      displayUUIDs: manifest.layers.map((l) => l.name),
      manifest,
      ...(scanGroupId ? { scanGroupId } : {}),
      // A slide applied meanwhile by the uploader's label repair (to every scene's image) stays.
      info: scanGroupId
        ? sql`${images.info} || ${JSON.stringify({ code, desc: simpleId ?? '' })}::jsonb`
        : sql`CASE WHEN ${images.scanGroupId} IS NULL THEN ${images.info} || ${JSON.stringify({ code, desc: simpleId ?? '' })}::jsonb ELSE ${images.info} END`,
    })
    .where(and(eq(images.id, imageId), eq(images.status, 'processing')))
    .returning({ id: images.id });
  if (!done.length) return undefined; // canceled (POST /images/:id/cancel) or deleted meanwhile
  if (scanGroupId) {
    await deps.db
      .update(scanGroups)
      .set({ lastUploadDate: new Date() })
      .where(eq(scanGroups.id, scanGroupId));
    await deps.onLinked?.(deps.db, scanGroupId);
  }
  return manifest;
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
