// The tiles' JPEG encoder: what it writes decodes (by libvips, as a browser would) to the pixels it was
// given, within JPEG tolerance, for colour and grey.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeTile } from '../../src/server/processing/tile-jpeg';

/** Smooth, tissue-like samples: gradients a JPEG keeps within a few levels. */
function pixels(width: number, height: number, channels: number): Buffer {
  const out = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < channels; c++)
        out[(y * width + x) * channels + c] = 110 + 50 * Math.sin(x / 23 + c) + 40 * Math.cos(y / 19);
  return out;
}

async function meanError(jpeg: Buffer, expected: Buffer, channels: number): Promise<number> {
  // (sharp hands a grey JPEG back as RGB unless asked for one channel.)
  const decoder = channels === 1 ? sharp(jpeg).extractChannel(0) : sharp(jpeg);
  const { data, info } = await decoder.raw().toBuffer({ resolveWithObject: true });
  expect(info.channels).toBe(channels);
  expect(data.length).toBe(expected.length);
  let sum = 0;
  for (let i = 0; i < data.length; i++) sum += Math.abs(data[i] - expected[i]);
  return sum / data.length;
}

describe('encodeTile', () => {
  it('writes an RGB tile as a JPEG of its size and pixels', async () => {
    const px = pixels(258, 200, 3);
    const jpeg = await encodeTile(px, 258, 200, 3);
    const meta = await sharp(jpeg).metadata();
    expect([meta.format, meta.width, meta.height, meta.channels]).toEqual(['jpeg', 258, 200, 3]);
    expect(meta.chromaSubsampling).toBe('4:2:0');
    expect(await meanError(jpeg, px, 3)).toBeLessThan(3);
    // Exactly the JPEG's bytes: it ends with the end-of-image marker.
    expect(jpeg.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
  });

  it('writes a grey tile as a one-channel JPEG', async () => {
    const px = pixels(100, 37, 1);
    const jpeg = await encodeTile(px, 100, 37, 1);
    const meta = await sharp(jpeg).metadata();
    expect([meta.width, meta.height, meta.channels]).toEqual([100, 37, 1]);
    expect(await meanError(jpeg, px, 1)).toBeLessThan(3);
  });

  it('gives each tile its own bytes while encodes run at once', async () => {
    const a = pixels(64, 64, 3);
    const b = Buffer.alloc(64 * 64 * 3, 200);
    const [ja, jb] = await Promise.all([encodeTile(a, 64, 64, 3), encodeTile(b, 64, 64, 3)]);
    expect(await meanError(ja, a, 3)).toBeLessThan(3);
    expect(await meanError(jb, b, 3)).toBeLessThan(1);
  });

  it('refuses a channel count no tile has', async () => {
    await expect(encodeTile(Buffer.alloc(16 * 16 * 4), 16, 16, 4)).rejects.toThrow('1 or 3 channels, not 4');
  });
});
