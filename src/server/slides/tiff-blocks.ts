// A TIFF page's pixels read tile by tile (or strip by strip) without geotiff's decoders: the compressed
// bytes through the reader's ByteSource (neighbouring blocks in one read), deflate in node's zlib (libuv's
// pool, so the blocks of one read inflate in parallel off the main thread), the horizontal predictor
// undone in place, rows copied into the caller's image with typed-array copies.
// Quirk: only the layouts decoded here get a TiffBlocks (no compression or deflate; chunky; 1 or 3
// unsigned samples of 8 or 16 bits; little-endian); `tiffBlocks` returns undefined for the rest, which
// the caller reads through geotiff.

import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { GeoTIFFImage } from 'geotiff';
import { u16 } from './codecs';
import { SlideErrors } from './errors';
import type { ByteSource } from './file';
import type { RawImage } from './types';

const inflate = promisify(zlib.inflate);

/** Gap between two blocks' bytes still read as one range (cheaper than a second request). */
const MERGE_GAP = 64 * 1024;
/** Most blocks read as one range; also how many of a read's blocks inflate at once. */
const BLOCKS_PER_READ = 8;
/** Reads in flight for one window: with BLOCKS_PER_READ, bounds the decoded bytes held at once. */
const READS_IN_FLIGHT = 2;

const COMPRESSION_NONE = 1;
const COMPRESSION_DEFLATE = [8, 32946];

export interface TiffBlocks {
  /** How errors name the page ('page 3'). */
  readonly label: string;
  readonly width: number;
  readonly height: number;
  readonly samples: 1 | 3;
  readonly bits: 8 | 16;
  /** Tiles are padded to full blocks; strips are not, the last one ends at the page's last row. */
  readonly tiled: boolean;
  readonly blockWidth: number;
  readonly blockHeight: number;
  readonly deflate: boolean;
  readonly predictor: boolean;
  readonly offsets: Float64Array;
  readonly counts: Float64Array;
}

type TagName = Parameters<GeoTIFFImage['fileDirectory']['loadValue']>[0];

async function tag(image: GeoTIFFImage, name: TagName): Promise<unknown> {
  const fd = image.fileDirectory;
  return fd.hasTag(name) ? fd.loadValue(name) : undefined;
}

const numbers = (v: unknown): number[] | undefined =>
  typeof v === 'number' || typeof v === 'bigint'
    ? [Number(v)]
    : v && typeof v === 'object' && 'length' in v
      ? Array.from(v as ArrayLike<number | bigint>, Number)
      : undefined;

/** The page's block layout when this file can decode it, else undefined (read it through geotiff). */
export async function tiffBlocks(image: GeoTIFFImage, label: string): Promise<TiffBlocks | undefined> {
  if (!image.littleEndian || image.planarConfiguration !== 1) return undefined;
  const samples = image.getSamplesPerPixel();
  const bits = numbers(await tag(image, 'BitsPerSample')) ?? [1];
  const formats = numbers(await tag(image, 'SampleFormat')) ?? [1];
  const compression = numbers(await tag(image, 'Compression'))?.[0] ?? COMPRESSION_NONE;
  const predictor = numbers(await tag(image, 'Predictor'))?.[0] ?? 1;
  if (samples !== 1 && samples !== 3) return undefined;
  if (bits.length !== samples || !bits.every((b) => b === bits[0]) || (bits[0] !== 8 && bits[0] !== 16))
    return undefined;
  if (!formats.every((f) => f === 1)) return undefined;
  if (compression !== COMPRESSION_NONE && !COMPRESSION_DEFLATE.includes(compression)) return undefined;
  if (predictor !== 1 && predictor !== 2) return undefined;
  // geotiff fills an empty block with GDAL's no-data value; here empty blocks are zeros.
  if (image.fileDirectory.hasTag('GDAL_NODATA')) return undefined;
  const tiled = image.isTiled;
  const offsets = numbers(await tag(image, tiled ? 'TileOffsets' : 'StripOffsets'));
  const counts = numbers(await tag(image, tiled ? 'TileByteCounts' : 'StripByteCounts'));
  const blockWidth = image.getTileWidth();
  const blockHeight = image.getTileHeight();
  const width = image.getWidth();
  const height = image.getHeight();
  if (!offsets || !counts || !(blockWidth > 0) || !(blockHeight > 0)) return undefined;
  const expected = Math.ceil(width / blockWidth) * Math.ceil(height / blockHeight);
  // A short list is geotiff's to refuse (with its own words) when a read reaches the missing blocks.
  if (offsets.length < expected || counts.length < expected) return undefined;
  return {
    label,
    width,
    height,
    samples,
    bits: bits[0] as 8 | 16,
    tiled,
    blockWidth,
    blockHeight,
    deflate: compression !== COMPRESSION_NONE,
    predictor: predictor === 2,
    offsets: Float64Array.from(offsets),
    counts: Float64Array.from(counts),
  };
}

/** Rows stored in block row `by`. */
function rowsOf(b: TiffBlocks, by: number): number {
  return b.tiled ? b.blockHeight : Math.min(b.blockHeight, b.height - by * b.blockHeight);
}

interface Run {
  by: number;
  /** Block columns [bx0, bx1) of row `by`. */
  bx0: number;
  bx1: number;
}

/**
 * Decodes the page's pixels in `window` ([x0, y0, x1, y1], inside the page) into `out` with the window's
 * top-left corner at (dx, dy). `out` must have the page's samples and bits. NOTE mutates out.
 */
export async function readBlocks(
  b: TiffBlocks,
  source: ByteSource,
  window: readonly [number, number, number, number],
  out: RawImage,
  dx: number,
  dy: number,
): Promise<void> {
  const [x0, y0, x1, y1] = window;
  const across = Math.ceil(b.width / b.blockWidth);
  // Blocks under the window, cut into runs read as one range each.
  const runs: Run[] = [];
  for (let by = Math.floor(y0 / b.blockHeight); by * b.blockHeight < y1; by++) {
    let run: Run | undefined;
    for (let bx = Math.floor(x0 / b.blockWidth); bx * b.blockWidth < x1; bx++) {
      const k = by * across + bx;
      const prev = k - 1;
      const joins =
        run &&
        run.bx1 - run.bx0 < BLOCKS_PER_READ &&
        b.counts[prev] > 0 &&
        b.counts[k] > 0 &&
        b.offsets[k] >= b.offsets[prev] + b.counts[prev] &&
        b.offsets[k] - (b.offsets[prev] + b.counts[prev]) <= MERGE_GAP;
      if (run && joins) run.bx1 = bx + 1;
      else runs.push((run = { by, bx0: bx, bx1: bx + 1 }));
    }
  }
  const place = (bx: number, by: number, pixels: Uint8Array | Uint16Array | undefined) => {
    const bx0 = bx * b.blockWidth;
    const by0 = by * b.blockHeight;
    const cx0 = Math.max(x0, bx0);
    const cx1 = Math.min(x1, bx0 + b.blockWidth);
    const cy1 = Math.min(y1, by0 + rowsOf(b, by));
    const c = b.samples;
    const len = (cx1 - cx0) * c;
    for (let y = Math.max(y0, by0); y < cy1; y++) {
      const d = ((y - y0 + dy) * out.width + (cx0 - x0 + dx)) * c;
      if (!pixels) out.data.fill(0, d, d + len);
      else {
        const s = ((y - by0) * b.blockWidth + (cx0 - bx0)) * c;
        // Same array kind on both sides: a memcpy.
        (out.data as Uint8Array).set((pixels as Uint8Array).subarray(s, s + len), d);
      }
    }
  };
  const readRun = async (r: Run) => {
    const first = r.by * across + r.bx0;
    const last = r.by * across + r.bx1 - 1;
    const start = b.offsets[first];
    const end = b.offsets[last] + b.counts[last];
    const what = `${b.label} block ${first}${last > first ? `–${last}` : ''}`;
    const bytes = await source.read(start, end - start, 'QPTIFF', what);
    await Promise.all(
      Array.from({ length: r.bx1 - r.bx0 }, async (_, i) => {
        const k = first + i;
        const at = b.offsets[k] - start;
        const packed = b.counts[k] === 0 ? undefined : bytes.subarray(at, at + b.counts[k]);
        place(r.bx0 + i, r.by, packed && (await decode(b, packed, rowsOf(b, r.by), k)));
      }),
    );
  };
  let next = 0;
  const worker = async () => {
    while (next < runs.length) await readRun(runs[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(READS_IN_FLIGHT, runs.length) }, worker));
}

/** One block's samples, predictor undone; a copy whenever `packed` is not already a fresh buffer. */
async function decode(
  b: TiffBlocks,
  packed: Uint8Array,
  rows: number,
  k: number,
): Promise<Uint8Array | Uint16Array> {
  const rowBytes = b.blockWidth * b.samples * (b.bits / 8);
  const need = rowBytes * rows;
  let raw: Uint8Array;
  if (b.deflate) {
    try {
      // One output chunk a byte larger than the block: zlib then neither joins chunks nor, having
      // filled one exactly, allocates another to look for more.
      raw = await inflate(packed, { chunkSize: need + 1 });
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      throw SlideErrors.qptiffCorrupt(`${b.label} block ${k} does not inflate (${why})`);
    }
  } else raw = b.predictor ? packed.slice() : packed; // the predictor works in place: never on the source's bytes
  if (raw.length < need)
    throw SlideErrors.qptiffCorrupt(`${b.label} block ${k} holds ${raw.length} bytes of ${need}`);
  const pixels = b.bits === 16 ? u16(raw) : raw;
  if (b.predictor) undoPredictor(pixels, b.blockWidth * b.samples, rows, b.samples);
  return pixels;
}

/** Horizontal differencing (TIFF Predictor 2): each sample is stored as the difference to its left neighbour's. */
function undoPredictor(px: Uint8Array | Uint16Array, rowLen: number, rows: number, stride: number): void {
  for (let r = 0; r < rows; r++) {
    const end = (r + 1) * rowLen;
    // The typed array wraps each sum modulo 2^bits, as the encoder's subtraction did.
    for (let i = r * rowLen + stride; i < end; i++) px[i] += px[i - stride];
  }
}
