// PerkinElmer / Akoya QPTIFF reader (Vectra, Polaris, PhenoImager): a TIFF whose pages each carry an XML
// ImageDescription <PerkinElmer-QPI-ImageDescription> with ImageType FullResolution | ReducedResolution |
// Thumbnail | Overview | Label. Quirks: fluorescence stores one grey page per channel at every level (the
// channel's Name and Color "r,g,b" on each page); brightfield is one RGB page per level; the XML claims
// utf-16 but is written as ASCII; pixel size comes from ScanProfile when present, else XResolution.
// geotiff parses the pages; their pixels come from tiff-blocks.ts where it decodes the page's layout
// (deflate or none, the fixtures' and scanners' usual), from geotiff's readRasters otherwise.

import { GeoTIFF, type GeoTIFFImage } from 'geotiff';
import { SlideError, SlideErrors } from './errors';
import { openDiskFile, type ByteSource, type OpenFile } from './file';
import { allocRaw, allocRegion, backgroundOf, blit, toRgb8 } from './raw';
import { readBlocks, tiffBlocks, type TiffBlocks } from './tiff-blocks';
import type { AssociatedName, RawImage, Slide, SlideChannel, SlideFormatReader, SlideLevel } from './types';
import { child, parseXml } from './xml';

interface QpiPage {
  image: GeoTIFFImage;
  type: string;
  name?: string;
  color?: [number, number, number];
}

const ASSOCIATED: Record<string, AssociatedName> = {
  Label: 'label',
  Overview: 'macro',
  Thumbnail: 'thumbnail',
};

async function describe(image: GeoTIFFImage): Promise<QpiPage | undefined> {
  const fd = image.fileDirectory;
  if (!fd.hasTag('ImageDescription')) return undefined;
  const desc = String(await fd.loadValue('ImageDescription'));
  if (!desc.includes('PerkinElmer-QPI-ImageDescription')) return undefined;
  const root = parseXml(desc);
  const rgb = child(root, 'Color')?.text.split(',').map(Number);
  return {
    image,
    type: child(root, 'ImageType')?.text ?? '',
    name: child(root, 'Name')?.text || child(root, 'Biomarker')?.text || undefined,
    color:
      rgb && rgb.length === 3 && rgb.every((v) => v >= 0 && v <= 255)
        ? (rgb as [number, number, number])
        : undefined,
  };
}

/** µm per pixel from the TIFF resolution tags (unit 3 = centimetre, 2 = inch). */
async function resolutionUm(image: GeoTIFFImage): Promise<{ x: number; y: number } | undefined> {
  const fd = image.fileDirectory;
  if (!fd.hasTag('XResolution') || !fd.hasTag('YResolution')) return undefined;
  const unit = fd.hasTag('ResolutionUnit') ? Number(await fd.loadValue('ResolutionUnit')) : 2;
  const perUnit = unit === 3 ? 1e4 : unit === 2 ? 25400 : 0;
  const rational = async (tag: 'XResolution' | 'YResolution') => {
    // geotiff types RATIONAL as number, but it returns [numerator, denominator].
    const v = (await fd.loadValue(tag)) as unknown as ArrayLike<number>;
    return v[1] ? v[0] / v[1] : 0;
  };
  const [rx, ry] = [await rational('XResolution'), await rational('YResolution')];
  if (!perUnit || !(rx > 1) || !(ry > 1)) return undefined; // 1/1 is "not set" for the small pages
  return { x: perUnit / rx, y: perUnit / ry };
}

class QptiffSlide implements Slide {
  readonly format = 'qptiff' as const;
  /** One scene per file: what is not read is in the reader's `unsupported` capability. */
  readonly scenes = 1;
  readonly scene = 0;
  constructor(
    private readonly tiff: GeoTIFF,
    /** pages[level][channel]; brightfield has one RGB page per level. */
    private readonly pages: GeoTIFFImage[][],
    readonly levels: SlideLevel[],
    readonly channels: SlideChannel[],
    readonly kind: Slide['kind'],
    readonly bitsPerSample: 8 | 16,
    readonly pixelSizeUm: Slide['pixelSizeUm'],
    readonly properties: Record<string, string>,
    private readonly extra: Map<AssociatedName, GeoTIFFImage>,
    /** The file geotiff parses; pixels of the pages in `blocks` are read from it directly. */
    private readonly source: ByteSource,
    /** Pages whose blocks tiff-blocks.ts decodes; the others are read through geotiff. */
    private readonly blocks: Map<GeoTIFFImage, TiffBlocks>,
  ) {}

  get associatedNames(): AssociatedName[] {
    return [...this.extra.keys()];
  }

  async readRegion(
    level: number,
    x: number,
    y: number,
    w: number,
    h: number,
    channel = 0,
  ): Promise<RawImage> {
    const out = allocRegion(this.kind, this.bitsPerSample, w, h);
    await this.place(level, x, y, out, channel, false);
    return out;
  }

  async readRegionInto(level: number, x: number, y: number, into: RawImage, channel = 0): Promise<void> {
    await this.place(level, x, y, into, channel, true);
  }

  /** The page's pixels of the rectangle at (x, y) the size of `out` into `out`; `clear`: fill the rest. */
  private async place(level: number, x: number, y: number, out: RawImage, channel: number, clear: boolean) {
    const page = this.pages[level][channel];
    // geotiff wants the window inside the page: read the clipped part and place it.
    const x0 = Math.max(0, x);
    const y0 = Math.max(0, y);
    const x1 = Math.min(page.getWidth(), x + out.width);
    const y1 = Math.min(page.getHeight(), y + out.height);
    const inside = x1 > x0 && y1 > y0;
    if (clear && !(inside && x0 === x && y0 === y && x1 - x0 === out.width && y1 - y0 === out.height))
      out.data.fill(backgroundOf(this.kind));
    if (inside) await this.read(page, [x0, y0, x1, y1], out, x0 - x, y0 - y);
  }

  /** The page's pixels in `window` into `out` at (dx, dy), natively when tiff-blocks.ts can. */
  private async read(
    page: GeoTIFFImage,
    window: [number, number, number, number],
    out: RawImage,
    dx: number,
    dy: number,
  ): Promise<void> {
    const blocks = this.blocks.get(page);
    try {
      if (blocks && blocks.samples === out.channels && blocks.bits === out.bits)
        await readBlocks(blocks, this.source, window, out, dx, dy);
      else blit(out, await readWindow(page, window, out.channels as 1 | 3, out.bits), dx, dy);
    } catch (e) {
      throw corrupt(e);
    }
  }

  async associated(name: AssociatedName): Promise<RawImage | undefined> {
    const page = this.extra.get(name);
    if (!page) return undefined;
    const spp = page.getSamplesPerPixel() >= 3 ? 3 : 1;
    const bits = Number(page.getBitsPerSample()) === 16 ? 16 : 8;
    const img = allocRaw(page.getWidth(), page.getHeight(), spp, bits);
    await this.read(page, [0, 0, img.width, img.height], img, 0, 0);
    return toRgb8(img);
  }

  async close(): Promise<void> {
    await this.tiff.close();
  }
}

async function readWindow(
  page: GeoTIFFImage,
  window: [number, number, number, number],
  channels: 1 | 3,
  bits: 8 | 16,
): Promise<RawImage> {
  const samples = channels === 3 ? [0, 1, 2] : [0];
  const data = await page.readRasters({ window, samples, interleave: true });
  const width = window[2] - window[0];
  const height = window[3] - window[1];
  const typed =
    bits === 16 ? Uint16Array.from(data as ArrayLike<number>) : Uint8Array.from(data as ArrayLike<number>);
  // geotiff returns the exact array type for 8/16-bit data; the copy above only runs for other types.
  const out = data instanceof Uint16Array || data instanceof Uint8Array ? data : typed;
  return { width, height, channels, bits, data: out };
}

/** geotiff throws plain errors (RangeError, 'Invalid byte order'...): name them for the user. */
function corrupt(e: unknown): Error {
  if (e instanceof SlideError) return e;
  return SlideErrors.qptiffCorrupt(e instanceof Error ? e.message : String(e));
}

/**
 * geotiff reads past the end of a cut-off file without complaint (missing pages vanish, missing tiles come
 * back as garbage), so check that every page's tiles or strips lie inside the file.
 */
async function checkExtents(pages: QpiPage[], fileSize: number): Promise<void> {
  for (const [i, p] of pages.entries()) {
    const fd = p.image.fileDirectory;
    const tiled = fd.hasTag('TileOffsets');
    const offsets = (await fd.loadValue(tiled ? 'TileOffsets' : 'StripOffsets')) as
      ArrayLike<number> | undefined;
    const counts = (await fd.loadValue(tiled ? 'TileByteCounts' : 'StripByteCounts')) as
      ArrayLike<number> | undefined;
    if (!offsets || !counts) throw SlideErrors.qptiffCorrupt(`page ${i} has no image data`);
    for (let k = 0; k < offsets.length; k++) {
      if (Number(offsets[k]) + Number(counts[k]) > fileSize)
        throw SlideErrors.truncated('QPTIFF', `page ${i}`);
    }
  }
}

type TiffSource = Parameters<typeof GeoTIFF.fromSource>[0];

/**
 * geotiff's view of a byte source. geotiff asks for slices past the end (1 KiB for the header, whole
 * IFD guesses), as its own file source answers them: the part inside the file, then zeros. Closing the
 * GeoTIFF closes the source; `failure` keeps the first error of the byte source (geotiff's own are about
 * the format).
 */
function tiffSource(f: ByteSource): TiffSource & { failure?: unknown } {
  const fetchSlice = async (slice: { offset: number; length: number }) => {
    const inside = Math.max(0, Math.min(slice.length, f.size - slice.offset));
    const data = new Uint8Array(slice.length);
    if (inside > 0) {
      const bytes = await f.read(slice.offset, inside, 'QPTIFF', `bytes at ${slice.offset}`).catch((e) => {
        source.failure ??= e;
        throw e;
      });
      data.set(bytes);
    }
    return { offset: slice.offset, length: slice.length, data: data.buffer };
  };
  const source: TiffSource & { failure?: unknown } = {
    fetchSlice,
    fetch: (slices) => Promise.all(slices.map(async (s) => (await fetchSlice(s)).data)),
    fileSize: f.size,
    close: () => f.close(),
  };
  return source;
}

async function openQptiff(path: string, openFile: OpenFile): Promise<Slide> {
  const f = await openFile(path);
  const size = f.size;
  let tiff: GeoTIFF;
  try {
    if (f.size < 8 || !isTiffMagic(await f.read(0, 4, 'QPTIFF', 'header'))) throw SlideErrors.qptiffNotTiff();
    tiff = await GeoTIFF.fromSource(tiffSource(f));
  } catch (e) {
    await f.close();
    throw corrupt(e);
  }
  try {
    const count = await tiff.getImageCount();
    const pages: QpiPage[] = [];
    for (let i = 0; i < count; i++) {
      const p = await describe(await tiff.getImage(i));
      if (p) pages.push(p);
    }
    if (pages.length === 0) throw SlideErrors.qptiffNotQpi();
    await checkExtents(pages, size);
    const full = pages.filter((p) => p.type === 'FullResolution');
    if (full.length === 0) throw SlideErrors.qptiffNoFullResolution();
    const first = full[0].image;
    const rgb = first.getSamplesPerPixel() >= 3;
    const perLevel = rgb ? 1 : full.length;
    const bits: 8 | 16 = !rgb && Number(first.getBitsPerSample()) === 16 ? 16 : 8;
    const levelPages: GeoTIFFImage[][] = [full.slice(0, perLevel).map((p) => p.image)];
    // Reduced levels come as runs of `perLevel` pages of one size; an incomplete run is ignored.
    const reduced = pages.filter((p) => p.type === 'ReducedResolution');
    for (let i = 0; i + perLevel <= reduced.length; i += perLevel) {
      const run = reduced.slice(i, i + perLevel).map((p) => p.image);
      if (run.every((im) => im.getWidth() === run[0].getWidth())) levelPages.push(run);
    }
    levelPages.sort((a, b) => b[0].getWidth() - a[0].getWidth());
    const W = first.getWidth();
    const levels = levelPages.map((run) => ({
      width: run[0].getWidth(),
      height: run[0].getHeight(),
      downsample: W / run[0].getWidth(),
      stored: true,
    }));
    const channels: SlideChannel[] = rgb
      ? [{ name: 'Brightfield', color: [255, 255, 255] }]
      : full.map((p, i) => ({ name: p.name ?? `C${i + 1}`, color: p.color ?? [255, 255, 255] }));
    const extra = new Map<AssociatedName, GeoTIFFImage>();
    for (const p of pages) {
      const name = ASSOCIATED[p.type];
      if (name && !extra.has(name)) extra.set(name, p.image);
    }
    const blocks = new Map<GeoTIFFImage, TiffBlocks>();
    for (const [i, p] of pages.entries()) {
      const b = await tiffBlocks(p.image, `page ${i}`);
      if (b) blocks.set(p.image, b);
    }
    return new QptiffSlide(
      tiff,
      levelPages,
      levels,
      channels,
      rgb ? 'brightfield' : 'fluorescence',
      bits,
      await resolutionUm(first),
      {},
      extra,
      f,
      blocks,
    );
  } catch (e) {
    await tiff.close();
    throw corrupt(e);
  }
}

function isTiffMagic(b: Uint8Array): boolean {
  const ii = b[0] === 0x49 && b[1] === 0x49 && (b[2] === 42 || b[2] === 43) && b[3] === 0;
  const mm = b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && (b[3] === 42 || b[3] === 43);
  return ii || mm;
}

export const qptiffReader: SlideFormatReader = {
  format: 'qptiff',
  capabilities: {
    levels: 'FullResolution + ReducedResolution pages',
    pixels: 'one page per channel, 8/16-bit, names and colours from the page XML; RGB brightfield',
    associated: 'Label, Overview → macro, Thumbnail',
    scenes:
      'one region: every FullResolution page is a channel of one image; a file holding several regions is not split into images',
    unsupported: 'pixel size from ScanProfile (TIFF resolution is used)',
  },
  async detect(files, openFile = openDiskFile) {
    if (files.length !== 1) return false;
    // A .qptiff is ours even when broken, so the user sees why; another TIFF must show the QPI XML.
    if (files[0].toLowerCase().endsWith('.qptiff')) return true;
    const f = await openFile(files[0]);
    const source = tiffSource(f);
    try {
      if (f.size < 8 || !isTiffMagic(await f.read(0, 4, 'QPTIFF', 'header'))) return false;
      const tiff = await GeoTIFF.fromSource(source);
      return (await describe(await tiff.getImage(0))) !== undefined;
    } catch (e) {
      // The bytes could not be read (a cut-off file, the bucket not answering): say so. Otherwise
      // geotiff refused what it read: not a TIFF of ours.
      if (source.failure !== undefined || e instanceof SlideError) throw source.failure ?? e;
      return false;
    } finally {
      await f.close();
    }
  },
  open: (files, openFile = openDiskFile) => openQptiff(files[0], openFile),
};
