// Image codecs the readers share: JPEG (sharp), JPEG-XR (jpegxr wasm), zstd (fzstd), encoded → RawImage.
// Quirks: the jpegxr Emscripten module installs process-wide 'uncaughtException'/'unhandledRejection'
// listeners when it loads (its 'unhandledRejection' one aborts the wasm); we remove them at once so that
// one bad promise elsewhere in the server cannot break slide decoding or the process.

import jpegxrFactory, { type JxrCodec } from 'jpegxr';
import { decompress } from 'fzstd';
import sharp from 'sharp';
import type { RawImage } from './types';

/** Decodes a JPEG/PNG/TIFF image with sharp into raw pixels (1 or 3 or 4 channels, 8 or 16 bit). */
export async function decodeImage(bytes: Uint8Array): Promise<RawImage> {
  const { data, info } = await sharp(bytes, { limitInputPixels: false })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const channels = info.channels === 2 ? 1 : info.channels; // grey+alpha never comes from our JPEGs
  if (channels !== 1 && channels !== 3 && channels !== 4)
    throw new Error(`Unexpected ${info.channels} channels`);
  // OutputInfo has no depth field: 16-bit output (e.g. a 16-bit PNG) shows as twice the bytes.
  const bits = data.length === info.width * info.height * info.channels * 2 ? 16 : 8;
  const view = bits === 16 ? u16(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (info.channels === 2) {
    const grey = new Uint8Array(info.width * info.height);
    for (let i = 0; i < grey.length; i++) grey[i] = view[i * 2];
    return { width: info.width, height: info.height, channels: 1, bits: 8, data: grey };
  }
  return { width: info.width, height: info.height, channels, bits, data: view };
}

/** Little-endian 16-bit samples of `b` (copied when b is not 2-byte aligned, which Uint16Array needs). */
export function u16(b: Uint8Array): Uint16Array {
  if (b.byteOffset % 2 === 0) return new Uint16Array(b.buffer, b.byteOffset, b.byteLength >> 1);
  return new Uint16Array(b.slice().buffer, 0, b.byteLength >> 1);
}

let jxr: Promise<JxrCodec> | undefined;

function loadJxr(): Promise<JxrCodec> {
  if (!jxr) {
    const before = {
      uncaught: new Set(process.listeners('uncaughtException')),
      unhandled: new Set(process.listeners('unhandledRejection')),
    };
    jxr = jpegxrFactory().then((codec) => {
      for (const l of process.listeners('uncaughtException'))
        if (!before.uncaught.has(l)) process.removeListener('uncaughtException', l);
      for (const l of process.listeners('unhandledRejection'))
        if (!before.unhandled.has(l)) process.removeListener('unhandledRejection', l);
      return codec;
    });
  }
  return jxr;
}

/**
 * Decodes a JPEG-XR codestream. Returns samples in the codestream's own order with `bgr` saying whether
 * three-colour data is blue first; 16-bit samples are returned as Uint16Array.
 */
export async function decodeJpegXr(bytes: Uint8Array): Promise<{ image: RawImage; bgr: boolean }> {
  const codec = await loadJxr();
  const img = codec.decode(bytes);
  const { bitDepth, bitsPerPixel, channels: ch, bgr } = img.pixelInfo;
  const bits = bitDepth === '16' ? 16 : bitDepth === '8' ? 8 : 0;
  if (!bits) throw new Error(`Unsupported JPEG-XR bit depth ${bitDepth}`);
  // jxrlib pads e.g. 24bpp BGR to 32 bits in some formats: derive samples per pixel from bits per pixel.
  const spp = bitsPerPixel / bits;
  if (spp !== 1 && spp !== 3 && spp !== 4) throw new Error(`Unsupported JPEG-XR layout ${ch}x${bitDepth}`);
  const b = img.bytes;
  const data = bits === 16 ? u16(b) : b;
  return { image: { width: img.width, height: img.height, channels: spp, bits, data }, bgr };
}

/** Decompresses one zstd frame (or concatenated frames). */
export function unzstd(bytes: Uint8Array): Uint8Array {
  return decompress(bytes);
}

/** Encodes RGB/grey 8-bit raw pixels to PNG (for the barcode decoder and debugging). */
export async function encodePng(img: RawImage): Promise<Buffer> {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } })
    .png()
    .toBuffer();
}
