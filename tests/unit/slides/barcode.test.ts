// decodeLabel: each symbology alone, rotated and small prints, and a label with no code (→ undefined).

import bwipjs from 'bwip-js/node';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeLabel } from '../../../src/server/slides/barcode';
import type { RawImage } from '../../../src/server/slides/types';

async function raw(png: Uint8Array, rotate = 0, scale = 1): Promise<RawImage> {
  const meta = await sharp(png).metadata();
  const { data, info } = await sharp(png)
    .flatten({ background: '#ffffff' })
    .resize({ width: Math.round((meta.width ?? 1) * scale), kernel: 'nearest' })
    .rotate(rotate, { background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 3, bits: 8, data: new Uint8Array(data) };
}

describe('decodeLabel', () => {
  it('reads a QR code', async () => {
    const png = await QRCode.toBuffer('SG-QR-42', { margin: 4, scale: 4 });
    expect(await decodeLabel(png)).toBe('SG-QR-42');
  });
  it('reads a DataMatrix rotated 90°', async () => {
    const png = await bwipjs.toBuffer({ bcid: 'datamatrix', text: 'SG-DM-7', scale: 5, padding: 10 });
    expect(await decodeLabel(await raw(png, 90))).toBe('SG-DM-7');
  });
  it('reads a Code128 upside down', async () => {
    const png = await bwipjs.toBuffer({
      bcid: 'code128',
      text: 'SG-128-9',
      scale: 3,
      height: 12,
      padding: 10,
    });
    expect(await decodeLabel(await raw(png, 180))).toBe('SG-128-9');
  });
  it('returns undefined for a label with no readable code', async () => {
    const blank = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#f3efe8' } })
      .png()
      .toBuffer();
    expect(await decodeLabel(blank)).toBeUndefined();
  });
});
