// A minimal QPTIFF writer for the layouts the shared fixtures lack: horizontal predictor (8-bit RGB and
// 16-bit grey), no compression, strips whose last one is short, tiles padded at the edges.
// Classic little-endian TIFF, chunky samples, one PerkinElmer-QPI description per page.

import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

export interface QpPage {
  width: number;
  height: number;
  samples: 1 | 3;
  bits: 8 | 16;
  /** Square tiles of this size, or strips of this many rows. */
  layout: { tile: number } | { rows: number };
  compression: 1 | 8;
  predictor: 1 | 2;
  imageType: 'FullResolution' | 'ReducedResolution' | 'Thumbnail';
  /** Sample s of pixel (x, y); taken modulo 2^bits. */
  value: (x: number, y: number, s: number) => number;
}

const SHORT = 3;
const LONG = 4;
const ASCII = 2;
type Entry = [tag: number, type: number, values: number[] | string];

function description(imageType: string, samples: number): string {
  return [
    '<?xml version="1.0" encoding="utf-16"?>',
    '<PerkinElmer-QPI-ImageDescription>',
    `  <ImageType>${imageType}</ImageType>`,
    `  <Name>${samples === 3 ? 'Brightfield' : 'DAPI'}</Name>`,
    '  <Color>255,255,255</Color>',
    '</PerkinElmer-QPI-ImageDescription>',
  ].join('\n');
}

/** One block's bytes: w×h pixels from (x0, y0), zero past the page's edge, predictor and deflate applied. */
function block(p: QpPage, x0: number, y0: number, w: number, h: number): Uint8Array {
  const n = w * h * p.samples;
  const px = p.bits === 16 ? new Uint16Array(n) : new Uint8Array(n);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let s = 0; s < p.samples; s++)
        if (x0 + x < p.width && y0 + y < p.height)
          px[(y * w + x) * p.samples + s] = p.value(x0 + x, y0 + y, s);
  if (p.predictor === 2)
    for (let y = 0; y < h; y++)
      for (let i = (y + 1) * w * p.samples - 1; i >= y * w * p.samples + p.samples; i--)
        px[i] -= px[i - p.samples];
  const bytes = new Uint8Array(px.buffer);
  return p.compression === 8 ? deflateSync(bytes) : bytes;
}

export function writeQptiff(path: string, pages: QpPage[]): void {
  const parts: Uint8Array[] = [new Uint8Array([0x49, 0x49, 42, 0, 0, 0, 0, 0])];
  let size = 8;
  const append = (b: Uint8Array): number => {
    if (size % 2) {
      parts.push(new Uint8Array(1));
      size++;
    }
    parts.push(b);
    size += b.length;
    return size - b.length;
  };
  let nextPointer = 4;
  const pointers: Array<[at: number, value: number]> = [];
  for (const p of pages) {
    const offsets: number[] = [];
    const counts: number[] = [];
    const tiled = 'tile' in p.layout;
    const bw = 'tile' in p.layout ? p.layout.tile : p.width;
    const bh = 'tile' in p.layout ? p.layout.tile : p.layout.rows;
    for (let y = 0; y < p.height; y += bh)
      for (let x = 0; x < p.width; x += bw) {
        const b = block(p, x, y, bw, tiled ? bh : Math.min(bh, p.height - y));
        offsets.push(append(b));
        counts.push(b.length);
      }
    const entries: Entry[] = [
      [256, LONG, [p.width]],
      [257, LONG, [p.height]],
      [258, SHORT, Array(p.samples).fill(p.bits)],
      [259, SHORT, [p.compression]],
      [262, SHORT, [p.samples === 3 ? 2 : 1]],
      [270, ASCII, description(p.imageType, p.samples)],
      [277, SHORT, [p.samples]],
      [284, SHORT, [1]],
      [317, SHORT, [p.predictor]],
      ...((tiled
        ? [
            [322, LONG, [bw]],
            [323, LONG, [bh]],
            [324, LONG, offsets],
            [325, LONG, counts],
          ]
        : [
            [273, LONG, offsets],
            [278, LONG, [bh]],
            [279, LONG, counts],
          ]) as Entry[]),
    ];
    entries.sort((a, b) => a[0] - b[0]);
    const values = entries.map(([, type, v]) =>
      typeof v === 'string'
        ? new TextEncoder().encode(`${v}\0`)
        : type === SHORT
          ? new Uint8Array(Uint16Array.from(v).buffer)
          : new Uint8Array(Uint32Array.from(v).buffer),
    );
    const outOfLine = values.map((b) => (b.length > 4 ? append(b) : undefined));
    const ifd = new Uint8Array(2 + entries.length * 12 + 4);
    const v = new DataView(ifd.buffer);
    v.setUint16(0, entries.length, true);
    entries.forEach(([tagId, type, vals], i) => {
      const o = 2 + i * 12;
      v.setUint16(o, tagId, true);
      v.setUint16(o + 2, type, true);
      v.setUint32(o + 4, typeof vals === 'string' ? values[i].length : vals.length, true);
      const at = outOfLine[i];
      if (at !== undefined) v.setUint32(o + 8, at, true);
      else ifd.set(values[i], o + 8);
    });
    const at = append(ifd);
    pointers.push([nextPointer, at]);
    nextPointer = at + 2 + entries.length * 12;
  }
  const file = new Uint8Array(size);
  let o = 0;
  for (const b of parts) {
    file.set(b, o);
    o += b.length;
  }
  for (const [where, value] of pointers) new DataView(file.buffer).setUint32(where, value, true);
  writeFileSync(path, file);
}
