// Generates one synthetic slide in every format the bench needs, in a single pass over 512² tiles:
// a CZI of JPEG mosaic subblocks, a plain tiled JPEG TIFF (sharp's input) and a QPTIFF (deflate RGB
// pages with PerkinElmer-QPI descriptions, plus reduced levels ×4, ×16, ×64 sampled from the same
// pixel function). Encoding runs in libuv's pool while the next tile is computed; memory stays a few
// tiles whatever the slide size.
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { CziStreamWriter, TiffStreamWriter, qpiDescription } from './slide-writers';
import { tissueTile } from './synth';

const deflate = promisify(zlib.deflate);
const TILE = 512;
const IN_FLIGHT = 4;
const PIXEL_UM = 0.25;

export interface GeneratedSlides {
  czi: string;
  tiff: string;
  qptiff: string;
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
  opts: { cziOnly?: boolean } = {},
): Promise<GeneratedSlides> {
  const out: GeneratedSlides = {
    czi: path.join(dir, 'slide.czi'),
    tiff: path.join(dir, 'plain.tif'),
    qptiff: path.join(dir, 'slide.qptiff'),
    width,
    height,
  };
  const size = Math.max(width, height);
  const czi = new CziStreamWriter(out.czi);
  const tiff = opts.cziOnly ? undefined : new TiffStreamWriter(out.tiff);
  const qp = opts.cziOnly ? undefined : new TiffStreamWriter(out.qptiff);
  const page = { width, height, tileSize: TILE, pixelUm: PIXEL_UM };
  tiff?.beginPage({ ...page, compression: 'jpeg' });
  qp?.beginPage({ ...page, compression: 'deflate', description: qpiDescription('FullResolution') });

  const cols = Math.ceil(width / TILE);
  const rows = Math.ceil(height / TILE);
  type Encoded = { x: number; y: number; w: number; h: number; jpg: Buffer; cziJpg: Buffer; z?: Buffer };
  const queue: Array<Promise<Encoded>> = [];
  let done = 0;
  const flushOne = async () => {
    const e = await queue.shift()!;
    czi.addJpegTile(e.x, e.y, e.w, e.h, e.cziJpg);
    tiff?.addTile(e.jpg);
    if (e.z) qp?.addTile(e.z);
    onProgress(++done, cols * rows);
  };
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const x = c * TILE;
      const y = r * TILE;
      const w = Math.min(TILE, width - x);
      const h = Math.min(TILE, height - y);
      const px = tissueTile(x, y, TILE, TILE, size);
      queue.push(
        (async () => {
          const [jpg, z] = await Promise.all([
            jpeg(px, TILE, TILE),
            qp ? deflate(px, { level: 3 }) : undefined,
          ]);
          // CZI subblocks at the right and bottom edges are only as big as the slide.
          const cziJpg = w === TILE && h === TILE ? jpg : await jpeg(crop(px, w, h), w, h);
          return { x, y, w, h, jpg, cziJpg, z };
        })(),
      );
      if (queue.length >= IN_FLIGHT) await flushOne();
    }
  while (queue.length) await flushOne();
  czi.close(PIXEL_UM);
  tiff?.endPage();
  tiff?.close();
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
