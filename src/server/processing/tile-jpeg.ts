// How every tile is JPEG-encoded, the tiler's and the tiles cut on demand alike, so that a tile looks the
// same whichever of the two made it: quality 85, 4:2:0 chroma for colour, Huffman tables not optimised,
// as libvips' dzsave writes tiles.
// The encoder is libjpeg-turbo's TurboJPEG API (@julusian/jpeg-turbo: its prebuilt binary ships in the
// npm package), called on libuv's pool. It is the JPEG library libvips uses, without libvips around it:
// a sharp call builds a libvips pipeline per image, 0.5 ms of CPU before the first pixel, which is twice
// the encode of a 256-pixel tile itself; through TurboJPEG a tile costs 0.2 ms (bench/pyramid.ts, and
// the figures in bench/README.md). Optimised Huffman tables would save 7–8 % of the bytes for a second
// pass over every tile.
import jpegTurbo from '@julusian/jpeg-turbo';

/** JPEG quality of every tile. */
export const TILE_QUALITY = 85;

/** The tiles' settings for a libvips encoder (sharp), where one still writes tiles (the bench's baseline). */
export const TILE_JPEG = { quality: TILE_QUALITY, mozjpeg: false, optimiseCoding: false } as const;

/** Output buffers of encodes that ended, reused: TurboJPEG wants room for the worst case up front. */
const scratch: Buffer[] = [];

/**
 * The JPEG of `width` × `height` 8-bit pixels (1 channel: grey, 3: RGB), tightly packed from `pixels`'
 * first byte. The result is a buffer of its own, exactly the JPEG's size.
 */
export async function encodeTile(
  pixels: Buffer,
  width: number,
  height: number,
  channels: number,
): Promise<Buffer> {
  if (channels !== 1 && channels !== 3) throw new Error(`Tiles have 1 or 3 channels, not ${channels}`);
  const grey = channels === 1;
  const options = {
    format: grey ? jpegTurbo.FORMAT_GRAY : jpegTurbo.FORMAT_RGB,
    subsampling: grey ? jpegTurbo.SAMP_GRAY : jpegTurbo.SAMP_420,
    width,
    height,
    quality: TILE_QUALITY,
  };
  const room = jpegTurbo.bufferSize(options);
  let out = scratch.pop();
  if (!out || out.length < room) out = Buffer.allocUnsafe(room);
  try {
    // A copy of exactly the JPEG's bytes: the scratch buffer is the worst case, ten times a tile's size.
    return Buffer.from(await jpegTurbo.compress(pixels, out, options));
  } finally {
    scratch.push(out);
  }
}
