// Generates one synthetic slide in every format the bench needs, in a single pass over 512² tiles:
// a CZI of JPEG mosaic subblocks, a plain tiled JPEG TIFF (sharp's input), a QPTIFF (deflate RGB
// pages with PerkinElmer-QPI descriptions, plus reduced levels ×4, ×16, ×64 sampled from the same
// pixel function) and an MRXS (JPEG camera images cut from the same tiles, halved levels sampled from
// the pixel function; bench/lib/mrxs-slide.ts). Encoding runs in libuv's pool while the next tile is
// computed; memory stays a few tile rows whatever the slide size.
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { openSlide } from '../../src/server/slides/registry';
import { MrxsSlideMaker, type CameraImage } from './mrxs-slide';
import { CziStreamWriter, TiffStreamWriter, qpiDescription } from './slide-writers';
import { tissueTile } from './synth';

const deflate = promisify(zlib.deflate);
const TILE = 512;
const IN_FLIGHT = 4;
const PIXEL_UM = 0.25;

/** The generated files: 'tiff' is the plain tiled TIFF sharp reads; 'mrxs' the .mrxs beside its folder. */
export type SlideFile = 'czi' | 'tiff' | 'qptiff' | 'mrxs';
export const SLIDE_FILES: SlideFile[] = ['czi', 'tiff', 'qptiff', 'mrxs'];

export interface GeneratedSlides extends Partial<Record<SlideFile, string>> {
  width: number;
  height: number;
}

const jpeg = (px: Buffer, w: number, h: number) =>
  sharp(px, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();

/** The top-left w×h of a TILE-wide pixel buffer. */
function crop(px: Buffer, w: number, h: number): Buffer {
  const out = Buffer.allocUnsafe(w * h * 3);
  for (let y = 0; y < h; y++) px.copy(out, y * w * 3, y * TILE * 3, y * TILE * 3 + w * 3);
  return out;
}

export async function generateSlides(
  dir: string,
  width: number,
  height: number,
  onProgress: (done: number, total: number) => void = () => undefined,
  formats: SlideFile[] = SLIDE_FILES,
): Promise<GeneratedSlides> {
  // The size in every name: slides of several sizes can share a folder.
  const names: Record<SlideFile, string> = {
    czi: `slide-${width}x${height}.czi`,
    tiff: `plain-${width}x${height}.tif`,
    qptiff: `slide-${width}x${height}.qptiff`,
    mrxs: `slide-${width}x${height}.mrxs`,
  };
  const out: GeneratedSlides = { width, height };
  for (const f of formats) out[f] = path.join(dir, names[f]);
  const size = Math.max(width, height);
  const czi = out.czi ? new CziStreamWriter(out.czi) : undefined;
  const tiff = out.tiff ? new TiffStreamWriter(out.tiff) : undefined;
  const qp = out.qptiff ? new TiffStreamWriter(out.qptiff) : undefined;
  const mrxs = out.mrxs ? new MrxsSlideMaker(out.mrxs, width, height, TILE, PIXEL_UM) : undefined;
  const side = mrxs?.layout.imageW ?? 0; // MRXS camera images are square
  const page = { width, height, tileSize: TILE, pixelUm: PIXEL_UM };
  tiff?.beginPage({ ...page, compression: 'jpeg' });
  qp?.beginPage({ ...page, compression: 'deflate', description: qpiDescription('FullResolution') });

  const cols = Math.ceil(width / TILE);
  const rows = Math.ceil(height / TILE);
  type Encoded = {
    x: number;
    y: number;
    w: number;
    h: number;
    jpg?: Buffer;
    cziJpg?: Buffer;
    z?: Buffer;
    camera: Array<{ img: CameraImage; jpg: Buffer }>;
  };
  const queue: Array<Promise<Encoded>> = [];
  let done = 0;
  const flushOne = async () => {
    const e = await queue.shift()!;
    if (e.cziJpg) czi?.addJpegTile(e.x, e.y, e.w, e.h, e.cziJpg);
    if (e.jpg) tiff?.addTile(e.jpg);
    if (e.z) qp?.addTile(e.z);
    for (const c of e.camera) mrxs?.addLevel0(c.img, c.jpg);
    onProgress(++done, cols * rows);
  };
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const x = c * TILE;
      const y = r * TILE;
      const w = Math.min(TILE, width - x);
      const h = Math.min(TILE, height - y);
      const px = tissueTile(x, y, TILE, TILE, size);
      const camera = mrxs?.add(c, r, px) ?? [];
      queue.push(
        (async () => {
          const [jpg, z, cameraJpgs] = await Promise.all([
            czi || tiff ? jpeg(px, TILE, TILE) : undefined,
            qp ? deflate(px, { level: 3 }) : undefined,
            Promise.all(camera.map((img) => jpeg(img.px, side, side))),
          ]);
          // CZI subblocks at the right and bottom edges are only as big as the slide.
          const cziJpg = !czi || (w === TILE && h === TILE) ? jpg : await jpeg(crop(px, w, h), w, h);
          return {
            x,
            y,
            w,
            h,
            jpg,
            cziJpg,
            z,
            camera: camera.map((img, i) => ({ img, jpg: cameraJpgs[i] })),
          };
        })(),
      );
      if (queue.length >= IN_FLIGHT) await flushOne();
    }
  while (queue.length) await flushOne();
  czi?.close(PIXEL_UM);
  tiff?.endPage();
  tiff?.close();
  await mrxs?.finish(jpeg, size, IN_FLIGHT);
  if (!qp) return out;
  qp.endPage();

  // QPTIFF reduced levels, as scanners store them.
  for (let step = 4; Math.max(width, height) / step >= 256; step *= 4) {
    const w = Math.ceil(width / step);
    const h = Math.ceil(height / step);
    qp.beginPage({
      width: w,
      height: h,
      tileSize: TILE,
      compression: 'deflate',
      description: qpiDescription('ReducedResolution'),
      pixelUm: PIXEL_UM * step,
      reduced: true,
    });
    for (let y = 0; y < h; y += TILE)
      for (let x = 0; x < w; x += TILE)
        qp.addTile(await deflate(tissueTile(x * step, y * step, TILE, TILE, size, step), { level: 3 }));
    qp.endPage();
  }
  qp.close();
  return out;
}

/** Whether `file` is there and holds a width × height slide (a stamp may outlive its files). */
async function holds(file: string | undefined, width: number, height: number): Promise<boolean> {
  if (!file || !fs.existsSync(file)) return false;
  try {
    if (/\.tiff?$/i.test(file)) {
      const m = await sharp(file, { limitInputPixels: false }).metadata();
      return m.width === width && m.height === height;
    }
    const slide = await openSlide([file]);
    const { width: w, height: h } = slide.levels[0];
    await slide.close();
    return w === width && h === height;
  } catch {
    return false;
  }
}

/**
 * The slides of `formats` for a width × height bench in `dir`: those its stamp
 * (generated-WxH.json) lists and that hold a slide of that size are reused, wherever they are; the
 * others are made in `dir` and added to the stamp.
 */
export async function slidesIn(
  dir: string,
  width: number,
  height: number,
  formats: SlideFile[],
  onProgress?: (done: number, total: number) => void,
): Promise<{ slides: GeneratedSlides; made: SlideFile[] }> {
  const stamp = path.join(dir, `generated-${width}x${height}.json`);
  const slides: GeneratedSlides = fs.existsSync(stamp)
    ? (JSON.parse(fs.readFileSync(stamp, 'utf8')) as GeneratedSlides)
    : { width, height };
  const made: SlideFile[] = [];
  for (const f of formats) if (!(await holds(slides[f], width, height))) made.push(f);
  if (made.length) {
    fs.mkdirSync(dir, { recursive: true });
    Object.assign(slides, await generateSlides(dir, width, height, onProgress, made), { width, height });
    fs.writeFileSync(stamp, JSON.stringify(slides));
  }
  return { slides, made };
}
