// MIRAX (3DHistech .mrxs) writer for tests and benches: `name.mrxs` plus the folder `name/` holding
// Slidedat.ini, Index.dat and Data0000.dat… with one JPEG per camera image, streamed image by image so
// a 40,000 × 30,000 slide never sits in memory.
// Layout written (what src/server/slides/mrxs.ts reads): one camera image per photo
// (CameraImageDivisionsPerSide 1), no overlap, level 0 IMAGE_CONCAT_FACTOR 0 and each further level
// halving once (factor 1), so a level-i image covers 2^i × 2^i level-0 images and is addressed by its
// top-left level-0 image index; photo positions in a VIMSLIDE_POSITION_BUFFER (the regular grid).
// Index.dat: one page list per level, pages of at most PAGE_RECORDS records (so lists have several pages).
import fs from 'node:fs';
import path from 'node:path';

export interface MrxsLayout {
  /** Level-0 camera images across and down. */
  imagesX: number;
  imagesY: number;
  /** Pixels of every camera image, at every level. */
  imageW: number;
  imageH: number;
  /** Zoom levels: level i is level 0 halved i times. */
  levels: number;
  /** Level-0 µm per pixel. */
  pixelUm?: number;
  /** What the reader paints where no image lies (IMAGE_FILL_COLOR_BGR); white by default. */
  fillRgb?: [number, number, number];
}

interface ImageRecord {
  image: number;
  offset: number;
  length: number;
  fileNo: number;
}

const SLIDE_ID = '7e55e7a0be1c4a5e9b1d0c0ffee0d00d';
const PAGE_RECORDS = 1000;
/** A data file stays below this size: the index stores int32 offsets. */
const DATA_LIMIT = 1 << 30;

/** Images across and down at level `level` of `layout` (each level-i image spans 2^i level-0 images). */
export function mrxsGrid(layout: MrxsLayout, level: number): { cols: number; rows: number } {
  const f = 2 ** level;
  return { cols: Math.ceil(layout.imagesX / f), rows: Math.ceil(layout.imagesY / f) };
}

export class MrxsStreamWriter {
  readonly folder: string;
  private readonly records: ImageRecord[][];
  private readonly dataNames: string[] = [];
  private fd = -1;
  private size = 0;
  private preview: Uint8Array | undefined;

  /** @param mrxsPath the `.mrxs` file; its data folder is made beside it, named without the extension. */
  constructor(
    readonly mrxsPath: string,
    readonly layout: MrxsLayout,
    private readonly dataLimit = DATA_LIMIT,
  ) {
    this.folder = mrxsPath.replace(/\.mrxs$/i, '');
    fs.rmSync(this.folder, { recursive: true, force: true });
    fs.mkdirSync(this.folder, { recursive: true });
    this.records = Array.from({ length: layout.levels }, () => []);
    this.nextDataFile();
  }

  private nextDataFile(): void {
    if (this.fd !== -1) fs.closeSync(this.fd);
    const name = `Data${String(this.dataNames.length).padStart(4, '0')}.dat`;
    this.dataNames.push(name);
    this.fd = fs.openSync(path.join(this.folder, name), 'w');
    this.size = 0;
  }

  private append(bytes: Uint8Array): Omit<ImageRecord, 'image'> {
    if (this.size > 0 && this.size + bytes.length > this.dataLimit) this.nextDataFile();
    fs.writeSync(this.fd, bytes, 0, bytes.length, this.size);
    const at = this.size;
    this.size += bytes.length;
    return { offset: at, length: bytes.length, fileNo: this.dataNames.length - 1 };
  }

  /** The JPEG of image (col, row) of `level`'s grid (see mrxsGrid), in any order. */
  addImage(level: number, col: number, row: number, jpeg: Uint8Array): void {
    const f = 2 ** level;
    const image = row * f * this.layout.imagesX + col * f;
    this.records[level].push({ image, ...this.append(jpeg) });
    if (level === this.layout.levels - 1) this.preview = jpeg;
  }

  close(): void {
    const { imagesX, imagesY, imageW, imageH } = this.layout;
    // The position buffer: per photo a flag byte and its level-0 x, y (int32 LE).
    const photos = imagesX * imagesY;
    const pos = new Uint8Array(photos * 9);
    const pv = new DataView(pos.buffer);
    for (let i = 0; i < photos; i++) {
      pos[i * 9] = 1;
      pv.setInt32(i * 9 + 1, (i % imagesX) * imageW, true);
      pv.setInt32(i * 9 + 5, Math.floor(i / imagesX) * imageH, true);
    }
    const positions = this.append(pos);
    fs.closeSync(this.fd);
    fs.writeFileSync(path.join(this.folder, 'Index.dat'), this.index(positions));
    fs.writeFileSync(path.join(this.folder, 'Slidedat.ini'), this.slidedat());
    // Scanners write a preview JPEG as the .mrxs; the reader only needs the file to exist.
    fs.writeFileSync(this.mrxsPath, this.preview ?? new Uint8Array(0));
  }

  private index(positions: Omit<ImageRecord, 'image'>): Uint8Array {
    const head = `01.02${SLIDE_ID}`;
    const words: number[] = [];
    const at = () => head.length + words.length * 4;
    words.push(0, 0); // hierarchical and non-hierarchical table positions, patched below
    words[0] = at();
    const hierTable = words.length;
    for (let i = 0; i < this.layout.levels; i++) words.push(0);
    words[1] = at();
    const nonhierTable = words.length;
    words.push(0);
    this.records.forEach((records, level) => {
      words[hierTable + level] = at();
      words.push(0, 0); // list head: 0, first page
      let link = words.length - 1;
      for (let start = 0; start === 0 || start < records.length; start += PAGE_RECORDS) {
        words[link] = at();
        const page = records.slice(start, start + PAGE_RECORDS);
        words.push(page.length, 0);
        link = words.length - 1;
        for (const r of page) words.push(r.image, r.offset, r.length, r.fileNo);
      }
    });
    words[nonhierTable] = at();
    words.push(0, at() + 8);
    words.push(1, 0, 0, 0, positions.offset, positions.length, positions.fileNo);
    const out = new Uint8Array(head.length + words.length * 4);
    for (let i = 0; i < head.length; i++) out[i] = head.charCodeAt(i);
    const v = new DataView(out.buffer);
    words.forEach((w, i) => v.setInt32(head.length + i * 4, w, true));
    return out;
  }

  private slidedat(): string {
    const {
      imagesX,
      imagesY,
      imageW,
      imageH,
      levels,
      pixelUm = 0.25,
      fillRgb = [255, 255, 255],
    } = this.layout;
    const fillBgr = (fillRgb[2] << 16) | (fillRgb[1] << 8) | fillRgb[0];
    const lines = [
      '[GENERAL]',
      'SLIDE_VERSION = 01.03',
      `SLIDE_ID = ${SLIDE_ID}`,
      `IMAGENUMBER_X = ${imagesX}`,
      `IMAGENUMBER_Y = ${imagesY}`,
      'OBJECTIVE_MAGNIFICATION = 40',
      'CameraImageDivisionsPerSide = 1',
      '[HIERARCHICAL]',
      'INDEXFILE = Index.dat',
      'HIER_COUNT = 1',
      'NONHIER_COUNT = 1',
      'HIER_0_NAME = Slide zoom level',
      `HIER_0_COUNT = ${levels}`,
    ];
    for (let i = 0; i < levels; i++)
      lines.push(`HIER_0_VAL_${i} = ZoomLevel_${i}`, `HIER_0_VAL_${i}_SECTION = LAYER_0_LEVEL_${i}_SECTION`);
    lines.push(
      'NONHIER_0_NAME = VIMSLIDE_POSITION_BUFFER',
      'NONHIER_0_COUNT = 1',
      'NONHIER_0_VAL_0 = default',
      'NONHIER_0_VAL_0_SECTION = NONHIERLAYER_0_LEVEL_0_SECTION',
      '[DATAFILE]',
      `FILE_COUNT = ${this.dataNames.length}`,
      ...this.dataNames.map((n, i) => `FILE_${i} = ${n}`),
    );
    for (let i = 0; i < levels; i++)
      lines.push(
        `[LAYER_0_LEVEL_${i}_SECTION]`,
        'OVERLAP_X = 0',
        'OVERLAP_Y = 0',
        `MICROMETER_PER_PIXEL_X = ${pixelUm * 2 ** i}`,
        `MICROMETER_PER_PIXEL_Y = ${pixelUm * 2 ** i}`,
        `IMAGE_FILL_COLOR_BGR = ${fillBgr}`,
        `DIGITIZER_WIDTH = ${imageW}`,
        `DIGITIZER_HEIGHT = ${imageH}`,
        `IMAGE_CONCAT_FACTOR = ${i === 0 ? 0 : 1}`,
        'IMAGE_FORMAT = JPEG',
      );
    lines.push('[NONHIERLAYER_0_LEVEL_0_SECTION]', '');
    return lines.join('\r\n');
  }
}
