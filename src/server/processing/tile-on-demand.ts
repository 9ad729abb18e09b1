// The files of an image's tiles folder that are not written yet, made from the original on demand: the
// processing job marks an image viewable (and stores its manifest) as soon as the slide's header is
// read, then writes the DZI pyramid behind it (docs/formats.md "Viewable at once"). Until a file of the
// pyramid exists, its DZI descriptor and layers.json come from the stored manifest, and a tile is cut
// from the reader's own levels: the file's level nearest below the tile's downsample (a CZI's pyramid
// subblocks, QPTIFF's reduced pages, MRXS levels), resized with sharp and JPEG-encoded as the tiler
// does, so it matches the pyramid's tile within JPEG tolerance (same geometry: dzi.ts).
// Bounds: slides stay open in OpenSlides, cut tiles in a byte-bounded LRU, at most CUTS_AT_ONCE cuts
// run at once, and a tile whose source would be more than MAX_SOURCE_PIXELS pixels to decode (a low
// level of a slide without a pyramid of its own) answers 503 until the pyramid has it.
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import sharp from 'sharp';
import type { LayersManifest } from '../../api/tiles';
import type { AppContext } from '../context';
import { images } from '../db/schema';
import { apiError, HttpError, notFound } from '../http/errors';
import { SlideError } from '../slides/errors';
import { maxSlidePixelsFromEnv } from '../slides/limits';
import { bytesOf } from '../slides/raw';
import type { Slide } from '../slides/types';
import { storageFor } from '../storage';
import { uploadSettingsFromEnv } from '../uploads/config';
import { CutCache, type Cut } from './cut-cache';
import { OVERLAP, TILE_SIZE, dziLevels, dziXml, tileRect, type DziLevel } from './dzi';
import { encodeTile } from './tile-jpeg';
import { slideKeys } from './files';
import { OpenSlides } from './open-slides';
import { bestLevelFor, labelPng, THUMBNAIL_MAX, thumbnailJpeg } from './previews';
import { to8bit } from './tiler';

/** Stored-level pixels one cut may decode: 16 MP (48 MiB of RGB), a 64×64-tile area of a file's level. */
export const MAX_SOURCE_PIXELS = 4096 * 4096;
/** Cuts running at once: bounds the memory of a burst of requests (a viewer asks for ~20 tiles). */
const CUTS_AT_ONCE = 4;

const TILE = /^([a-z0-9]+)_files\/(\d{1,2})\/(\d{1,6})_(\d{1,6})\.jpeg$/;
const DZI = /^([a-z0-9]+)\.dzi$/;

const slides = new OpenSlides();
const cuts = new CutCache();

/** A counting semaphore: `run` waits for one of `limit` slots. */
class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];
  constructor(limit: number) {
    this.free = limit;
  }
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((r) => this.waiting.push(r));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
const slots = new Slots(CUTS_AT_ONCE);

const notReady = () => apiError('TILE_NOT_READY');
const unreadable = () => apiError('TILE_UNREADABLE');

/** Level-0 pixels per pixel of the file's stored level nearest below `downsample` (1 at worst). */
function storedDownsample(slide: Slide, downsample: number): number {
  let best = 1;
  for (const l of slide.levels)
    if (l.stored && l.downsample <= downsample * 1.001 && l.downsample > best) best = l.downsample;
  return best;
}

/** Stored pixels decoded to read w×h pixels of `level`. */
const readCost = (slide: Slide, level: number, w: number, h: number) => {
  const ds = slide.levels[level].downsample;
  const ratio = ds / storedDownsample(slide, ds);
  return w * h * ratio * ratio;
};

/** The slide's level with the largest downsample not above `downsample`: fewest pixels to read. */
function levelFor(slide: Slide, downsample: number): number {
  let best = 0;
  slide.levels.forEach((l, i) => {
    if (l.downsample <= downsample * 1.001 && l.downsample > slide.levels[best].downsample) best = i;
  });
  return best;
}

/** What a request asks to be made: checked against the manifest before the slide is opened. */
type Wanted =
  | { kind: 'tile'; layer: number; level: DziLevel; col: number; row: number }
  | { kind: 'thumbnail' }
  | { kind: 'label' };

/** The file as a Wanted; 404 for a tile outside its level, a level or layer the image does not have. */
function wantedOf(manifest: LayersManifest, file: string): Wanted {
  if (file === 'thumbnail.jpg') return { kind: 'thumbnail' };
  if (file === 'label.png') return { kind: 'label' };
  const m = TILE.exec(file);
  const layer = m ? manifest.layers.findIndex((l) => l.name === m[1]) : -1;
  if (!m || layer < 0) throw notFound('Tile');
  const [level, col, row] = [m[2], m[3], m[4]].map(Number);
  const l = dziLevels(manifest.width, manifest.height).find((v) => v.level === level);
  if (!l || col >= l.cols || row >= l.rows) throw notFound('Tile');
  return { kind: 'tile', layer, level: l, col, row };
}

/** Tile (col,row) of one DZI level of one layer, as the tiler would write it. */
async function cutTile(
  slide: Slide,
  manifest: LayersManifest,
  { layer: layerIndex, level: l, col, row }: Extract<Wanted, { kind: 'tile' }>,
): Promise<Buffer> {
  const rect = tileRect(l, col, row);
  const d = l.downsample;
  // The tile's area in level-0 pixels, clipped to the slide.
  const x0 = rect.x * d;
  const y0 = rect.y * d;
  const x1 = Math.min(manifest.width, (rect.x + rect.w) * d);
  const y1 = Math.min(manifest.height, (rect.y + rect.h) * d);
  const li = levelFor(slide, d);
  const lv = slide.levels[li];
  const s = lv.downsample;
  const sx = Math.min(lv.width - 1, Math.floor(x0 / s));
  const sy = Math.min(lv.height - 1, Math.floor(y0 / s));
  const sw = Math.max(1, Math.min(lv.width, Math.ceil(x1 / s)) - sx);
  const sh = Math.max(1, Math.min(lv.height, Math.ceil(y1 / s)) - sy);
  if (readCost(slide, li, sw, sh) > MAX_SOURCE_PIXELS) throw notReady();
  const layer = manifest.layers[layerIndex];
  const raw = await slide.readRegion(li, sx, sy, sw, sh, manifest.kind === 'brightfield' ? 0 : layerIndex);
  const pixels =
    layer.range && raw.channels === 1
      ? to8bit(raw, layer.range)
      : raw.bits === 16
        ? to8bit(raw, { min: 0, max: 65535 })
        : bytesOf(raw);
  const channels = raw.channels;
  if (sw === rect.w && sh === rect.h) return encodeTile(pixels, sw, sh, channels);
  let img = sharp(pixels, { raw: { width: sw, height: sh, channels } });
  // The pyramid halves an odd last row or column with itself: the same as repeating the slide's edge
  // out to whole target pixels before shrinking (sharp resizes before it extends: two steps).
  const f = d / s;
  const right = Math.max(0, Math.round(rect.w * f) - sw);
  const bottom = Math.max(0, Math.round(rect.h * f) - sh);
  if (right || bottom) {
    // (sharp may hand grey back as RGB: its own answer says how many channels it is.)
    const grown = await img
      .extend({ right, bottom, extendWith: 'copy' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width, height, channels: c } = grown.info;
    img = sharp(grown.data, { raw: { width, height, channels: c as 1 | 3 } });
  }
  img = img.resize(rect.w, rect.h, { fit: 'fill' });
  if (channels === 1) img = img.toColourspace('b-w');
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  return encodeTile(data, info.width, info.height, info.channels);
}

/** The thumbnail, when the file has a level small enough to make it from at once. */
async function cutThumbnail(slide: Slide, manifest: LayersManifest): Promise<Buffer> {
  const li = bestLevelFor(slide, THUMBNAIL_MAX);
  const lv = slide.levels[li];
  if (readCost(slide, li, lv.width, lv.height) > MAX_SOURCE_PIXELS) throw notReady();
  const ranges = manifest.layers.map((l) => l.range).filter((r) => !!r);
  return thumbnailJpeg(slide, ranges.length ? ranges : undefined);
}

/** What a missing file of the tiles folder would hold, or undefined when the slide has none. */
async function make(slide: Slide, manifest: LayersManifest, w: Wanted): Promise<Cut | undefined> {
  if (w.kind === 'tile')
    return { body: await slots.run(() => cutTile(slide, manifest, w)), type: 'image/jpeg' };
  if (w.kind === 'thumbnail')
    return { body: await slots.run(() => cutThumbnail(slide, manifest)), type: 'image/jpeg' };
  const label = await labelPng(slide);
  return label && { body: label.png, type: 'image/png' };
}

/**
 * Answers a file of image `imageId`'s pyramid that is not written yet: from the stored manifest
 * (layers.json, the .dzi descriptors) or cut from the original. The caller has checked that the
 * requester may read the image and that the pyramid is not complete (what a complete one lacks does
 * not exist: no slide is opened for it). 404 for an image not viewable yet or a file it has no such thing as
 * (a tile outside its level); 503 for a tile that waits for the pyramid; 500 with TILE_UNREADABLE
 * when the slide's pixels under it cannot be read.
 */
export async function sendOnDemand(
  ctx: Pick<AppContext, 'db' | 'config'>,
  log: FastifyBaseLogger,
  reply: FastifyReply,
  imageId: string,
  file: string,
): Promise<FastifyReply> {
  const { dataDir } = ctx.config;
  const [image] = await ctx.db
    .select({ storageKey: images.storageKey, scene: images.scene, manifest: images.manifest })
    .from(images)
    .where(eq(images.id, imageId));
  const manifest = image?.manifest;
  if (!manifest || !image.storageKey) throw notFound('Tile');
  let made: Cut | undefined;
  if (file === 'layers.json')
    made = { body: Buffer.from(JSON.stringify(manifest)), type: 'application/json' };
  else if (DZI.test(file)) {
    if (!manifest.layers.some((l) => `${l.name}.dzi` === file)) throw notFound('Tile');
    made = {
      body: Buffer.from(dziXml(manifest.width, manifest.height, 'jpeg', TILE_SIZE, OVERLAP)),
      type: 'application/xml',
    };
  } else {
    const wanted = wantedOf(manifest, file);
    const storageKey = image.storageKey;
    const storage = storageFor({ dataDir, expiryMs: uploadSettingsFromEnv().expiryMs });
    const open = {
      storage,
      keys: await slideKeys(storage, storageKey),
      scene: image.scene,
      maxPixels: maxSlidePixelsFromEnv(),
    };
    try {
      made = await cuts.get(`${dataDir}\0${imageId}/${file}`, async () => {
        const cut = await slides.use(`${dataDir}\0${imageId}`, open, (s) => make(s, manifest, wanted));
        if (!cut) throw notFound('Tile');
        return cut;
      });
    } catch (error) {
      if (error instanceof HttpError) {
        if (error.statusCode === 503) reply.header('Retry-After', '5');
        throw error;
      }
      if (error instanceof SlideError && error.code === 'bad_request') throw notFound('Tile');
      // A damaged part of the file (or a file gone): logged here, a plain sentence to the viewer.
      log.warn({ err: error, imageId, file }, 'tile cut on demand failed');
      throw unreadable();
    }
  }
  const etag = `"d-${crypto.createHash('sha1').update(made.body).digest('hex').slice(0, 20)}"`;
  reply.header('ETag', etag).header('Cache-Control', 'private, max-age=31536000, immutable');
  if (reply.request.headers['if-none-match'] === etag) return reply.status(304).send();
  return reply.type(made.type).header('Content-Length', made.body.byteLength).send(made.body);
}

/** Closes the slide held open for image `imageId` (its pyramid is complete: tiles come from files). */
export const forgetOpenSlide = (dataDir: string, imageId: string) => slides.forget(`${dataDir}\0${imageId}`);
