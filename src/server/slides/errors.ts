// Reader errors: every way a slide file can fail to open, each with one exact message (tested word for word).
// Quirk: all of them map to the upload status `read_error` (spec §4.3); the message is the reason shown.
import { listOr, SLIDE_FORMATS } from '../../api/slide-formats';

/** Stable codes so the processing job and tests need not parse messages. */
export type SlideErrorCode =
  | 'unsupported_format'
  | 'bad_magic'
  | 'truncated'
  | 'corrupt'
  | 'unsupported_compression'
  | 'unsupported_pixel_type'
  | 'missing_file'
  | 'no_image'
  | 'too_large'
  | 'bad_request';

export class SlideError extends Error {
  /** The upload status this failure ends in (spec §4.3). */
  readonly status = 'read_error' as const;
  constructor(
    readonly code: SlideErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SlideError';
  }
}

const count = (n: number) => n.toLocaleString('en-US');
/** 'CZI, MRXS or QPTIFF': every format Tessera reads. */
const FORMAT_NAMES = listOr(SLIDE_FORMATS.map((f) => f.format.toUpperCase()));

/** The catalogue: one function per error so that each message is written exactly once. */
export const SlideErrors = {
  unsupportedFormat: (file: string) =>
    new SlideError('unsupported_format', `Unsupported slide format: ${file} is not a ${FORMAT_NAMES} file`),
  truncated: (format: string, what: string) =>
    new SlideError('truncated', `Truncated ${format} file: ${what} runs past the end of the file`),

  // CZI
  cziMagic: () => new SlideError('bad_magic', 'Not a CZI file: bad ZISRAWFILE magic'),
  cziSegment: (expected: string, offset: number) =>
    new SlideError('corrupt', `Corrupt CZI file: expected segment ${expected} at byte ${offset}`),
  cziCompression: (mode: number) =>
    new SlideError('unsupported_compression', `Unsupported CZI compression ${mode}`),
  cziPixelType: (type: number) =>
    new SlideError('unsupported_pixel_type', `Unsupported CZI pixel type ${type}`),
  cziNoSubblocks: () => new SlideError('no_image', 'CZI file has no image subblocks'),
  cziEmptyScene: (scene: number) =>
    new SlideError('no_image', `CZI scene ${scene + 1} has no full-resolution subblocks`),
  cziBadSubblock: (offset: number, why: string) =>
    new SlideError('corrupt', `Corrupt CZI subblock at byte ${offset}: ${why}`),

  // MRXS
  mrxsNoIni: () => new SlideError('missing_file', 'MRXS slide is missing Slidedat.ini'),
  mrxsMissingData: (name: string) =>
    new SlideError('missing_file', `MRXS slide is missing data file ${name}`),
  mrxsIniKey: (section: string, key: string) =>
    new SlideError('corrupt', `Corrupt MRXS Slidedat.ini: missing ${key} in [${section}]`),
  mrxsIndexMagic: () => new SlideError('bad_magic', 'Not an MRXS index: bad Index.dat header'),
  mrxsIndex: (why: string) => new SlideError('corrupt', `Corrupt MRXS Index.dat: ${why}`),
  mrxsImage: (file: string, offset: number, why: string) =>
    new SlideError('corrupt', `Corrupt MRXS image in ${file} at byte ${offset}: ${why}`),

  // QPTIFF
  qptiffNotQpi: () => new SlideError('bad_magic', 'Not a QPTIFF file: no PerkinElmer-QPI image description'),
  qptiffNoFullResolution: () => new SlideError('no_image', 'QPTIFF file has no FullResolution page'),
  qptiffNotTiff: () => new SlideError('bad_magic', 'Not a QPTIFF file: bad TIFF header'),
  qptiffCorrupt: (why: string) => new SlideError('corrupt', `Corrupt QPTIFF file: ${why}`),

  // Any reader
  tooLarge: (width: number, height: number, max: number) =>
    new SlideError(
      'too_large',
      `Slide too large: ${count(width)} × ${count(height)} pixels is more than the ${count(max)} pixels per scene this server accepts`,
    ),
  noLevel: (level: number, count: number) =>
    new SlideError('bad_request', `Level ${level} does not exist: the slide has ${count} levels`),
  noScene: (scene: number, count: number) =>
    new SlideError(
      'bad_request',
      `Scene ${scene} does not exist: the slide has ${count} ${count === 1 ? 'scene' : 'scenes'}`,
    ),
  noChannel: (channel: number, count: number) =>
    new SlideError('bad_request', `Channel ${channel} does not exist: the slide has ${count} channels`),
} as const;
