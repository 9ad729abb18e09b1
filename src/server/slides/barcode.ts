// Label barcode decoding with zxing-wasm (QR, DataMatrix, Code128): the slide label → its simpleId.
// Quirks: the wasm is read from node_modules and handed over as wasmBinary so nothing is ever fetched from
// the network; labels often carry the same text in several symbologies, so the text most symbols agree on
// wins; where nothing reads at the label's own size we retry scaled up (small prints) and down (noise).

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { prepareZXingModule, readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';
import { toRgb8 } from './raw';
import type { RawImage } from './types';

let ready: Promise<unknown> | undefined;

function loadZxing(): Promise<unknown> {
  if (!ready) {
    ready = (async () => {
      const wasmPath = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
      const bytes = await readFile(wasmPath);
      const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      return prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
    })();
    ready.catch(() => (ready = undefined)); // a failed load is retried by the next call
  }
  return ready;
}

const OPTIONS: ReaderOptions = {
  formats: ['QRCode', 'DataMatrix', 'Code128'],
  tryHarder: true,
  tryRotate: true,
  tryInvert: true,
  tryDownscale: true,
  maxNumberOfSymbols: 8,
};

/** RGBA for zxing's pixmap input (it reads 4 bytes per pixel). */
function toRgba(img: RawImage): { data: Uint8ClampedArray; width: number; height: number } {
  const rgb = toRgb8(img);
  const n = rgb.width * rgb.height;
  const out = new Uint8ClampedArray(n * 4);
  for (let p = 0; p < n; p++) {
    out[p * 4] = rgb.data[p * 3];
    out[p * 4 + 1] = rgb.data[p * 3 + 1];
    out[p * 4 + 2] = rgb.data[p * 3 + 2];
    out[p * 4 + 3] = 255;
  }
  return { data: out, width: rgb.width, height: rgb.height };
}

async function scaled(img: RawImage, factor: number): Promise<RawImage> {
  const rgb = toRgb8(img);
  const width = Math.max(1, Math.round(rgb.width * factor));
  const { data, info } = await sharp(rgb.data, { raw: { width: rgb.width, height: rgb.height, channels: 3 } })
    .resize({ width, kernel: factor > 1 ? 'nearest' : 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 3, bits: 8, data: new Uint8Array(data) };
}

async function read(img: RawImage): Promise<string | undefined> {
  // ImageData-shaped object: zxing-wasm accepts {data, width, height} without a DOM.
  const results = await readBarcodes(toRgba(img) as unknown as ImageData, OPTIONS);
  const votes = new Map<string, number>();
  for (const r of results) if (r.isValid && r.text) votes.set(r.text, (votes.get(r.text) ?? 0) + 1);
  let best: string | undefined;
  for (const [text, n] of votes) if (best === undefined || n > (votes.get(best) ?? 0)) best = text;
  return best;
}

/**
 * The text of the label's barcode, or undefined when no QR, DataMatrix or Code128 symbol reads.
 * `label` is raw pixels (any RawImage) or an encoded PNG/JPEG file.
 */
export async function decodeLabel(label: RawImage | Uint8Array): Promise<string | undefined> {
  await loadZxing();
  let img: RawImage;
  if (label instanceof Uint8Array) {
    const { data, info } = await sharp(label, { limitInputPixels: false })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    img = { width: info.width, height: info.height, channels: 3, bits: 8, data: new Uint8Array(data) };
  } else img = label;
  const first = await read(img);
  if (first !== undefined) return first;
  for (const f of [2, 0.5]) {
    const text = await read(await scaled(img, f));
    if (text !== undefined) return text;
  }
  return undefined;
}
