// The thumbnail (a fluorescence slide's channels composited in their colours) and the label picture.
import sharp from 'sharp';
import type { RawImage, Slide } from '../slides/types';
import { channelRange, to8bit, type ChannelRange } from './tiler';

export const THUMBNAIL_MAX = 512;

export function bestLevelFor(slide: Slide, target: number): number {
  for (let i = slide.levels.length - 1; i >= 0; i--) {
    const l = slide.levels[i];
    if (Math.max(l.width, l.height) >= target) return i;
  }
  return 0;
}

const toSharp = (img: RawImage) =>
  sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength), {
    raw: { width: img.width, height: img.height, channels: img.channels },
  });

/** A JPEG of the whole slide, at most THUMBNAIL_MAX on its long side. */
export async function thumbnailJpeg(slide: Slide, ranges?: ChannelRange[]): Promise<Buffer> {
  const li = bestLevelFor(slide, THUMBNAIL_MAX);
  const l = slide.levels[li];
  const scale = Math.min(1, THUMBNAIL_MAX / Math.max(l.width, l.height));
  const w = Math.max(1, Math.round(l.width * scale));
  const h = Math.max(1, Math.round(l.height * scale));
  if (slide.kind === 'brightfield') {
    const img = await slide.readRegion(li, 0, 0, l.width, l.height);
    return toSharp(img).resize(w, h, { fit: 'fill' }).jpeg({ quality: 85 }).toBuffer();
  }
  // Additive composite: each channel mapped through its display range (from the data, as the viewer's
  // layers) to 0..255, shrunk, and added in its colour, clipped to 255. Mapping before shrinking keeps
  // sharp on 8-bit samples (a 16-bit Buffer would be read as twice as many 8-bit ones).
  const rgb = new Float32Array(w * h * 3);
  for (let c = 0; c < slide.channels.length; c++) {
    const raw = await slide.readRegion(li, 0, 0, l.width, l.height, c);
    const range = ranges?.[c] ?? (await channelRange(slide, c));
    const small = await sharp(to8bit(raw, range), {
      raw: { width: raw.width, height: raw.height, channels: 1 },
    })
      .resize(w, h, { fit: 'fill' })
      .extractChannel(0) // sharp hands grey back as RGB otherwise
      .raw()
      .toBuffer();
    const [r, g, b] = slide.channels[c].color;
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
