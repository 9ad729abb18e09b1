// Streaming writers for big bench slides, so a 40,000 × 30,000 slide never sits in memory: a CZI of
// JPEG mosaic subblocks (same layout as tests/unit/slides/gen/czi-writer.ts, written segment by
// segment), and classic tiled TIFFs (plain JPEG TIFF for sharp; PerkinElmer-QPI pages for QPTIFF).
import fs from 'node:fs';
import { cziXml } from '../../tests/unit/slides/gen/czi-writer';

const pad32 = (n: number) => Math.ceil(n / 32) * 32;

/** Writes `data` at the end of the file and returns where it starts. */
class AppendFile {
  readonly fd: number;
  size = 0;
  constructor(path: string) {
    this.fd = fs.openSync(path, 'w');
  }
  append(data: Uint8Array): number {
    const at = this.size;
    fs.writeSync(this.fd, data, 0, data.length, at);
    this.size += data.length;
    return at;
  }
  writeAt(at: number, data: Uint8Array): void {
    fs.writeSync(this.fd, data, 0, data.length, at);
  }
  close(): void {
    fs.closeSync(this.fd);
  }
}

export class CziStreamWriter {
  private readonly out: AppendFile;
  private readonly entries: Uint8Array[] = [];
  private m = 0;

  constructor(path: string) {
    this.out = new AppendFile(path);
    this.segment('ZISRAWFILE', new Uint8Array(512 - 32)); // the header, patched by close()
  }

  private segment(id: string, data: Uint8Array): number {
    const alloc = pad32(data.length);
    const head = new Uint8Array(32);
    const v = new DataView(head.buffer);
    for (let i = 0; i < id.length; i++) head[i] = id.charCodeAt(i);
    v.setBigInt64(16, BigInt(alloc), true);
    v.setBigInt64(24, BigInt(data.length), true);
    const at = this.out.append(head);
    this.out.append(data);
    if (alloc > data.length) this.out.append(new Uint8Array(alloc - data.length));
    return at;
  }

  /** One Bgr24 JPEG mosaic tile at (x, y), w×h, drawn in the order added. */
  addJpegTile(x: number, y: number, w: number, h: number, jpeg: Uint8Array): void {
    const at = this.out.size;
    const dims: Array<[string, number, number, number]> = [
      ['X', x, w, w],
      ['Y', y, h, h],
      ['C', 0, 1, 1],
      ['M', this.m++, 1, 1],
    ];
    const e = new Uint8Array(32 + dims.length * 20);
    const ev = new DataView(e.buffer);
    e[0] = 0x44; // 'D'
    e[1] = 0x56; // 'V'
    ev.setInt32(2, 3, true); // Bgr24
    ev.setBigInt64(6, BigInt(at), true);
    ev.setInt32(18, 1, true); // JPEG
    ev.setInt32(28, dims.length, true);
    dims.forEach(([name, start, size, stored], i) => {
      const o = 32 + i * 20;
      e[o] = name.charCodeAt(0);
      ev.setInt32(o + 4, start, true);
      ev.setInt32(o + 8, size, true);
      ev.setFloat32(o + 12, start, true);
      ev.setInt32(o + 16, stored, true);
    });
    const head = Math.max(256, 16 + e.length);
    const data = new Uint8Array(head + jpeg.length);
    new DataView(data.buffer).setBigInt64(8, BigInt(jpeg.length), true);
    data.set(e, 16);
    data.set(jpeg, head);
    this.segment('ZISRAWSUBBLOCK', data);
    this.entries.push(e);
  }

  close(pixelUm = 0.25): void {
    const dirData = new Uint8Array(128 + this.entries.reduce((n, e) => n + e.length, 0));
    new DataView(dirData.buffer).setInt32(0, this.entries.length, true);
    let o = 128;
    for (const e of this.entries) {
      dirData.set(e, o);
      o += e.length;
    }
    const dirPos = this.segment('ZISRAWDIRECTORY', dirData);
    const xml = new TextEncoder().encode(cziXml({ pixelUm }));
    const meta = new Uint8Array(256 + xml.length);
    new DataView(meta.buffer).setInt32(0, xml.length, true);
    meta.set(xml, 256);
    const metaPos = this.segment('ZISRAWMETADATA', meta);
    const header = new Uint8Array(480);
    const hv = new DataView(header.buffer);
    hv.setInt32(0, 1, true); // major version
    hv.setBigInt64(52, BigInt(dirPos), true);
    hv.setBigInt64(60, BigInt(metaPos), true);
    this.out.writeAt(32, header);
    this.out.close();
  }
}

export interface TiffPage {
  width: number;
  height: number;
  tileSize: number;
  /** 'jpeg': each tile a whole JPEG (YCbCr 4:2:0, as sharp writes it); 'deflate': RGB, zlib. */
  compression: 'jpeg' | 'deflate';
  description?: string;
  /** µm per pixel, written as pixels per centimetre. */
  pixelUm?: number;
  /** A reduced-resolution page (NewSubfileType 1). */
  reduced?: boolean;
}

type Entry = [tag: number, type: number, values: number[] | string];
const SHORT = 3;
const LONG = 4;
const RATIONAL = 5;
const ASCII = 2;

/** A classic (32-bit offsets) little-endian TIFF written page by page, tile by tile in row-major order. */
export class TiffStreamWriter {
  private readonly out: AppendFile;
  /** Where the previous IFD's "next IFD" offset lives (the header's first for page 1). */
  private nextPointer = 4;
  private page: TiffPage | undefined;
  private offsets: number[] = [];
  private counts: number[] = [];

  constructor(path: string) {
    this.out = new AppendFile(path);
    this.out.append(new Uint8Array([0x49, 0x49, 42, 0, 0, 0, 0, 0]));
  }

  beginPage(page: TiffPage): void {
    this.page = page;
    this.offsets = [];
    this.counts = [];
  }

  addTile(bytes: Uint8Array): void {
    this.offsets.push(this.out.append(bytes));
    this.counts.push(bytes.length);
    if (this.out.size > 0xffffffff) throw new Error('TIFF over 4 GiB: use a smaller slide');
  }

  endPage(): void {
    const p = this.page!;
    const entries: Entry[] = [
      [254, LONG, [p.reduced ? 1 : 0]],
      [256, LONG, [p.width]],
      [257, LONG, [p.height]],
      [258, SHORT, [8, 8, 8]],
      [259, SHORT, [p.compression === 'jpeg' ? 7 : 8]],
      [262, SHORT, [p.compression === 'jpeg' ? 6 : 2]],
      [277, SHORT, [3]],
      [284, SHORT, [1]],
      [322, LONG, [p.tileSize]],
      [323, LONG, [p.tileSize]],
      [324, LONG, this.offsets],
      [325, LONG, this.counts],
    ];
    if (p.description) entries.push([270, ASCII, p.description]);
    if (p.pixelUm) {
      const perCm = Math.round(1e4 / p.pixelUm);
      entries.push([282, RATIONAL, [perCm, 1]], [283, RATIONAL, [perCm, 1]], [296, SHORT, [3]]);
    }
    if (p.compression === 'jpeg') entries.push([530, SHORT, [2, 2]]);
    entries.sort((a, b) => a[0] - b[0]);
    const at = this.writeIfd(entries);
    const ptr = new Uint8Array(4);
    new DataView(ptr.buffer).setUint32(0, at, true);
    this.out.writeAt(this.nextPointer, ptr);
    this.nextPointer = at + 2 + entries.length * 12;
  }

  /** Writes out-of-line values first, then the IFD (word aligned); returns the IFD's offset. */
  private writeIfd(entries: Entry[]): number {
    const encoded = entries.map(([tag, type, values]) => {
      const bytes =
        typeof values === 'string'
          ? new TextEncoder().encode(`${values}\0`)
          : type === SHORT
            ? new Uint8Array(Uint16Array.from(values).buffer)
            : new Uint8Array(Uint32Array.from(values).buffer);
      const count =
        typeof values === 'string' ? bytes.length : type === RATIONAL ? values.length / 2 : values.length;
      return { tag, type, count, bytes };
    });
    const inline: Array<number | Uint8Array> = encoded.map((e) => {
      if (e.bytes.length <= 4) return e.bytes;
      if (this.out.size % 2) this.out.append(new Uint8Array(1));
      return this.out.append(e.bytes);
    });
    if (this.out.size % 2) this.out.append(new Uint8Array(1));
    const ifd = new Uint8Array(2 + entries.length * 12 + 4);
    const v = new DataView(ifd.buffer);
    v.setUint16(0, entries.length, true);
    encoded.forEach((e, i) => {
      const o = 2 + i * 12;
      v.setUint16(o, e.tag, true);
      v.setUint16(o + 2, e.type, true);
      v.setUint32(o + 4, e.count, true);
      const value = inline[i];
      if (typeof value === 'number') v.setUint32(o + 8, value, true);
      else ifd.set(value, o + 8);
    });
    return this.out.append(ifd);
  }

  close(): void {
    this.out.close();
  }
}

/** The PerkinElmer-QPI description of a brightfield page (as in ../shared/fixtures/qptiff). */
export function qpiDescription(imageType: 'FullResolution' | 'ReducedResolution' | 'Thumbnail'): string {
  return [
    '<?xml version="1.0" encoding="utf-16"?>',
    '<PerkinElmer-QPI-ImageDescription>',
    '  <DescriptionVersion>2</DescriptionVersion>',
    '  <AcquisitionSoftware>tessera-bench</AcquisitionSoftware>',
    `  <ImageType>${imageType}</ImageType>`,
    '  <Name>Brightfield</Name>',
    '  <Color>255,255,255</Color>',
    '  <Objective>40x</Objective>',
    '</PerkinElmer-QPI-ImageDescription>',
  ].join('\n');
}
