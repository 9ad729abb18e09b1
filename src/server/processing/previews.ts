// The thumbnail (a fluorescence slide's channels composited in their colours) and the label picture.
import sharp from 'sharp';
import { bytesOf } from '../slides/raw';
import type { RawImage, Slide } from '../slides/types';
import { channelRange, to8bit, type ChannelRange, type OverviewLayer } from './tiler';

export const THUMBNAIL_MAX = 512;

export function bestLevelFor(slide: Slide, target: number): number {
  for (let i = slide.levels.length - 1; i >= 0; i--) {
    const l = slide.levels[i];
    if (Math.max(l.width, l.height) >= target) return i;
  }
  return 0;
}

const toSharp = (img: RawImage) =>
  sharp(bytesOf(img), { raw: { width: img.width, height: img.height, channels: img.channels } });

/**
 * A JPEG of the whole slide, at most THUMBNAIL_MAX on its long side, from the reader's smallest level
 * with a side of at least that (a fluorescence slide's channels composited in their colours).
 */
export async function thumbnailJpeg(slide: Slide, ranges?: ChannelRange[]): Promise<Buffer> {
  const li = bestLevelFor(slide, THUMBNAIL_MAX);
  const l = slide.levels[li];
  if (slide.kind === 'brightfield') {
    const img = await slide.readRegion(li, 0, 0, l.width, l.height);
    return thumbnailFrom([{ ...img, channels: 3, data: bytesOf(img) }], []);
  }
  const layers: OverviewLayer[] = [];
  for (let c = 0; c < slide.channels.length; c++) {
    const raw = await slide.readRegion(li, 0, 0, l.width, l.height, c);
    const range = ranges?.[c] ?? (await channelRange(slide, c));
    layers.push({ width: raw.width, height: raw.height, channels: 1, data: to8bit(raw, range) });
  }
  return thumbnailFrom(
    layers,
    slide.channels.map((c) => c.color),
  );
}

/**
 * The thumbnail JPEG from the whole slide at one small level (the tiler's `overview`, or a reader's
 * level): RGB shrunk to at most THUMBNAIL_MAX on its long side, or one 8-bit layer per fluorescence
 * channel, each shrunk and added in its colour (`colours`, one per layer), clipped to 255.
 */
export async function thumbnailFrom(
  layers: OverviewLayer[],
  colours: Array<[number, number, number]>,
): Promise<Buffer> {
  const { width, height } = layers[0];
  const scale = Math.min(1, THUMBNAIL_MAX / Math.max(width, height));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const raw = (l: OverviewLayer) =>
    sharp(l.data, { raw: { width: l.width, height: l.height, channels: l.channels } });
  if (layers.length === 1 && layers[0].channels === 3)
    return raw(layers[0]).resize(w, h, { fit: 'fill' }).jpeg({ quality: 85 }).toBuffer();
  const rgb = new Float32Array(w * h * 3);
  for (let c = 0; c < layers.length; c++) {
    const small = await raw(layers[c])
      .resize(w, h, { fit: 'fill' })
      .extractChannel(0) // sharp hands grey back as RGB otherwise
      .raw()
      .toBuffer();
    const [r, g, b] = colours[c];
    for (let i = 0; i < w * h; i++) {
      const v = small[i] / 255;
      rgb[i * 3] += v * r;
      rgb[i * 3 + 1] += v * g;
      rgb[i * 3 + 2] += v * b;
    }
  }
  const out = Buffer.alloc(w * h * 3);
  for (let i = 0; i < out.length; i++) out[i] = Math.min(255, rgb[i]);
  return sharp(out, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

export async function labelPng(slide: Slide): Promise<{ png: Buffer; raw: RawImage } | undefined> {
  if (!slide.associatedNames.includes('label')) return undefined;
  const raw = await slide.associated('label');
  if (!raw) return undefined;
  return { png: await toSharp(raw).png().toBuffer(), raw };
}

export const rgbHex = ([r, g, b]: [number, number, number]) =>
  `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
