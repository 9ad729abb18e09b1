// Writes a slide as DZI pyramids: one RGB pyramid for brightfield; for fluorescence one 8-bit pyramid
// per channel, mapped through a display range taken from the data (0.5th–99.5th percentile of a low
// level), which the viewer colours and composites.
// How (bench/pyramid.ts measured why): full resolution is read ONCE, in full-width bands, and every
// lower level is made from the level above by a 2×2 box average as the bands stream through, so no
// pixel is decoded twice and the reader's own (slow, downsample²) shrinking is never used. Each level
// keeps only the rows its next tile row needs, so memory is bounded by the band (≈ 48 MiB) and the
// slide's width, not its height. Tiles are JPEG-encoded by sharp several at a time (libuv's pool)
// while the main thread reads and shrinks the next rows. Every file goes to a sink: the image's pyramid
// pack (pack-format.ts) in processing, a plain folder in the benches.
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { RawImage, Slide } from '../slides/types';
import { OVERLAP, TILE_SIZE, dziLevels, dziXml, tileRect, type DziLevel } from './dzi';
import type { PyramidSink } from './pack-format';

export interface ChannelRange {
  min: number;
  max: number;
}

export interface PyramidResult {
  /** One entry per layer written: 'rgb' or 'c0', 'c1', … */
  layers: Array<{ name: string; channel?: number; range?: ChannelRange }>;
  width: number;
  height: number;
  tiles: number;
}

/** Bytes of full-resolution pixels read per band (the height adapts to the slide's width). */
const BAND_BYTES = 48 * 2 ** 20;
/** Width of one read from the slide (a band is read piece by piece). */
const PIECE_WIDTH = 4096;
/** JPEG encodes in flight: enough to keep libuv's four threads busy while the main thread works. */
const ENCODES_IN_FLIGHT = 8;

/** Percentile display range of one channel, from the smallest level with at least 256 px a side. */
export async function channelRange(slide: Slide, channel: number): Promise<ChannelRange> {
  let li = slide.levels.length - 1;
  while (li > 0 && Math.max(slide.levels[li].width, slide.levels[li].height) < 256) li--;
  const l = slide.levels[li];
  const w = Math.min(l.width, 2048);
  const h = Math.min(l.height, 2048);
  const img = await slide.readRegion(li, 0, 0, w, h, channel);
  const sorted = Array.from(img.data).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const min = at(0.005);
  const max = Math.max(at(0.995), min + 1);
  return { min, max };
}

/** Samples of `img` scaled from [min,max] to 0..255, as 8-bit. */
export function to8bit(img: RawImage, range: ChannelRange): Buffer {
  const out = Buffer.alloc(img.data.length);
  const scale = 255 / (range.max - range.min);
  for (let i = 0; i < out.length; i++) {
    const v = (img.data[i] - range.min) * scale;
    out[i] = v <= 0 ? 0 : v >= 255 ? 255 : v;
  }
  return out;
}

/** Rows [y0, y0 + rows) of one level, `channels` 8-bit samples per pixel, tightly packed. */
interface Band {
  y0: number;
  rows: number;
  data: Buffer;
}

/** Halves `rows` rows of width `w` by 2×2 averages (an odd last row or column averages with itself). */
function halve(src: Buffer, w: number, rows: number, ch: number): Buffer {
  const w2 = (w + 1) >> 1;
  const rows2 = (rows + 1) >> 1;
  const out = Buffer.allocUnsafe(w2 * rows2 * ch);
  const stride = w * ch;
  const pairs = w >> 1;
  for (let j = 0; j < rows2; j++) {
    const a = 2 * j * stride;
    const b = 2 * j + 1 < rows ? a + stride : a;
    let o = j * w2 * ch;
    if (ch === 3) {
      // The common case, unrolled: about twice as fast as the general loop below.
      for (let x = 0, p = 0; x < pairs; x++, p += 6) {
        out[o++] = (src[a + p] + src[a + p + 3] + src[b + p] + src[b + p + 3] + 2) >> 2;
        out[o++] = (src[a + p + 1] + src[a + p + 4] + src[b + p + 1] + src[b + p + 4] + 2) >> 2;
        out[o++] = (src[a + p + 2] + src[a + p + 5] + src[b + p + 2] + src[b + p + 5] + 2) >> 2;
      }
    } else
      for (let x = 0, p = 0; x < pairs; x++, p += 2 * ch)
        for (let c = 0; c < ch; c++)
          out[o++] = (src[a + p + c] + src[a + p + ch + c] + src[b + p + c] + src[b + p + ch + c] + 2) >> 2;
    if (w & 1) {
      const p = (w - 1) * ch;
      for (let c = 0; c < ch; c++) out[o++] = (src[a + p + c] + src[b + p + c] + 1) >> 1;
    }
  }
  return out;
}

/** Runs at most `limit` promises at once; `add` waits only for a free slot. */
class Pool {
  private readonly running = new Set<Promise<void>>();
  private failure: unknown;
  constructor(private readonly limit: number) {}
  async add(task: () => Promise<void>): Promise<void> {
    while (this.running.size >= this.limit) await Promise.race(this.running);
    if (this.failure) throw this.failure;
    const p: Promise<void> = task()
      .catch((e: unknown) => void (this.failure ??= e))
      .finally(() => this.running.delete(p));
    this.running.add(p);
  }
  async drain(): Promise<void> {
    await Promise.all(this.running);
    if (this.failure) throw this.failure;
  }
}

/** Where a tile's pixels are: a rectangle of a window of rows (`width` × `rows`, `channels` samples). */
interface TileSource {
  window: Buffer;
  width: number;
  rows: number;
  channels: number;
  rect: { x: number; y: number; w: number; h: number };
}

/**
 * One DZI level being filled from the top: keeps its rows since the current tile row's first in one
 * contiguous window (so every tile is a plain rectangle of it, cut out by sharp in libuv's pool, not
 * copied row by row here), emits tile rows as they complete and feeds the halved rows to the level below.
 */
class LevelWriter {
  private window = Buffer.alloc(0);
  private windowY0 = 0;
  private windowRows = 0;
  private nextTileRow = 0;
  /** An even-numbered row waiting for its partner before it can be halved. */
  private carry: Buffer | undefined;

  constructor(
    private readonly level: DziLevel,
    private readonly channels: number,
    private readonly below: LevelWriter | undefined,
    private readonly emit: (level: DziLevel, col: number, row: number, tile: TileSource) => Promise<void>,
  ) {}

  async add(band: Band): Promise<void> {
    const rowBytes = this.level.width * this.channels;
    // The window becomes [kept rows, band rows]: one copy per band, and a fresh buffer, because
    // tiles still being encoded hold the previous one.
    const next = Buffer.allocUnsafe((this.windowRows + band.rows) * rowBytes);
    this.window.copy(next, 0, 0, this.windowRows * rowBytes);
    band.data.copy(next, this.windowRows * rowBytes, 0, band.rows * rowBytes);
    this.window = next;
    this.windowRows += band.rows;
    if (this.below) await this.feedBelow(band);
    const { level } = this;
    const received = this.windowY0 + this.windowRows;
    while (this.nextTileRow < level.rows) {
      const r = this.nextTileRow;
      if (received < Math.min(level.height, (r + 1) * TILE_SIZE + OVERLAP)) break;
      for (let col = 0; col < level.cols; col++) {
        const rect = tileRect(level, col, r);
        await this.emit(level, col, r, {
          window: this.window,
          width: level.width,
          rows: this.windowRows,
          channels: this.channels,
          rect: { ...rect, y: rect.y - this.windowY0 },
        });
      }
      this.nextTileRow++;
    }
    // Keep only rows the next tile row (which starts one overlap row early) still needs.
    const keepFrom = Math.max(this.windowY0, this.nextTileRow * TILE_SIZE - OVERLAP);
    if (keepFrom > this.windowY0) {
      const drop = Math.min(this.windowRows, keepFrom - this.windowY0);
      this.window = this.window.subarray(drop * rowBytes);
      this.windowY0 += drop;
      this.windowRows -= drop;
    }
  }

  private async feedBelow(band: Band): Promise<void> {
    const rowBytes = this.level.width * this.channels;
    let data = band.data;
    let rows = band.rows;
    let y0 = band.y0;
    if (this.carry) {
      data = Buffer.concat([this.carry, data.subarray(0, rows * rowBytes)]);
      rows++;
      y0--;
      this.carry = undefined;
    }
    const last = y0 + rows === this.level.height;
    if (rows % 2 === 1 && !last) {
      rows--;
      this.carry = Buffer.from(data.subarray(rows * rowBytes, (rows + 1) * rowBytes));
    }
    if (rows === 0) return;
    await this.below!.add({
      y0: y0 / 2,
      rows: (rows + 1) >> 1,
      data: halve(data, this.level.width, rows, this.channels),
    });
  }
}

/** Full-resolution pixels of one layer as 8-bit samples. */
async function readRegion8(
  slide: Slide,
  x: number,
  y: number,
  w: number,
  h: number,
  layer: { channel?: number; range?: ChannelRange },
): Promise<Buffer> {
  const raw = await slide.readRegion(0, x, y, w, h, layer.channel);
  if (layer.range && raw.channels === 1) return to8bit(raw, layer.range);
  if (raw.bits === 16) return to8bit(raw, { min: 0, max: 65535 });
  return Buffer.from(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength);
}

/**
 * Full-resolution rows [y0, y0 + rows) of one layer, read in pieces PIECE_WIDTH wide so that what
 * the reader decodes at once (the file's tiles under one piece) does not grow with the slide's width.
 */
async function readBand(
  slide: Slide,
  y0: number,
  rows: number,
  channels: number,
  layer: { channel?: number; range?: ChannelRange },
): Promise<Buffer> {
  const { width } = slide.levels[0];
  if (width <= PIECE_WIDTH) return readRegion8(slide, 0, y0, width, rows, layer);
  const band = Buffer.allocUnsafe(width * rows * channels);
  for (let x = 0; x < width; x += PIECE_WIDTH) {
    const w = Math.min(PIECE_WIDTH, width - x);
    const piece = await readRegion8(slide, x, y0, w, rows, layer);
    for (let r = 0; r < rows; r++)
      piece.copy(band, (r * width + x) * channels, r * w * channels, (r + 1) * w * channels);
  }
  return band;
}

/** A sink writing each file under `dir` as a loose file (benches comparing tilers). */
export function folderSink(dir: string): PyramidSink {
  const made = new Set<string>();
  return {
    async put(name, bytes) {
      const to = path.join(dir, ...name.split('/'));
      const parent = path.dirname(to);
      if (!made.has(parent)) {
        await fs.mkdir(parent, { recursive: true });
        made.add(parent);
      }
      await fs.writeFile(to, bytes);
    },
  };
}

/** Writes the slide's pyramid(s) into `out`: a sink, or a folder to write loose files in. */
export async function writePyramid(
  slide: Slide,
  out: PyramidSink | string,
  opts: { quality?: number; onProgress?: (done: number, total: number) => void; signal?: AbortSignal } = {},
): Promise<PyramidResult> {
  const { width, height } = slide.levels[0];
  const levels = dziLevels(width, height);
  const layers: PyramidResult['layers'] =
    slide.kind === 'brightfield'
      ? [{ name: 'rgb' }]
      : await Promise.all(
          slide.channels.map(async (_c, i) => ({
            name: `c${i}`,
            channel: i,
            range: await channelRange(slide, i),
          })),
        );
  const channels = slide.kind === 'brightfield' ? 3 : 1;
  const total = layers.length * levels.reduce((n, l) => n + l.cols * l.rows, 0);
  const bandRows = Math.max(2, Math.min(1024, Math.floor(BAND_BYTES / (width * channels)) & ~1));
  const pool = new Pool(ENCODES_IN_FLIGHT);
  const sink = typeof out === 'string' ? folderSink(out) : out;
  let done = 0;
  for (const layer of layers) {
    await sink.put(`${layer.name}.dzi`, Buffer.from(dziXml(width, height)));
    const emit = (l: DziLevel, col: number, row: number, t: TileSource) =>
      pool.add(async () => {
        const { x, y, w, h } = t.rect;
        const jpeg = await sharp(t.window, {
          raw: { width: t.width, height: t.rows, channels: t.channels as 1 | 3 },
        })
          .extract({ left: x, top: y, width: w, height: h })
          .jpeg({ quality: opts.quality ?? 85, mozjpeg: false })
          .toBuffer();
        await sink.put(`${layer.name}_files/${l.level}/${col}_${row}.jpeg`, jpeg);
        opts.onProgress?.(++done, total);
      });
    // levels[0] is full resolution; each writer feeds the next smaller level.
    let top: LevelWriter | undefined;
    for (const l of [...levels].reverse()) top = new LevelWriter(l, channels, top, emit);
    for (let y = 0; y < height; y += bandRows) {
      if (opts.signal?.aborted) {
        await pool.drain();
        opts.signal.throwIfAborted();
      }
      const rows = Math.min(bandRows, height - y);
      await top!.add({ y0: y, rows, data: await readBand(slide, y, rows, channels, layer) });
    }
    await pool.drain();
  }
  return { layers, width, height, tiles: total };
}

export { TILE_SIZE, OVERLAP };
