// Zeiss CZI reader: one scene per Slide (scene 0 unless asked; `scenes` says how many the file holds),
// T=0, Z=middle, all channels; mosaics and pyramids.
// Quirks: scenes are the distinct S indices of the subblock directory, in ascending order (a file written
// without S is one scene); subblock X/Y are absolute stage-pixel coordinates (may be negative or large)
// so the image origin is the minimum over the scene, and each scene has its own size and origin; overlapping mosaic tiles are drawn in ascending M (last wins); a subblock
// whose stored size is smaller than its logical size belongs to the file's own pyramid and serves levels
// at that downsample; levels below the smallest stored one are made by box-filter shrinking.

import { TileCache } from './cache';
import { decodeImage } from './codecs';
import {
  readAttachmentData,
  readAttachmentDirectory,
  readDirectory,
  readFileHeader,
  readMetadataXml,
  readSubblockData,
  type CziAttachmentEntry,
  type CziDirectoryEntry,
} from './czi-segments';
import { parseCziMetadata, slideChannels } from './czi-metadata';
import { checkCompression, decodeSubblock, pixelLayout } from './czi-subblock';
import { SlideErrors } from './errors';
import { BytesSource, openDiskFile, type ByteSource, type OpenFile } from './file';
import {
  allocRaw,
  allocRegion,
  backgroundOf,
  blit,
  placeInOrder,
  resizeNearest,
  shrink,
  toRgb8,
} from './raw';
import type { AssociatedName, RawImage, Slide, SlideFormatReader, SlideLevel } from './types';

/** A subblock placed in level-0 pixels relative to the scene origin. */
interface Placed {
  x: number;
  y: number;
  w: number;
  h: number;
  storedW: number;
  storedH: number;
  /** Logical / stored size, clustered (2 for a ×2 pyramid subblock, 1 for full resolution). */
  factor: number;
  channel: number;
  /** Draw order: M index, then directory order. */
  order: number;
  entry: CziDirectoryEntry;
}

const SMALLEST_LEVEL = 512; // stop adding levels once the longer side fits this (a DZI tile or two)
const ATTACHMENT_NAMES: Record<string, AssociatedName> = {
  Label: 'label',
  SlidePreview: 'macro',
  Thumbnail: 'thumbnail',
};

/** Pyramid factors are size/stored, e.g. 1481/740 = 2.0014: snap near-integers so layers group together. */
function clusterFactor(f: number): number {
  const r = Math.round(f);
  return Math.abs(f - r) < 0.05 * r ? r : Math.round(f * 100) / 100;
}

/** The file's scene indices (S values) in ascending order; empty when its subblocks have no S. */
function sceneValues(entries: CziDirectoryEntry[]): number[] {
  const v = new Set(entries.map((e) => e.dims.S?.start).filter((s): s is number => s !== undefined));
  return [...v].sort((a, b) => a - b);
}

/** Picks the plane to show: scene `scene` (index among `sceneValues`), first T, middle Z, first of others. */
function selectPlane(entries: CziDirectoryEntry[], scenes: number[], scene: number): CziDirectoryEntry[] {
  const values = (dim: string) =>
    [...new Set(entries.map((e) => e.dims[dim]?.start).filter((v): v is number => v !== undefined))].sort(
      (a, b) => a - b,
    );
  const want: Record<string, number> = {};
  const dims = new Set(entries.flatMap((e) => Object.keys(e.dims)));
  for (const d of dims) {
    if (d === 'X' || d === 'Y' || d === 'C' || d === 'M') continue;
    if (d === 'S') want[d] = scenes[scene];
    else if (d === 'Z') want[d] = values(d)[Math.floor((values(d).length - 1) / 2)];
    else want[d] = values(d)[0];
  }
  return entries.filter((e) =>
    Object.entries(want).every(([d, v]) => e.dims[d] === undefined || e.dims[d].start === v),
  );
}

class CziSlide implements Slide {
  readonly format = 'czi' as const;
  readonly cache = new TileCache();

  constructor(
    private readonly file: ByteSource,
    readonly scenes: number,
    readonly scene: number,
    readonly levels: SlideLevel[],
    readonly channels: Slide['channels'],
    readonly kind: Slide['kind'],
    readonly bitsPerSample: 8 | 16,
    readonly pixelSizeUm: Slide['pixelSizeUm'],
    readonly properties: Record<string, string>,
    private readonly placed: Placed[],
    private readonly factors: number[],
    private readonly attachments: Map<AssociatedName, CziAttachmentEntry>,
  ) {}

  get associatedNames(): AssociatedName[] {
    return [...this.attachments.keys()];
  }

  private decode(p: Placed): Promise<RawImage> {
    return this.cache.get(String(p.entry.filePosition), async () => {
      const { data } = await readSubblockData(this.file, p.entry.filePosition);
      const img = await decodeSubblock(
        data,
        p.entry.pixelType,
        p.entry.compression,
        p.storedW,
        p.storedH,
        p.entry.filePosition,
      );
      return this.normalise(img);
    });
  }

  /** Brightfield → RGB 8-bit; fluorescence → one channel at bitsPerSample. */
  private normalise(img: RawImage): RawImage {
    if (this.kind === 'brightfield') return toRgb8(img);
    if (img.channels !== 1) img = { ...toRgb8(img), channels: 1 }; // never in practice: grey JPEG is 1 channel
    if (img.bits === this.bitsPerSample) return img;
    const out = allocRaw(img.width, img.height, 1, this.bitsPerSample);
    for (let i = 0; i < out.data.length; i++)
      out.data[i] = img.bits === 8 ? img.data[i] << 8 : img.data[i] >> 8;
    return out;
  }

  async readRegion(
    level: number,
    x: number,
    y: number,
    w: number,
    h: number,
    channel = 0,
  ): Promise<RawImage> {
    const plan = this.plan(level, x, y, w, h);
    const canvas = allocRegion(this.kind, this.bitsPerSample, plan.cw, plan.ch);
    await this.paint(plan, channel, canvas);
    return plan.direct ? canvas : shrink(canvas, w, h);
  }

  /** Subblocks decoded straight into `into` when the level is one of the file's own (no shrink). */
  async readRegionInto(level: number, x: number, y: number, into: RawImage, channel = 0): Promise<void> {
    const plan = this.plan(level, x, y, into.width, into.height);
    if (!plan.direct) {
      blit(into, await this.readRegion(level, x, y, into.width, into.height, channel), 0, 0);
      return;
    }
    into.data.fill(backgroundOf(this.kind));
    await this.paint(plan, channel, into);
  }

  /**
   * Where a region of `level` lies in the file's own layer closest below the wanted downsample (fewest
   * pixels to decode, no upscaling): that layer's factor, the region in level-0 pixels, and the size
   * of the canvas at that factor; `direct` when the canvas is the region itself.
   */
  private plan(level: number, x: number, y: number, w: number, h: number) {
    const ds = this.levels[level].downsample;
    const factor = Math.max(...this.factors.filter((f) => f <= ds * 1.001));
    const cw = Math.ceil((w * ds) / factor);
    const ch = Math.ceil((h * ds) / factor);
    return {
      factor,
      x0: x * ds,
      y0: y * ds,
      x1: (x + w) * ds,
      y1: (y + h) * ds,
      cw,
      ch,
      direct: factor === ds && cw === w && ch === h,
    };
  }

  /** Decodes the subblocks of `channel` under the plan's region and places them on `canvas`. */
  private async paint(plan: ReturnType<CziSlide['plan']>, channel: number, canvas: RawImage): Promise<void> {
    const { factor, x0, y0, x1, y1 } = plan;
    const hits = this.placed.filter(
      (p) =>
        p.factor === factor &&
        p.channel === channel &&
        p.x < x1 &&
        p.x + p.w > x0 &&
        p.y < y1 &&
        p.y + p.h > y0,
    );
    await placeInOrder(
      hits.map((p) => this.decode(p)),
      (img, i) => {
        const p = hits[i];
        const tw = Math.round(p.w / factor);
        const th = Math.round(p.h / factor);
        blit(
          canvas,
          resizeNearest(img, tw, th),
          Math.round((p.x - x0) / factor),
          Math.round((p.y - y0) / factor),
        );
      },
    );
  }

  async associated(name: AssociatedName): Promise<RawImage | undefined> {
    const att = this.attachments.get(name);
    if (!att) return undefined;
    const bytes = await readAttachmentData(this.file, att.filePosition);
    if (att.contentFileType === 'CZI') {
      const inner = await openCziSource(new BytesSource(`${this.file.path}#${att.name}`, bytes));
      try {
        const l0 = inner.levels[0];
        return toRgb8(await inner.readRegion(0, 0, 0, l0.width, l0.height));
      } finally {
        await inner.close();
      }
    }
    return toRgb8(await decodeImage(bytes));
  }

  async close(): Promise<void> {
    this.cache.clear();
    await this.file.close();
  }
}

/** Opens a CZI from any byte source (a file, or an attachment holding a nested CZI). */
export async function openCziSource(file: ByteSource, scene = 0): Promise<Slide> {
  const header = await readFileHeader(file);
  const all = await readDirectory(file, header.directoryPosition);
  const meta = parseCziMetadata(await readMetadataXml(file, header.metadataPosition));
  const attachments = new Map<AssociatedName, CziAttachmentEntry>();
  for (const a of await readAttachmentDirectory(file, header.attachmentDirectoryPosition)) {
    const name = ATTACHMENT_NAMES[a.name];
    if (name && (a.contentFileType === 'CZI' || a.contentFileType === 'JPG')) attachments.set(name, a);
  }

  const sceneList = sceneValues(all);
  const sceneCount = Math.max(1, sceneList.length);
  if (!Number.isInteger(scene) || scene < 0 || scene >= sceneCount)
    throw SlideErrors.noScene(scene, sceneCount);
  const plane = selectPlane(all, sceneList, scene);
  if (plane.length === 0) throw SlideErrors.cziNoSubblocks();
  for (const e of plane) {
    pixelLayout(e.pixelType); // throws for float / complex types
    checkCompression(e.compression);
  }
  const cValues = [...new Set(plane.map((e) => e.dims.C?.start ?? 0))].sort((a, b) => a - b);
  const layouts = plane.map((e) => pixelLayout(e.pixelType));
  const brightfield = layouts.some((l) => l.channels >= 3);
  const bits: 8 | 16 = !brightfield && layouts.some((l) => l.bits === 16) ? 16 : 8;

  const placed: Placed[] = plane.map((e, i) => {
    const X = e.dims.X;
    const Y = e.dims.Y;
    if (!X || !Y || X.size <= 0 || Y.size <= 0 || X.storedSize <= 0 || Y.storedSize <= 0) {
      throw SlideErrors.cziBadSubblock(e.filePosition, 'missing X or Y size');
    }
    return {
      x: X.start,
      y: Y.start,
      w: X.size,
      h: Y.size,
      storedW: X.storedSize,
      storedH: Y.storedSize,
      factor: clusterFactor(X.size / X.storedSize),
      channel: cValues.indexOf(e.dims.C?.start ?? 0),
      order: (e.dims.M?.start ?? -1) * plane.length + i,
      entry: e,
    };
  });
  const full = placed.filter((p) => p.factor === 1);
  if (full.length === 0)
    throw sceneCount > 1 ? SlideErrors.cziEmptyScene(scene) : SlideErrors.cziNoSubblocks();
  const minX = Math.min(...full.map((p) => p.x));
  const minY = Math.min(...full.map((p) => p.y));
  const width = Math.max(...full.map((p) => p.x + p.w)) - minX;
  const height = Math.max(...full.map((p) => p.y + p.h)) - minY;
  for (const p of placed) {
    p.x -= minX;
    p.y -= minY;
  }
  placed.sort((a, b) => a.order - b.order);

  const factors = [...new Set(placed.map((p) => p.factor))].sort((a, b) => a - b);
  const downsamples = [...factors];
  for (let d = downsamples[downsamples.length - 1]; Math.max(width, height) / d > SMALLEST_LEVEL;) {
    d *= 2;
    downsamples.push(d);
  }
  const levels = downsamples.map((d) => ({
    width: Math.ceil(width / d),
    height: Math.ceil(height / d),
    downsample: d,
    stored: factors.includes(d),
  }));
  const properties: Record<string, string> = {
    ...meta.properties,
    fileVersion: `${header.major}.${header.minor}`,
  };
  return new CziSlide(
    file,
    sceneCount,
    scene,
    levels,
    slideChannels(meta, cValues.length, brightfield),
    brightfield ? 'brightfield' : 'fluorescence',
    bits,
    meta.pixelSizeUm,
    properties,
    placed,
    factors,
    attachments,
  );
}

async function hasMagic(path: string, openFile: OpenFile): Promise<boolean> {
  const f = await openFile(path);
  try {
    if (f.size < 16) return false;
    const b = await f.read(0, 10, 'CZI', 'file header');
    return new TextDecoder().decode(b) === 'ZISRAWFILE';
  } finally {
    await f.close();
  }
}

export const cziReader: SlideFormatReader = {
  format: 'czi',
  capabilities: {
    levels:
      "level 0 + the file's own pyramid subblocks (`stored`), then ×2 shrinks until ≤ 512 px (`stored: false`)",
    pixels:
      'Gray8, Gray16, Bgr24, Bgr48 (→ 8-bit), Bgra32 (alpha dropped); raw, JPEG, JPEG-XR, zstd0, zstd1 (hi/lo)',
    associated: 'Label, SlidePreview (nested CZI or JPEG) → label, macro; Thumbnail JPEG',
    scenes: 'every scene (S index), each its own size and origin; associated images are the whole file’s',
    unsupported:
      'float/complex pixel types, LZW; T ≠ 0, Z ≠ middle; JPEG-XR only tested on the error path (no encoder on npm)',
  },
  async detect(files, openFile = openDiskFile) {
    // A .czi is ours even when broken, so the user sees why it does not open; other names need the magic.
    if (files.some((f) => f.toLowerCase().endsWith('.czi'))) return true;
    return files.length === 1 && (await hasMagic(files[0], openFile));
  },
  async open(files, openFile = openDiskFile, scene = 0) {
    const main = files.find((f) => f.toLowerCase().endsWith('.czi')) ?? files[0];
    const file = await openFile(main);
    try {
      return await openCziSource(file, scene);
    } catch (e) {
      await file.close();
      throw e;
    }
  },
};
