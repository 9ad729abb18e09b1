// 3DHistech MIRAX reader: `slide.mrxs` + its folder (Slidedat.ini, Index.dat, Data*.dat).
// Quirks: a camera photo may be cut into CameraImageDivisionsPerSide² images; photos overlap (OVERLAP_X/Y)
// and their true level-0 positions come from VIMSLIDE_POSITION_BUFFER (9 bytes per photo: flag, x, y) or
// the zlib-compressed StitchingIntensityLayer of newer scanners; level i halves IMAGE_CONCAT_FACTOR times
// more, by merging 2×2 images, so once images merge different photos we cut them back into one subtile
// per photo and place each at its own photo's position. Positions (0,0) other than the first are unused.

import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { TileCache } from './cache';
import { decodeImage } from './codecs';
import { SlideErrors } from './errors';
import { openDiskFile, readText, type ByteSource, type OpenFile } from './file';
import { MrxsIndex, iniGet, iniNum, parseIni, type Ini, type MrxsRecord } from './mrxs-index';
import { allocRaw, blit, placeInOrder, toRgb8 } from './raw';
import type { AssociatedName, RawImage, Slide, SlideFormatReader, SlideLevel } from './types';

/** A piece of a stored image drawn at a place in its level (level pixels). */
interface Piece {
  x: number;
  y: number;
  w: number;
  h: number;
  srcX: number;
  srcY: number;
  record: MrxsRecord;
}

interface MrxsLevel extends SlideLevel {
  pieces: Piece[];
  /** Spatial buckets of `pieces` indexes, keyed "col,row" with cell size `cell`. */
  grid: Map<string, number[]>;
  cell: number;
}

const HIER = 'HIERARCHICAL';
const ASSOCIATED: [AssociatedName, string][] = [
  ['label', 'ScanDataLayer_SlideBarcode'],
  ['macro', 'ScanDataLayer_SlideThumbnail'],
  ['thumbnail', 'ScanDataLayer_SlidePreview'],
];

/** Index of non-hier value `value` of layer `name`, counting values across all layers; -1 if absent. */
function nonhierSlot(ini: Ini, name: string, value?: string): number {
  const count = iniNum(ini, HIER, 'NONHIER_COUNT', 0);
  let slot = 0;
  for (let i = 0; i < count; i++) {
    const n = iniNum(ini, HIER, `NONHIER_${i}_COUNT`);
    if (iniGet(ini, HIER, `NONHIER_${i}_NAME`) === name) {
      if (value === undefined) return slot;
      for (let j = 0; j < n; j++) if (ini.get(HIER)?.get(`NONHIER_${i}_VAL_${j}`) === value) return slot + j;
      return -1;
    }
    slot += n;
  }
  return -1;
}

/**
 * Finds the slide's files: the given names first (the processing job lists the whole data folder), else
 * the folder named like the .mrxs next to it on the disk.
 */
function locate(files: string[]): { mrxs: string; byName: Map<string, string> } {
  const mrxs = files.find((f) => f.toLowerCase().endsWith('.mrxs')) ?? files[0];
  const byName = new Map<string, string>();
  for (const f of files) if (f !== mrxs) byName.set(basename(f), f);
  if (!byName.has('Slidedat.ini')) {
    const folder = join(dirname(mrxs), basename(mrxs).replace(/\.mrxs$/i, ''));
    if (existsSync(folder)) for (const n of readdirSync(folder)) byName.set(n, join(folder, n));
  }
  return { mrxs, byName };
}

class MrxsSlide implements Slide {
  readonly format = 'mrxs' as const;
  /** One scene per file: what is not read is in the reader's `unsupported` capability. */
  readonly scenes = 1;
  readonly scene = 0;
  readonly channels = [{ name: 'Brightfield', color: [255, 255, 255] as [number, number, number] }];
  readonly kind = 'brightfield' as const;
  readonly bitsPerSample = 8 as const;
  /**
   * Decoded photos, 64 MiB: a row of them under the tiler's widest read (a stripe, or a slide of up to
   * 32,512 px) fits, so the row a band ends on is still there when the next band starts on it.
   */
  private readonly cache = new TileCache();

  constructor(
    private readonly data: ByteSource[],
    readonly levels: MrxsLevel[],
    readonly pixelSizeUm: Slide['pixelSizeUm'],
    readonly properties: Record<string, string>,
    private readonly extra: Map<AssociatedName, Omit<MrxsRecord, 'image'>>,
    private readonly fill: [number, number, number],
  ) {}

  get associatedNames(): AssociatedName[] {
    return [...this.extra.keys()];
  }

  private async bytes(r: Omit<MrxsRecord, 'image'>): Promise<Uint8Array> {
    const f = this.data[r.fileNo];
    if (!f) throw SlideErrors.mrxsIndex(`file number ${r.fileNo} out of range`);
    return f.read(r.offset, r.length, 'MRXS', `image in ${basename(f.path)} at byte ${r.offset}`);
  }

  private image(r: MrxsRecord): Promise<RawImage> {
    return this.cache.get(`${r.fileNo}:${r.offset}`, () => this.decode(r));
  }

  private async decode(r: Omit<MrxsRecord, 'image'>): Promise<RawImage> {
    const bytes = await this.bytes(r);
    try {
      return toRgb8(await decodeImage(bytes));
    } catch (e) {
      const file = basename(this.data[r.fileNo].path);
      throw SlideErrors.mrxsImage(file, r.offset, e instanceof Error ? e.message : String(e));
    }
  }

  async readRegion(level: number, x: number, y: number, w: number, h: number): Promise<RawImage> {
    const out = allocRaw(w, h, 3, 8);
    await this.readRegionInto(level, x, y, out);
    return out;
  }

  async readRegionInto(level: number, x: number, y: number, out: RawImage): Promise<void> {
    const lv = this.levels[level];
    const { width: w, height: h } = out;
    fillRgb(out.data as Uint8Array, this.fill);
    const ids = new Set<number>();
    for (let cy = Math.floor(y / lv.cell); cy <= Math.floor((y + h - 1) / lv.cell); cy++)
      for (let cx = Math.floor(x / lv.cell); cx <= Math.floor((x + w - 1) / lv.cell); cx++)
        for (const id of lv.grid.get(`${cx},${cy}`) ?? []) ids.add(id);
    // Index order is record order: later photos are drawn over the overlap of earlier ones.
    const hits = [...ids]
      .sort((a, b) => a - b)
      .map((id) => lv.pieces[id])
      .filter((p) => p.x < x + w && p.x + p.w > x && p.y < y + h && p.y + p.h > y);
    await placeInOrder(
      hits.map((p) => this.image(p.record)),
      (img, i) => {
        const p = hits[i];
        const piece =
          p.srcX === 0 && p.srcY === 0 && p.w === img.width && p.h === img.height
            ? img
            : crop(img, p.srcX, p.srcY, p.w, p.h);
        blit(out, piece, Math.round(p.x - x), Math.round(p.y - y));
      },
    );
  }

  async associated(name: AssociatedName): Promise<RawImage | undefined> {
    const r = this.extra.get(name);
    return r ? this.decode(r) : undefined;
  }

  async close(): Promise<void> {
    this.cache.clear();
    await Promise.all(this.data.map((f) => f.close()));
  }
}

/** Paints every pixel `rgb` with native fills: a memset for grey, else doubling copies of one pixel. */
function fillRgb(data: Uint8Array, [r, g, b]: [number, number, number]): void {
  if (r === g && g === b) {
    data.fill(r);
    return;
  }
  data.set([r, g, b].slice(0, data.length));
  for (let n = 3; n < data.length; n *= 2) data.copyWithin(n, 0, Math.min(n, data.length - n));
}

function crop(img: RawImage, x: number, y: number, w: number, h: number): RawImage {
  const out = allocRaw(w, h, 3, 8);
  blit(out, img, -x, -y);
  return out;
}

function indexPieces(pieces: Piece[], cell: number): Map<string, number[]> {
  const grid = new Map<string, number[]>();
  pieces.forEach((p, id) => {
    for (let cy = Math.floor(p.y / cell); cy <= Math.floor((p.y + p.h - 1) / cell); cy++)
      for (let cx = Math.floor(p.x / cell); cx <= Math.floor((p.x + p.w - 1) / cell); cx++) {
        const k = `${cx},${cy}`;
        const list = grid.get(k);
        if (list) list.push(id);
        else grid.set(k, [id]);
      }
  });
  return grid;
}

async function openMrxs(files: string[], openFile: OpenFile = openDiskFile): Promise<Slide> {
  const { byName } = locate(files);
  const iniPath = byName.get('Slidedat.ini');
  if (!iniPath) throw SlideErrors.mrxsNoIni();
  const ini = parseIni(await readText(openFile, iniPath, 'MRXS'));
  const G = 'GENERAL';
  const slideId = iniGet(ini, G, 'SLIDE_ID');
  const imagesX = iniNum(ini, G, 'IMAGENUMBER_X');
  const imagesY = iniNum(ini, G, 'IMAGENUMBER_Y');
  const div = iniNum(ini, G, 'CameraImageDivisionsPerSide', 1);
  if (iniGet(ini, HIER, 'HIER_0_NAME') !== 'Slide zoom level')
    throw SlideErrors.mrxsIniKey(HIER, 'HIER_0_NAME');
  const zoomLevels = iniNum(ini, HIER, 'HIER_0_COUNT');

  const dataNames = Array.from({ length: iniNum(ini, 'DATAFILE', 'FILE_COUNT') }, (_, i) =>
    iniGet(ini, 'DATAFILE', `FILE_${i}`),
  );
  const indexName = iniGet(ini, HIER, 'INDEXFILE');
  for (const n of [indexName, ...dataNames]) if (!byName.has(n)) throw SlideErrors.mrxsMissingData(n);

  const sections = Array.from({ length: zoomLevels }, (_, i) => iniGet(ini, HIER, `HIER_0_VAL_${i}_SECTION`));
  const sec = sections.map((s) => ({
    concatExp: iniNum(ini, s, 'IMAGE_CONCAT_FACTOR'),
    overlapX: iniNum(ini, s, 'OVERLAP_X', 0),
    overlapY: iniNum(ini, s, 'OVERLAP_Y', 0),
    mppX: iniNum(ini, s, 'MICROMETER_PER_PIXEL_X', 0),
    mppY: iniNum(ini, s, 'MICROMETER_PER_PIXEL_Y', 0),
    imageW: iniNum(ini, s, 'DIGITIZER_WIDTH'),
    imageH: iniNum(ini, s, 'DIGITIZER_HEIGHT'),
    fillBgr: iniNum(ini, s, 'IMAGE_FILL_COLOR_BGR', 0xffffff),
  }));

  const indexFile = await openFile(byName.get(indexName)!);
  const data: ByteSource[] = [];
  try {
    for (const n of dataNames) data.push(await openFile(byName.get(n)!));
    const index = await MrxsIndex.open(indexFile, slideId);
    const s0 = sec[0];

    // Level-0 size: images side by side, minus the overlap where one photo meets the next.
    const along = (n: number, size: number, overlap: number) => {
      let t = 0;
      for (let i = 0; i < n; i++) t += i % div !== div - 1 || i === n - 1 ? size : size - overlap;
      return t;
    };
    const baseW = along(imagesX, s0.imageW, s0.overlapX);
    const baseH = along(imagesY, s0.imageH, s0.overlapY);

    // Photo positions in level-0 pixels (times the level-0 concat, as the index counts base images).
    const photosX = Math.floor(imagesX / div);
    const photos = photosX * Math.floor(imagesY / div);
    const concat0 = 2 ** s0.concatExp;
    const positions = new Int32Array(photos * 2);
    const vim = nonhierSlot(ini, 'VIMSLIDE_POSITION_BUFFER');
    const stitch = vim === -1 ? nonhierSlot(ini, 'StitchingIntensityLayer') : -1;
    if (vim !== -1 || stitch !== -1) {
      const rec = await index.nonhierRecord(vim !== -1 ? vim : stitch);
      let buf = await data[rec.fileNo].read(rec.offset, rec.length, 'MRXS', 'position buffer');
      if (stitch !== -1) {
        try {
          buf = new Uint8Array(inflateSync(buf));
        } catch {
          throw SlideErrors.mrxsIndex('the stitching position layer does not inflate');
        }
      }
      if (buf.length < photos * 9)
        throw SlideErrors.mrxsIndex(`position buffer has ${buf.length} bytes, expected ${photos * 9}`);
      const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
      for (let i = 0; i < photos; i++) {
        positions[i * 2] = v.getInt32(i * 9 + 1, true) * concat0;
        positions[i * 2 + 1] = v.getInt32(i * 9 + 5, true) * concat0;
      }
    } else {
      for (let i = 0; i < photos; i++) {
        positions[i * 2] = (i % photosX) * (s0.imageW * div - s0.overlapX);
        positions[i * 2 + 1] = Math.floor(i / photosX) * (s0.imageH * div - s0.overlapY);
      }
    }

    const active = new Set<number>();
    const levels: MrxsLevel[] = [];
    let exp = 0;
    for (let li = 0; li < zoomLevels; li++) {
      exp += sec[li].concatExp;
      const concat = 2 ** exp;
      const { imageW, imageH } = sec[li];
      const perImage = Math.max(1, concat / div); // subtiles per image side: one per photo once photos merge
      const tw = imageW / perImage;
      const th = imageH / perImage;
      const pieces: Piece[] = [];
      for (const record of await index.levelRecords(li)) {
        const x = record.image % imagesX;
        const y = Math.floor(record.image / imagesX);
        if (y >= imagesY)
          throw SlideErrors.mrxsIndex(`image ${record.image} outside the ${imagesX}x${imagesY} grid`);
        const subs: Array<{ xi: number; yi: number; x0: number; y0: number }> = [];
        for (let yi = 0; yi < perImage; yi++)
          for (let xi = 0; xi < perImage; xi++) {
            const xx = x + xi * div;
            const yy = y + yi * div;
            if (xx >= imagesX || yy >= imagesY) continue;
            const px = Math.floor(xx / div);
            const py = Math.floor(yy / div);
            const photo = py * photosX + px;
            if (li === 0) {
              if (positions[photo * 2] === 0 && positions[photo * 2 + 1] === 0 && (px || py)) continue;
              active.add(photo);
            } else if (!active.has(photo)) continue;
            const x0 = positions[photo * 2] + sec[0].imageW * (xx - px * div);
            const y0 = positions[photo * 2 + 1] + sec[0].imageH * (yy - py * div);
            subs.push({ xi, yi, x0, y0 });
          }
        // Every subtile where the image itself puts it (photos on the regular grid): draw it whole,
        // with no crop per read and no rounding of subtile edges.
        const first = subs[0];
        const whole =
          subs.length === perImage * perImage &&
          subs.every((u) => u.x0 === first.x0 + u.xi * tw * concat && u.y0 === first.y0 + u.yi * th * concat);
        if (whole) {
          const at = { x: Math.round(first.x0 / concat), y: Math.round(first.y0 / concat) };
          pieces.push({ ...at, w: imageW, h: imageH, srcX: 0, srcY: 0, record });
          continue;
        }
        // Subtile edges in whole pixels, rounded alike at both ends so neighbours meet without a gap
        // when an image side is not a multiple of the subtiles per side (a 500-pixel image at ×8).
        for (const { xi, yi, x0, y0 } of subs) {
          const srcX = Math.round(xi * tw);
          const srcY = Math.round(yi * th);
          pieces.push({
            x: Math.round(x0 / concat),
            y: Math.round(y0 / concat),
            w: Math.round((xi + 1) * tw) - srcX,
            h: Math.round((yi + 1) * th) - srcY,
            srcX,
            srcY,
            record,
          });
        }
      }
      const cell = pieces.reduce((c, p) => Math.max(c, p.w, p.h), 64);
      levels.push({
        width: Math.floor(baseW / concat),
        height: Math.floor(baseH / concat),
        downsample: concat / concat0,
        stored: true,
        pieces,
        grid: indexPieces(pieces, cell),
        cell,
      });
    }

    const extra = new Map<AssociatedName, Omit<MrxsRecord, 'image'>>();
    for (const [name, value] of ASSOCIATED) {
      const slot = nonhierSlot(ini, 'Scan data layer', value);
      if (slot !== -1) extra.set(name, await index.nonhierRecord(slot));
    }
    const properties: Record<string, string> = {};
    const mag = ini.get(G)?.get('OBJECTIVE_MAGNIFICATION');
    if (mag) properties['objectivePower'] = mag;
    const version = ini.get(G)?.get('SLIDE_VERSION');
    if (version) properties['slideVersion'] = version;
    const bgr = s0.fillBgr;
    await indexFile.close();
    return new MrxsSlide(
      data,
      levels,
      s0.mppX > 0 && s0.mppY > 0 ? { x: s0.mppX, y: s0.mppY } : undefined,
      properties,
      extra,
      [bgr & 0xff, (bgr >> 8) & 0xff, (bgr >> 16) & 0xff],
    );
  } catch (e) {
    await indexFile.close();
    await Promise.all(data.map((f) => f.close()));
    throw e;
  }
}

export const mrxsReader: SlideFormatReader = {
  format: 'mrxs',
  capabilities: {
    levels: "Slidedat's zoom levels (IMAGE_CONCAT_FACTOR)",
    pixels: 'RGB brightfield; JPEG, PNG camera images',
    associated: 'ScanDataLayer_SlideBarcode → label, _SlideThumbnail → macro, _SlidePreview → thumbnail',
    scenes:
      'one image: every scanned area lies in one plane of the zoom levels (HIER_0); the other HIER layers (filter = fluorescence channels, focus = Z) are not read',
    unsupported:
      'BMP24 camera images (sharp cannot decode BMP); fluorescence MRXS (multiple HIER layers); the StitchingIntensityLayer path is untested (no fixture)',
  },
  async detect(files) {
    return files.some((f) => f.toLowerCase().endsWith('.mrxs'));
  },
  open: openMrxs,
};
