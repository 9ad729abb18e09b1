// CZI subblock pixel decoding: compression (raw, JPEG, JPEG-XR, zstd0, zstd1) × pixel type → RawImage.
// Quirks: colour types are stored blue first (Bgr24/Bgr48/Bgra32) and come out RGB here; zstd1 has a small
// header whose chunk 1 says the 16-bit data is "hi/lo packed" (all low bytes, then all high bytes).

import { decodeImage, decodeJpegXr, u16, unzstd } from './codecs';
import { SlideErrors } from './errors';
import { swapRedBlue } from './raw';
import type { RawImage } from './types';

export const CziPixelType = { Gray8: 0, Gray16: 1, Bgr24: 3, Bgr48: 4, Bgra32: 9 } as const;
export const CziCompression = { None: 0, Jpeg: 1, JpegXr: 4, Zstd0: 5, Zstd1: 6 } as const;

interface PixelLayout {
  channels: 1 | 3 | 4;
  bits: 8 | 16;
}

/** Layout of a supported pixel type; throws 'Unsupported CZI pixel type N' for the rest (float, complex). */
export function pixelLayout(pixelType: number): PixelLayout {
  switch (pixelType) {
    case CziPixelType.Gray8:
      return { channels: 1, bits: 8 };
    case CziPixelType.Gray16:
      return { channels: 1, bits: 16 };
    case CziPixelType.Bgr24:
      return { channels: 3, bits: 8 };
    case CziPixelType.Bgr48:
      return { channels: 3, bits: 16 };
    case CziPixelType.Bgra32:
      return { channels: 4, bits: 8 };
    default:
      throw SlideErrors.cziPixelType(pixelType);
  }
}

/** Throws 'Unsupported CZI compression N' unless we can decode `mode`. */
export function checkCompression(mode: number): void {
  if (!(Object.values(CziCompression) as number[]).includes(mode)) throw SlideErrors.cziCompression(mode);
}

/** Undoes zstd1's optional hi/lo byte packing and strips its header. */
function unzstd1(data: Uint8Array, at: number): { bytes: Uint8Array; hiLo: boolean } {
  const headerSize = data[0];
  if (headerSize < 1 || headerSize > data.length) throw SlideErrors.cziBadSubblock(at, 'bad zstd1 header');
  let hiLo = false;
  // Chunks after the size byte: type 1 = one flag byte whose bit 0 is hi/lo packing. Unknown types end it.
  for (let o = 1; o + 1 < headerSize;) {
    if (data[o] === 1) {
      hiLo = (data[o + 1] & 1) === 1;
      o += 2;
    } else break;
  }
  return { bytes: unzstd(data.subarray(headerSize)), hiLo };
}

function unpackHiLo(bytes: Uint8Array): Uint8Array {
  const half = bytes.length >> 1;
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < half; i++) {
    out[2 * i] = bytes[i];
    out[2 * i + 1] = bytes[half + i];
  }
  return out;
}

function fromBytes(bytes: Uint8Array, w: number, h: number, layout: PixelLayout, at: number): RawImage {
  const need = w * h * layout.channels * (layout.bits / 8);
  if (bytes.length < need) {
    throw SlideErrors.cziBadSubblock(at, `${bytes.length} bytes of pixels, expected ${need}`);
  }
  const exact = bytes.subarray(0, need);
  const data = layout.bits === 16 ? u16(exact) : exact;
  return { width: w, height: h, channels: layout.channels, bits: layout.bits, data };
}

/**
 * Decodes one subblock's pixel bytes of stored size w×h. Output: grey (1 channel) or RGB/RGBA, blue
 * swapped to RGB order, 16-bit as Uint16Array. `at` (file offset) only labels errors.
 */
export async function decodeSubblock(
  data: Uint8Array,
  pixelType: number,
  compression: number,
  w: number,
  h: number,
  at: number,
): Promise<RawImage> {
  const layout = pixelLayout(pixelType);
  checkCompression(compression);
  let img: RawImage;
  try {
    switch (compression) {
      case CziCompression.None:
        img = fromBytes(data, w, h, layout, at);
        break;
      case CziCompression.Zstd0:
        img = fromBytes(unzstd(data), w, h, layout, at);
        break;
      case CziCompression.Zstd1: {
        const { bytes, hiLo } = unzstd1(data, at);
        img = fromBytes(hiLo && layout.bits === 16 ? unpackHiLo(bytes) : bytes, w, h, layout, at);
        break;
      }
      case CziCompression.Jpeg:
        // sharp yields RGB already: the JPEG holds true colours, only raw CZI memory is BGR.
        return await decodeImage(data);
      default: {
        const { image, bgr } = await decodeJpegXr(data);
        return image.channels >= 3 && bgr ? swapRedBlue(image) : image;
      }
    }
  } catch (e) {
    if (e instanceof Error && e.name === 'SlideError') throw e;
    throw SlideErrors.cziBadSubblock(at, e instanceof Error ? e.message : String(e));
  }
  // Raw and zstd memory layouts are BGR(A): copy before swapping so the caller's buffer stays intact.
  return img.channels >= 3 ? swapRedBlue({ ...img, data: img.data.slice() }) : img;
}
