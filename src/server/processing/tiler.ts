// Writes a slide as DZI pyramids: one RGB pyramid for brightfield; for fluorescence one 8-bit pyramid
// per channel, mapped through a display range taken from the data (0.5th–99.5th percentile of a low
// level), which the viewer colours and composites.
// How (bench/pyramid.ts measured why): full resolution is read ONCE, in bands, and every lower level
// is made from the level above by a 2×2 box average as the bands stream through, so no pixel is
// decoded twice (but a stripe's edge, below) and the reader's own (slow, downsample²) shrinking is
// never used. Each level keeps only the rows its next tile row and next halving need, in a buffer
// allocated once, so memory is bounded by the band (≤ 48 MiB, at least 512 rows; the next band is read
// while this one is encoded) and the width read at once, never by the slide's height: the whole width
// up to STRIPED_ABOVE, a stripe of it beyond. Tiles are copied out and JPEG-encoded (tile-jpeg.ts)
// several at a time (libuv's pool) while the main thread shrinks the next rows. Every file goes to a
// sink: the image's pyramid pack (pack-format.ts) in processing, a plain folder in the benches.
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { bytesOf } from '../slides/raw';
import type { RawImage, Slide } from '../slides/types';
import { OVERLAP, TILE_SIZE, dziLevels, dziXml, tileRect, type DziLevel } from './dzi';
import type { PyramidSink } from './pack-format';
import { encodeTile } from './tile-jpeg';

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
  /** Each layer's pixels at one small level, when asked for (`overview`): what a thumbnail is made from. */
  overview?: OverviewLayer[];
}

/** One layer of the whole slide at a small pyramid level: RGB, or a channel mapped to 8 bits by its range. */
export interface OverviewLayer {
  width: number;
  height: number;
  channels: 1 | 3;
  data: Buffer;
}

/** Bytes of full-resolution pixels read per band (the height adapts to the slide's width). */
const BAND_BYTES = 48 * 2 ** 20;
/** Fewest rows per band: a whole row of the readers' usual 512-px tiles. */
const MIN_BAND_ROWS = 512;
/**
 * A slide wider than STRIPED_ABOVE is written in vertical stripes STRIPE_WIDTH wide, so that what is
 * held (bands, level buffers, the readers' decodes) does not grow with the slide's width: each stripe
 * goes through levels 0…STRIPE_HALVINGS on its own, read with STRIPE_MARGIN columns of its neighbours
 * on either side, which makes every pixel of those levels the one a whole-width pass makes (a 2×2 average
 * needs its pairs, a tile its overlap column, at every halving); the level STRIPE_HALVINGS down is kept
 * whole (1/1024 of the slide's pixels) and the levels below are made from it. The stripe width is a tile
 * at that level, so every level of a stripe holds whole tiles.
 */
const STRIPE_HALVINGS = 5;
const STRIPE_WIDTH = TILE_SIZE * 2 ** STRIPE_HALVINGS;
const STRIPE_MARGIN = 2 ** STRIPE_HALVINGS;
const STRIPED_ABOVE = 4 * STRIPE_WIDTH;
/**
 * Most full-resolution rows the top level takes at once: every level holds the rows it takes on top of a
 * tile row's, so fewer rows at a time keep the levels' buffers (which span the slide's width) small.
 */
const COMMIT_ROWS = 128;
/** Width of one read from the slide (a band is read piece by piece). */
const PIECE_WIDTH = 4096;
/** JPEG encodes in flight: enough to keep libuv's four threads busy while the main thread works. */
const ENCODES_IN_FLIGHT = 8;

/**
 * Rows per band: a power of two, at least MIN_BAND_ROWS, so that bands start and end on the tile rows
 * of a file tiled in 256, 512 or 1024 px and each of its tiles is decoded by one band only.
 */
function bandHeight(rowBytes: number, height: number): number {
  let rows = MIN_BAND_ROWS;
  while (rows * 2 * rowBytes <= BAND_BYTES) rows *= 2;
  return Math.min(rows, height);
}

/**
 * Sharp's settings for a process that writes pyramids (the pyramid child, the bench): libvips' operation
 * cache off, since every input is a fresh buffer that is never encoded twice and the cache's bookkeeping
 * costs about a tenth of a small tile's encode.
 */
export function tuneSharpForPyramids(): void {
  sharp.cache(false);
}

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

/**
 * Halves `rows` rows of width `w` (from byte `at` of `src`) by 2×2 averages into `dst` from byte `to`;
 * an odd last row or column averages with itself.
 */
function halve(src: Buffer, at: number, w: number, rows: number, ch: number, dst: Buffer, to: number): void {
  const w2 = (w + 1) >> 1;
  const rows2 = (rows + 1) >> 1;
  const stride = w * ch;
  const pairs = w >> 1;
  for (let j = 0; j < rows2; j++) {
    const a = at + 2 * j * stride;
    const b = 2 * j + 1 < rows ? a + stride : a;
    let o = to + j * w2 * ch;
    if (ch === 3) {
      // The common case, unrolled: about twice as fast as the general loop below.
      for (let x = 0, p = 0; x < pairs; x++, p += 6) {
        dst[o++] = (src[a + p] + src[a + p + 3] + src[b + p] + src[b + p + 3] + 2) >> 2;
        dst[o++] = (src[a + p + 1] + src[a + p + 4] + src[b + p + 1] + src[b + p + 4] + 2) >> 2;
        dst[o++] = (src[a + p + 2] + src[a + p + 5] + src[b + p + 2] + src[b + p + 5] + 2) >> 2;
      }
    } else
      for (let x = 0, p = 0; x < pairs; x++, p += 2 * ch)
        for (let c = 0; c < ch; c++)
          dst[o++] = (src[a + p + c] + src[a + p + ch + c] + src[b + p + c] + src[b + p + ch + c] + 2) >> 2;
    if (w & 1) {
      const p = (w - 1) * ch;
      for (let c = 0; c < ch; c++) dst[o++] = (src[a + p + c] + src[b + p + c] + 1) >> 1;
    }
  }
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

/** A tile's pixels, tightly packed: the first w × h × channels samples of `buffer` (reused per tile). */
interface TilePixels {
  buffer: Buffer;
  w: number;
  h: number;
  channels: number;
}

/** The columns [x, x + w) of a level a writer holds, and the tile columns [col0, col1) it writes. */
interface Span {
  x: number;
  w: number;
  col0: number;
  col1: number;
}

const wholeSpan = (l: DziLevel): Span => ({ x: 0, w: l.width, col0: 0, col1: l.cols });

/** Where a writer copies the level's columns [x, x + w) of every row: an image of the whole level. */
interface Keep {
  data: Buffer;
  /** The whole level's width: `data`'s rows are this many pixels apart. */
  width: number;
  x: number;
  w: number;
}

/**
 * One DZI level being filled from the top, over the columns of its span. Its rows since the first one
 * still needed (by the next tile row, or by the next row pair to halve) stay in one buffer allocated
 * once: new rows are written after them, and kept rows move to its start when older ones are done. A
 * tile is copied out of it before it is encoded, so the buffer never waits for an encode, and no buffer
 * of the size of a band is allocated per band: fresh pages cost the kernel more than the copies.
 */
class LevelWriter {
  readonly buf: Buffer;
  private readonly rowBytes: number;
  /** Level row held at the buffer's row 0, and how many rows are held. */
  private y0 = 0;
  private rows = 0;
  /** Rows [0, halved) have gone to the level below. */
  private halved = 0;
  private nextTileRow = 0;

  /** `incoming`: the most rows one `commit` adds; `keeps`: where to copy rows as they come. */
  constructor(
    private readonly level: DziLevel,
    private readonly span: Span,
    private readonly channels: number,
    incoming: number,
    private readonly below: LevelWriter | undefined,
    private readonly emit: (level: DziLevel, col: number, row: number, tile: TilePixels) => Promise<void>,
    private readonly tilePixels: () => Buffer,
    private readonly keeps: Keep[] = [],
  ) {
    this.rowBytes = span.w * channels;
    // Kept rows are fewer than a tile row plus its overlaps (see `commit`).
    const capacity = Math.min(level.height, TILE_SIZE + 2 * OVERLAP + incoming);
    this.buf = Buffer.allocUnsafe(capacity * this.rowBytes);
  }

  /** Byte offset where the next `rows` rows go. */
  room(rows: number): number {
    if ((this.rows + rows) * this.rowBytes > this.buf.length) throw new Error('LevelWriter: no room');
    return this.rows * this.rowBytes;
  }

  /** Takes `rows` rows written at `room(rows)`: halves what it can into the level below, emits tiles. */
  async commit(rows: number): Promise<void> {
    const { level, rowBytes, channels: ch } = this;
    for (const k of this.keeps)
      for (let r = this.rows; r < this.rows + rows; r++) {
        const from = r * rowBytes + (k.x - this.span.x) * ch;
        this.buf.copy(k.data, ((this.y0 + r) * k.width + k.x) * ch, from, from + k.w * ch);
      }
    this.rows += rows;
    const received = this.y0 + this.rows;
    if (this.below) {
      const upTo = received === level.height ? received : received & ~1;
      if (upTo > this.halved) {
        const n = upTo - this.halved;
        const half = (n + 1) >> 1;
        const to = this.below.room(half);
        halve(this.buf, (this.halved - this.y0) * rowBytes, this.span.w, n, ch, this.below.buf, to);
        this.halved = upTo;
        await this.below.commit(half);
      }
    }
    while (this.nextTileRow < level.rows) {
      const r = this.nextTileRow;
      if (received < Math.min(level.height, (r + 1) * TILE_SIZE + OVERLAP)) break;
      for (let col = this.span.col0; col < this.span.col1; col++) await this.emitTile(col, r);
      this.nextTileRow++;
    }
    // Keep the rows the next tile row (which starts one overlap row early) and the next halving need.
    let keepFrom = Math.max(0, this.nextTileRow * TILE_SIZE - OVERLAP);
    if (this.below) keepFrom = Math.min(keepFrom, this.halved);
    const drop = Math.min(this.rows, keepFrom - this.y0);
    if (drop > 0) {
      this.buf.copyWithin(0, drop * rowBytes, this.rows * rowBytes);
      this.y0 += drop;
      this.rows -= drop;
    }
  }

  private emitTile(col: number, row: number): Promise<void> {
    const { x, y, w, h } = tileRect(this.level, col, row);
    const ch = this.channels;
    const tileRowBytes = w * ch;
    const data = this.tilePixels();
    let from = (y - this.y0) * this.rowBytes + (x - this.span.x) * ch;
    for (let r = 0, to = 0; r < h; r++, from += this.rowBytes, to += tileRowBytes)
      this.buf.copy(data, to, from, from + tileRowBytes);
    return this.emit(this.level, col, row, { buffer: data, w, h, channels: ch });
  }
}

/**
 * Writers for `levels` (the first fed by the caller, each feeding the next) over the given spans, with
 * their keeps; `incoming` is the most rows the first is given at once.
 */
function chain(
  levels: DziLevel[],
  spans: Span[],
  keeps: Keep[][],
  channels: number,
  incoming: number,
  emit: (level: DziLevel, col: number, row: number, tile: TilePixels) => Promise<void>,
  tilePixels: () => Buffer,
): LevelWriter {
  const most = [incoming];
  for (let i = 1; i < levels.length; i++) most[i] = (most[i - 1] >> 1) + 1;
  let top: LevelWriter | undefined;
  for (let i = levels.length - 1; i >= 0; i--)
    top = new LevelWriter(levels[i], spans[i], channels, most[i], top, emit, tilePixels, keeps[i]);
  return top!;
}

/** Gives `rows` rows of `src` (`rowBytes` apart) to `top`, at most COMMIT_ROWS at a time. */
async function feed(top: LevelWriter, src: Buffer, rows: number, rowBytes: number): Promise<void> {
  for (let at = 0; at < rows; at += COMMIT_ROWS) {
    const n = Math.min(COMMIT_ROWS, rows - at);
    src.copy(top.buf, top.room(n), at * rowBytes, (at + n) * rowBytes);
    await top.commit(n);
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
  return bytesOf(raw);
}

/**
 * Full-resolution rows [y0, y0 + rows) of columns [x0, x0 + w) of one layer into the start of `dst`: by a
 * reader that writes into the band itself in one call (its decodes under the band at once), else in
 * pieces PIECE_WIDTH wide so that what the reader decodes at once (the file's tiles under one piece)
 * stays bounded.
 */
async function readBand(
  slide: Slide,
  x0: number,
  w: number,
  y0: number,
  rows: number,
  channels: number,
  layer: { channel?: number; range?: ChannelRange },
  dst: Buffer,
): Promise<void> {
  if (slide.readRegionInto && slide.kind === 'brightfield') {
    const data = dst.subarray(0, rows * w * channels);
    await slide.readRegionInto(0, x0, y0, { width: w, height: rows, channels: 3, bits: 8, data });
    return;
  }
  for (let x = 0; x < w; x += PIECE_WIDTH) {
    const pw = Math.min(PIECE_WIDTH, w - x);
    const piece = await readRegion8(slide, x0 + x, y0, pw, rows, layer);
    if (pw === w) piece.copy(dst, 0, 0, rows * pw * channels);
    else
      for (let r = 0; r < rows; r++)
        piece.copy(dst, (r * w + x) * channels, r * pw * channels, (r + 1) * pw * channels);
  }
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

/** Index in `levels` (full resolution first) of the smallest level with a side of at least `side`. */
function overviewLevel(levels: DziLevel[], side: number): number {
  let i = levels.length - 1;
  while (i > 0 && Math.max(levels[i].width, levels[i].height) < side) i--;
  return i;
}

/**
 * Writes the slide's pyramid(s) into `out`: a sink, or a folder to write loose files in. With `overview`,
 * the result also holds every layer at the smallest level with a side of at least that many pixels, so
 * that a thumbnail needs no second read of a slide without small levels of its own. A slide wider than
 * `stripedAbove` (default STRIPED_ABOVE) is written in stripes (see STRIPE_HALVINGS).
 */
export async function writePyramid(
  slide: Slide,
  out: PyramidSink | string,
  opts: {
    onProgress?: (done: number, total: number) => void;
    signal?: AbortSignal;
    overview?: number;
    stripedAbove?: number;
  } = {},
): Promise<PyramidResult> {
  const { width, height } = slide.levels[0];
  const levels = dziLevels(width, height);
  const kept = opts.overview === undefined ? -1 : overviewLevel(levels, opts.overview);
  const overview: OverviewLayer[] = [];
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
  const striped = width > (opts.stripedAbove ?? STRIPED_ABOVE) && levels.length > STRIPE_HALVINGS;
  // Full-resolution columns read at once: the whole width, or a stripe and its margins.
  const readWidth = striped ? Math.min(width, STRIPE_WIDTH + 2 * STRIPE_MARGIN) : width;
  const bandRows = bandHeight(readWidth * channels, height);
  const pool = new Pool(ENCODES_IN_FLIGHT);
  const sink = typeof out === 'string' ? folderSink(out) : out;
  // One pixel buffer per encode in flight (and one being filled), reused tile after tile.
  const spare: Buffer[] = [];
  const tilePixels = () => spare.pop() ?? Buffer.allocUnsafe((TILE_SIZE + 2 * OVERLAP) ** 2 * channels);
  const bands = [0, 1].map(() => Buffer.allocUnsafe(bandRows * readWidth * channels));
  let done = 0;
  for (const layer of layers) {
    await sink.put(`${layer.name}.dzi`, Buffer.from(dziXml(width, height)));
    const emit = (l: DziLevel, col: number, row: number, t: TilePixels) =>
      pool.add(async () => {
        try {
          const pixels = t.buffer.subarray(0, t.w * t.h * t.channels);
          const jpeg = await encodeTile(pixels, t.w, t.h, t.channels);
          await sink.put(`${layer.name}_files/${l.level}/${col}_${row}.jpeg`, jpeg);
          opts.onProgress?.(++done, total);
        } finally {
          spare.push(t.buffer);
        }
      });
    const wholeLevel = (l: DziLevel): OverviewLayer => ({
      width: l.width,
      height: l.height,
      channels,
      data: Buffer.allocUnsafe(l.width * l.height * channels),
    });
    const small = kept >= 0 ? wholeLevel(levels[kept]) : undefined;
    if (small) overview.push(small);
    const keepAll = (l: OverviewLayer): Keep => ({ data: l.data, width: l.width, x: 0, w: l.width });
    // Reads full-resolution columns [x0, x0 + w) top to bottom into `top`, the next band read (decoded
    // in libuv's pool) while this one is halved and encoded. A read's failure is kept as a value until
    // awaited, so it is never an unhandled rejection meanwhile.
    const writeColumns = async (top: LevelWriter, x0: number, w: number) => {
      const read = (y: number, into: Buffer): Promise<{ failed: unknown } | undefined> =>
        readBand(slide, x0, w, y, Math.min(bandRows, height - y), channels, layer, into).then(
          () => undefined,
          (failed: unknown) => ({ failed }),
        );
      let ahead = read(0, bands[0]);
      try {
        for (let y = 0, i = 0; y < height; y += bandRows, i++) {
          const result = await ahead;
          if (result) throw result.failed;
          if (opts.signal?.aborted) {
            await pool.drain();
            opts.signal.throwIfAborted();
          }
          if (y + bandRows < height) ahead = read(y + bandRows, bands[(i + 1) % 2]);
          await feed(top, bands[i % 2], Math.min(bandRows, height - y), w * channels);
        }
      } finally {
        // A read still running must not write into the buffers once the caller moves on.
        await ahead;
      }
    };
    const incoming = Math.min(bandRows, COMMIT_ROWS);
    if (!striped) {
      const keeps = levels.map((_l, i) => (i === kept && small ? [keepAll(small)] : []));
      await writeColumns(
        chain(levels, levels.map(wholeSpan), keeps, channels, incoming, emit, tilePixels),
        0,
        width,
      );
    } else {
      // Levels 0…STRIPE_HALVINGS stripe by stripe; that last level whole, from which the rest follow.
      const m = STRIPE_HALVINGS;
      const upper = levels.slice(0, m + 1);
      const tail = kept === m && small ? small : wholeLevel(levels[m]);
      for (let x0 = 0; x0 < width; x0 += STRIPE_WIDTH) {
        const x1 = Math.min(width, x0 + STRIPE_WIDTH);
        const ex0 = Math.max(0, x0 - STRIPE_MARGIN);
        const ex1 = Math.min(width, x1 + STRIPE_MARGIN);
        // Shifts, not divisions: every figure stays a small integer, which V8 indexes buffers by fastest
        // (a division's result in halve's offsets took it from 2.3 to 4.1 ms per megapixel).
        const spans = upper.map((l, k): Span => {
          const x = ex0 >> k;
          return {
            x,
            w: ((ex1 + (1 << k) - 1) >> k) - x,
            col0: ((x0 >> k) / TILE_SIZE) | 0,
            col1: x1 === width ? l.cols : ((x1 >> k) / TILE_SIZE) | 0,
          };
        });
        // Each stripe's own columns of a level kept whole (its margins belong to its neighbours).
        const core = (k: number, into: OverviewLayer): Keep => {
          const x = x0 >> k;
          return { data: into.data, width: into.width, x, w: (x1 === width ? into.width : x1 >> k) - x };
        };
        const keeps = upper.map((_l, k) => [
          ...(k === m ? [core(k, tail)] : []),
          ...(k === kept && k < m && small ? [core(k, small)] : []),
        ]);
        await writeColumns(chain(upper, spans, keeps, channels, incoming, emit, tilePixels), ex0, ex1 - ex0);
      }
      const lower = levels.slice(m);
      // Level STRIPE_HALVINGS's tiles are written by the stripes: here it only feeds the levels below.
      const spans = lower.map((l, i) => (i === 0 ? { ...wholeSpan(l), col1: 0 } : wholeSpan(l)));
      const keeps = lower.map((_l, i) => (i + m === kept && kept > m && small ? [keepAll(small)] : []));
      const top = chain(lower, spans, keeps, channels, COMMIT_ROWS, emit, tilePixels);
      await feed(top, tail.data, tail.height, tail.width * channels);
    }
    await pool.drain();
  }
  return { layers, width, height, tiles: total, ...(kept >= 0 ? { overview } : {}) };
}

export { TILE_SIZE, OVERLAP };
