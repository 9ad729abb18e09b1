// The bench's MIRAX slide: level-0 camera images cut from the same TILE² pixel tiles the other formats
// are made of (so the pixels match theirs), and the halved levels sampled from the pixel function as
// the QPTIFF's reduced levels are. Camera images are square, the largest side between 128 and 512 that
// divides both slide sides (the reader's level-0 size is the image grid's, without overlap).
import { MrxsStreamWriter, mrxsGrid, type MrxsLayout } from '../../tests/unit/slides/gen/mrxs-writer';
import { tissueTile } from './synth';

type Encode = (px: Buffer, w: number, h: number) => Promise<Buffer>;

/** The camera image side for a width × height slide; throws when no side fits. */
export function mrxsImageSize(width: number, height: number): number {
  for (let s = 512; s >= 128; s--) if (width % s === 0 && height % s === 0) return s;
  throw new Error(`MRXS: ${width}×${height} has no common divisor between 128 and 512 for its camera images`);
}

export interface CameraImage {
  col: number;
  row: number;
  px: Buffer;
}

export class MrxsSlideMaker {
  readonly layout: MrxsLayout;
  private readonly writer: MrxsStreamWriter;
  /** The tiles of the tile rows images still need, by row then column. */
  private readonly band = new Map<number, Buffer[]>();

  constructor(
    file: string,
    readonly width: number,
    readonly height: number,
    private readonly tile: number,
    pixelUm: number,
  ) {
    const s = mrxsImageSize(width, height);
    const imagesX = width / s;
    const imagesY = height / s;
    const levels = 1 + Math.ceil(Math.log2(Math.max(imagesX, imagesY)));
    this.layout = { imagesX, imagesY, imageW: s, imageH: s, levels, pixelUm };
    this.writer = new MrxsStreamWriter(file, this.layout);
  }

  /**
   * Takes tile (c, r) of the row-major TILE² grid; returns the level-0 images it completes (with
   * images no wider than a tile, those whose bottom-right pixel lies in it).
   */
  add(c: number, r: number, px: Buffer): CameraImage[] {
    const { tile } = this;
    const s = this.layout.imageW;
    const row = this.band.get(r) ?? [];
    this.band.set(r, row);
    row[c] = px;
    const last = (i: number) => Math.floor(((i + 1) * s - 1) / tile);
    const out: CameraImage[] = [];
    for (let j = Math.floor((r * tile) / s); j < this.layout.imagesY && j * s < (r + 1) * tile; j++) {
      if (last(j) !== r) continue;
      for (let i = Math.floor((c * tile) / s); i < this.layout.imagesX && i * s < (c + 1) * tile; i++)
        if (last(i) === c) out.push({ col: i, row: j, px: this.cut(i * s, j * s, s) });
    }
    if ((c + 1) * tile >= this.width) for (const k of this.band.keys()) if (k < r) this.band.delete(k);
    return out;
  }

  /** The s×s square at (x, y) from the band's tiles. */
  private cut(x: number, y: number, s: number): Buffer {
    const { tile } = this;
    const out = Buffer.allocUnsafe(s * s * 3);
    for (let yy = 0; yy < s; yy++) {
      const Y = y + yy;
      const tiles = this.band.get(Math.floor(Y / tile))!;
      for (let X = x; X < x + s;) {
        const c = Math.floor(X / tile);
        const end = Math.min(x + s, (c + 1) * tile);
        const from = ((Y % tile) * tile + (X - c * tile)) * 3;
        tiles[c].copy(out, (yy * s + X - x) * 3, from, from + (end - X) * 3);
        X = end;
      }
    }
    return out;
  }

  addLevel0(img: CameraImage, jpeg: Uint8Array): void {
    this.writer.addImage(0, img.col, img.row, jpeg);
  }

  /** Writes the halved levels (every 2^level-th pixel of the pixel function) and closes the slide. */
  async finish(encode: Encode, slideSize: number, inFlight: number): Promise<void> {
    const s = this.layout.imageW;
    for (let level = 1; level < this.layout.levels; level++) {
      const f = 2 ** level;
      const { cols, rows } = mrxsGrid(this.layout, level);
      const queue: Array<Promise<{ col: number; row: number; jpg: Buffer }>> = [];
      const flush = async () => {
        const e = await queue.shift()!;
        this.writer.addImage(level, e.col, e.row, e.jpg);
      };
      for (let row = 0; row < rows; row++)
        for (let col = 0; col < cols; col++) {
          const px = tissueTile(col * s * f, row * s * f, s, s, slideSize, f);
          queue.push(encode(px, s, s).then((jpg) => ({ col, row, jpg })));
          if (queue.length >= inFlight) await flush();
        }
      while (queue.length) await flush();
    }
    this.writer.close();
  }
}
