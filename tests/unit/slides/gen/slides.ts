// Test slide generators: CZI files the shared fixtures lack (JPEG, zstd, pixel types, mosaic with negative
// coordinates and pyramid, label attachment, big mosaic). Files go to a temp dir, never into the repo.
// Quirks: zstd frames are written with raw (stored) blocks, which every zstd decoder must accept, because
// npm has no zstd encoder we may install; there is no JPEG-XR encoder either (see the CZI tests).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bwipjs from 'bwip-js/node';
import sharp from 'sharp';
import { cziXml, writeCzi, type SubblockSpec } from './czi-writer';

export const PT = { Gray8: 0, Gray16: 1, Bgr24: 3, Bgr48: 4, Bgra32: 9 } as const;
export const COMP = { None: 0, Jpeg: 1, JpegXr: 4, Zstd0: 5, Zstd1: 6 } as const;

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'tessera-slides-'));
}

/** BGR bytes of a solid w×h image of colour rgb. */
export function solidBgr(w: number, h: number, [r, g, b]: [number, number, number]): Uint8Array {
  const out = new Uint8Array(w * h * 3);
  for (let i = 0; i < out.length; i += 3) {
    out[i] = b;
    out[i + 1] = g;
    out[i + 2] = r;
  }
  return out;
}

/** A zstd frame holding `data` in raw blocks (valid zstd, no compression). */
export function zstdStored(data: Uint8Array): Uint8Array {
  const MAX = 128 * 1024;
  const blocks = Math.max(1, Math.ceil(data.length / MAX));
  const out = new Uint8Array(4 + 1 + 8 + blocks * 3 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0xfd2fb528, true);
  out[4] = 0xe0; // 8-byte content size, single segment, no checksum, no dictionary
  v.setBigUint64(5, BigInt(data.length), true);
  let o = 13;
  for (let b = 0; b < blocks; b++) {
    const part = data.subarray(b * MAX, (b + 1) * MAX);
    const header = (part.length << 3) | (0 << 1) | (b === blocks - 1 ? 1 : 0); // type 0 = raw
    out[o] = header & 0xff;
    out[o + 1] = (header >> 8) & 0xff;
    out[o + 2] = (header >> 16) & 0xff;
    out.set(part, o + 3);
    o += 3 + part.length;
  }
  return out;
}

/** Little-endian bytes of a 16-bit ramp: value at (x, y) = (x + y * w) * 7 mod 65536. */
export function ramp16(w: number, h: number): { values: Uint16Array; bytes: Uint8Array } {
  const values = new Uint16Array(w * h);
  for (let i = 0; i < values.length; i++) values[i] = (i * 7) & 0xffff;
  return { values, bytes: new Uint8Array(values.buffer) };
}

/** zstd1 payload: header [3, chunk 1 = hi/lo flag] + zstd of all low bytes then all high bytes. */
export function zstd1HiLo(bytes16: Uint8Array): Uint8Array {
  const n = bytes16.length / 2;
  const packed = new Uint8Array(bytes16.length);
  for (let i = 0; i < n; i++) {
    packed[i] = bytes16[2 * i];
    packed[n + i] = bytes16[2 * i + 1];
  }
  const z = zstdStored(packed);
  const out = new Uint8Array(3 + z.length);
  out.set([3, 1, 1]);
  out.set(z, 3);
  return out;
}

/** JPEG bytes of an RGB image given as raw RGB. */
export async function jpeg(rgb: Uint8Array, w: number, h: number, quality = 92): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp(rgb, { raw: { width: w, height: h, channels: 3 } })
      .jpeg({ quality })
      .toBuffer(),
  );
}

/** RGB of a smooth test pattern: red grows along x, green along y, blue constant 128. */
export function pattern(w: number, h: number, x0 = 0, y0 = 0, scale = 1024): Uint8Array {
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 3;
      out[o] = Math.floor((((x0 + x) % scale) * 255) / scale);
      out[o + 1] = Math.floor((((y0 + y) % scale) * 255) / scale);
      out[o + 2] = 128;
    }
  return out;
}

/** 2×2 mosaic of 256² JPEG tiles (Bgr24 pixel type, compression 1), 512×512 in all, 0.5 µm/px. */
export async function jpegMosaicCzi(dir: string): Promise<string> {
  const subblocks: SubblockSpec[] = [];
  for (let ty = 0; ty < 2; ty++)
    for (let tx = 0; tx < 2; tx++) {
      const data = await jpeg(pattern(256, 256, tx * 256, ty * 256, 512), 256, 256);
      subblocks.push({
        x: 1000 + tx * 256,
        y: 2000 + ty * 256,
        w: 256,
        h: 256,
        m: ty * 2 + tx,
        pixelType: PT.Bgr24,
        compression: COMP.Jpeg,
        data,
      });
    }
  const path = join(dir, 'jpeg-mosaic.czi');
  writeFileSync(path, writeCzi(subblocks, cziXml({ pixelUm: 0.5 })));
  return path;
}

/**
 * Mosaic with negative coordinates: red tile at (-300,-200) M=0, blue tile at (-100,-100) M=1 overlapping
 * it, and a green ×2 pyramid subblock over both. Level 0 is 456×356; level 1 must come from the pyramid.
 */
export function negativeMosaicCzi(dir: string): string {
  const subblocks: SubblockSpec[] = [
    {
      x: -300,
      y: -200,
      w: 256,
      h: 256,
      m: 0,
      pixelType: PT.Bgr24,
      compression: COMP.None,
      data: solidBgr(256, 256, [255, 0, 0]),
    },
    {
      x: -100,
      y: -100,
      w: 256,
      h: 256,
      m: 1,
      pixelType: PT.Bgr24,
      compression: COMP.None,
      data: solidBgr(256, 256, [0, 0, 255]),
    },
    {
      x: -300,
      y: -200,
      w: 456,
      h: 356,
      storedW: 228,
      storedH: 178,
      pixelType: PT.Bgr24,
      compression: COMP.None,
      data: solidBgr(228, 178, [0, 255, 0]),
    },
  ];
  const path = join(dir, 'negative-mosaic.czi');
  writeFileSync(path, writeCzi(subblocks, cziXml()));
  return path;
}

/** One 64×32 subblock per pixel type / compression pair, fluorescence channel named 'Ramp'. */
export function pixelTypeCzi(
  dir: string,
  name: string,
  pixelType: number,
  compression: number,
  data: Uint8Array,
  w = 64,
  h = 32,
): string {
  const path = join(dir, name);
  const xml = cziXml({ pixelUm: 0.25, channels: [{ name: 'Ramp', color: '#FFFF8000' }] });
  writeFileSync(path, writeCzi([{ x: 0, y: 0, w, h, pixelType, compression, data }], xml));
  return path;
}

/** A label picture holding `text` as a DataMatrix, raw RGB. */
export async function labelPicture(
  text: string,
): Promise<{ rgb: Uint8Array; width: number; height: number }> {
  const png = await bwipjs.toBuffer({
    bcid: 'datamatrix',
    text,
    scale: 6,
    paddingwidth: 10,
    paddingheight: 10,
    backgroundcolor: 'FFFFFF',
  });
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { rgb: new Uint8Array(data), width: info.width, height: info.height };
}

function rgbToBgr(rgb: Uint8Array): Uint8Array {
  const out = rgb.slice();
  for (let i = 0; i < out.length; i += 3) {
    out[i] = rgb[i + 2];
    out[i + 2] = rgb[i];
  }
  return out;
}

/**
 * Two-channel Gray16 slide with attachments: Label (nested CZI of a DataMatrix of `text`), SlidePreview
 * (nested CZI, solid orange 120×40) and Thumbnail (JPEG 32×16).
 */
export async function labelledCzi(dir: string, text: string): Promise<string> {
  const label = await labelPicture(text);
  const labelCzi = writeCzi(
    [
      {
        x: 0,
        y: 0,
        w: label.width,
        h: label.height,
        pixelType: PT.Bgr24,
        compression: COMP.None,
        data: rgbToBgr(label.rgb),
      },
    ],
    cziXml(),
  );
  const preview = writeCzi(
    [
      {
        x: 0,
        y: 0,
        w: 120,
        h: 40,
        pixelType: PT.Bgr24,
        compression: COMP.None,
        data: solidBgr(120, 40, [255, 128, 0]),
      },
    ],
    cziXml(),
  );
  const thumb = await jpeg(pattern(32, 16), 32, 16);
  const { bytes } = ramp16(64, 64);
  const xml = cziXml({
    pixelUm: 0.65,
    channels: [
      { name: 'DAPI', color: '#FF0000FF' },
      { name: 'FITC', color: '#FF00FF00' },
    ],
  });
  const path = join(dir, 'labelled.czi');
  writeFileSync(
    path,
    writeCzi(
      [
        { x: 0, y: 0, w: 64, h: 64, c: 0, pixelType: PT.Gray16, compression: COMP.None, data: bytes },
        {
          x: 0,
          y: 0,
          w: 64,
          h: 64,
          c: 1,
          pixelType: PT.Gray16,
          compression: COMP.Zstd0,
          data: zstdStored(bytes),
        },
      ],
      xml,
      [
        { name: 'Label', type: 'CZI', data: labelCzi },
        { name: 'SlidePreview', type: 'CZI', data: preview },
        { name: 'Thumbnail', type: 'JPG', data: thumb },
      ],
    ),
  );
  return path;
}

/**
 * A big brightfield mosaic of JPEG tiles (`tile`² each) covering width×height, written tile by tile so
 * memory stays one tile; tiles show `pattern` so any pixel's expected colour is known (±JPEG error).
 */
export async function bigMosaicCzi(dir: string, width: number, height: number, tile = 512): Promise<string> {
  const subblocks: SubblockSpec[] = [];
  let m = 0;
  for (let y = 0; y < height; y += tile)
    for (let x = 0; x < width; x += tile) {
      const w = Math.min(tile, width - x);
      const h = Math.min(tile, height - y);
      subblocks.push({
        x,
        y,
        w,
        h,
        m: m++,
        pixelType: PT.Bgr24,
        compression: COMP.Jpeg,
        data: await jpeg(pattern(w, h, x, y), w, h, 85),
      });
    }
  const path = join(dir, `big-${width}x${height}.czi`);
  writeFileSync(path, writeCzi(subblocks, cziXml({ pixelUm: 0.25 })));
  return path;
}

/**
 * A decompression bomb: a file of a few KiB whose level 0 is `width` × `height` (two 16×16 tiles in
 * opposite corners), which a tiler would fill tile by tile.
 */
export function farCornersCzi(dir: string, width: number, height: number): string {
  const tile = (x: number, y: number): SubblockSpec => ({
    x,
    y,
    w: 16,
    h: 16,
    pixelType: PT.Bgr24,
    compression: COMP.None,
    data: solidBgr(16, 16, [200, 100, 50]),
  });
  const path = join(dir, `far-corners-${width}x${height}.czi`);
  writeFileSync(path, writeCzi([tile(0, 0), tile(width - 16, height - 16)], cziXml()));
  return path;
}

/** Top-left corners of the 512² subblocks covering `width` × `height` (multiples of 512), row by row. */
function* corners512(width: number, height: number): Generator<[number, number]> {
  for (let y = 0; y < height; y += 512) for (let x = 0; x < width; x += 512) yield [x, y];
}

/** Where a 512² subblock at (x, y) lies, with its M index `m`. */
const at512 = (x: number, y: number, m: number) => ({ x, y, w: 512, h: 512, m });

/**
 * A `width` × `height` CZI mosaic of 512² JPEG subblocks (multiples of 512) with no pyramid of its own,
 * unique pixels everywhere: its small levels exist only as the reader's box shrink of full resolution.
 */
export async function mosaicCzi(dir: string, width: number, height: number): Promise<string> {
  const subblocks: SubblockSpec[] = [];
  for (const [x, y] of corners512(width, height))
    subblocks.push({
      ...at512(x, y, subblocks.length),
      pixelType: PT.Bgr24,
      compression: COMP.Jpeg,
      data: await jpeg(pattern(512, 512, x, y, 3000), 512, 512),
    });
  const path = join(dir, `mosaic-${width}x${height}.czi`);
  writeFileSync(path, writeCzi(subblocks, cziXml({ pixelUm: 0.5 })));
  return path;
}

/**
 * A `width` × `height` two-channel 16-bit fluorescence CZI (multiples of 512), uncompressed 512²
 * subblocks of smooth, different ramps per channel: a fluorescence slide with no pyramid of its own.
 */
export function fluorescenceMosaicCzi(dir: string, width: number, height: number): string {
  const subblocks: SubblockSpec[] = [];
  for (let c = 0; c < 2; c++)
    for (const [x0, y0] of corners512(width, height)) {
      const values = new Uint16Array(512 * 512);
      for (let y = 0; y < 512; y++)
        for (let x = 0; x < 512; x++) {
          const gx = x0 + x;
          const gy = y0 + y;
          values[y * 512 + x] = c === 0 ? (gx * 7 + gy * 3) % 60000 : 2000 + ((gx * gy) % 9000);
        }
      subblocks.push({
        ...at512(x0, y0, subblocks.length),
        c,
        pixelType: PT.Gray16,
        compression: COMP.None,
        data: new Uint8Array(values.buffer),
      });
    }
  const path = join(dir, `fluorescence-${width}x${height}.czi`);
  const channels = [
    { name: 'DAPI', color: '#FF0000FF' },
    { name: 'GFP', color: '#FF00FF00' },
  ];
  writeFileSync(path, writeCzi(subblocks, cziXml({ pixelUm: 0.5, channels })));
  return path;
}
