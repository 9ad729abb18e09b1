// The one interface every slide reader implements (STYLE §2): a fourth format is one more file behind it.
// Directions: level 0 is the LARGEST (full resolution), as in OpenSlide; the DZI tiler converts at its boundary.

import type { SlideFormat } from '../../api/slide-formats';
import type { OpenFile } from './file';

export type AssociatedName = 'label' | 'macro' | 'thumbnail';

/** Decoded pixels, rows top to bottom, samples interleaved, no padding between rows. */
export interface RawImage {
  width: number;
  height: number;
  /** 1 = grey / one fluorescence channel, 3 = RGB, 4 = RGBA. Never BGR: readers swap vendor BGR. */
  channels: 1 | 3 | 4;
  bits: 8 | 16;
  /** Uint8Array when bits is 8, Uint16Array (native order) when bits is 16; length = width*height*channels. */
  data: Uint8Array | Uint16Array;
}

export interface SlideChannel {
  name: string;
  /** Display colour, 0..255 each; brightfield RGB reports white. */
  color: [number, number, number];
}

export interface SlideLevel {
  /** Size in this level's pixels. */
  width: number;
  height: number;
  /** Level-0 pixels per pixel of this level (1 for level 0; may be fractional, e.g. 2.0004). */
  downsample: number;
  /**
   * False when the file has no pixels at this level and the reader shrinks a larger stored level: reading
   * it costs downsample² more decoding, so a tiler should build it from the level above it already made.
   */
  stored: boolean;
}

export interface Slide {
  format: SlideFormat;
  /**
   * How many scenes the file holds (separate regions scanned on one glass slide, e.g. three tissue
   * sections); 1 for a reader or file without scenes. A Slide shows one scene, `scene` (0-based);
   * `openSlide(files, { scene })` opens another.
   */
  scenes: number;
  scene: number;
  /** [0] = full resolution; each next level is smaller. Never empty. */
  levels: SlideLevel[];
  /** Brightfield RGB is one channel (e.g. 'Brightfield'); fluorescence has one entry per stain. Never empty. */
  channels: SlideChannel[];
  kind: 'brightfield' | 'fluorescence';
  /** Bits per sample of readRegion's output: brightfield is always 8; fluorescence 8 or 16. */
  bitsPerSample: 8 | 16;
  /** Size of one level-0 pixel in micrometres, when the file says. */
  pixelSizeUm?: { x: number; y: number };
  /**
   * Pixels of a rectangle given in `level`'s own pixel coordinates (x right, y down, from the top left).
   * Brightfield: RGB 8-bit (channels 3), `channel` ignored. Fluorescence: channel `channel` (default 0)
   * alone, channels 1, bits = bitsPerSample. Parts outside the slide are filled with the background
   * (white for brightfield, 0 for fluorescence). Fails with SlideError 'bad_request' for a level or
   * channel that does not exist, and w and h must be whole and ≥ 1: checked once for every reader by
   * the slide the registry hands out (checked.ts), so a reader may assume them.
   */
  readRegion(level: number, x: number, y: number, w: number, h: number, channel?: number): Promise<RawImage>;
  /**
   * readRegion's pixels of the rectangle at (x, y) the size of `into`, written into `into` (whose
   * channels and bits are readRegion's) instead of a new image. A reader that places its decoded
   * pieces there directly implements it: the tiler reads each band of a slide this way, saving an
   * allocation and a copy of every pixel. The registry's slide has it when its reader has.
   */
  readRegionInto?(level: number, x: number, y: number, into: RawImage, channel?: number): Promise<void>;
  /** The names that `associated` returns an image for; a subset of AssociatedName. */
  associatedNames: AssociatedName[];
  /** An associated image as RGB 8-bit, or undefined when the file has none of that name. */
  associated(name: AssociatedName): Promise<RawImage | undefined>;
  /** Vendor properties worth keeping (objective, scanner, ...), flat strings. */
  properties: Record<string, string>;
  /** Releases file handles; the slide must not be used after. */
  close(): Promise<void>;
}

/** What a reader supports, as the rows of docs/formats.md show it (large_image's declared capabilities). */
export interface ReaderCapabilities {
  levels: string;
  pixels: string;
  associated: string;
  /** What becomes of a file holding several scenes / regions (one image each, or what is not read). */
  scenes: string;
  unsupported: string;
}

/**
 * One entry of the registry: cheap detection, then a full open. Extensions, content type and data
 * folder are the format's descriptor in src/api/slide-formats.ts.
 */
export interface SlideFormatReader {
  format: SlideFormat;
  capabilities: ReaderCapabilities;
  /**
   * True when `files` is this format. Reads at most a few header bytes; must not throw for another
   * format's files (returns false), may throw SlideError for I/O failures. `openFile` opens a name of
   * `files` (default: from the disk).
   */
  detect(files: string[], openFile?: OpenFile): Promise<boolean>;
  /**
   * Opens scene `scene` (default 0) of the slide; throws SlideError with the reason when the file is not
   * readable. A reader without scenes may ignore `scene`: the registry refuses one past `scenes`.
   */
  open(files: string[], openFile?: OpenFile, scene?: number): Promise<Slide>;
}
