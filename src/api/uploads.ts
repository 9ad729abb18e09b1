// The upload contract (spec §2.6, §4.3, §9): tus metadata and limits, the server's upload
// groups, the §4.3 statuses of an upload row and their display, and the speed/ETA texts of §9.
// Server, worker and app import this one module, so a status is spelled and shown the same everywhere.
import { z } from 'zod';
import { Id } from './common';
import { ImageStatuses } from './enums';
import { errorText } from './errors';
import { UploadText } from './messages';
import { extensionOf } from './slide-formats';

/** The tus endpoint (protocol 1.0: creation, termination, checksum, expiration). */
export const UPLOAD_PATH = '/v2/uploads';
export const TUS_VERSION = '1.0.0';
/** The one checksum algorithm the server takes (`Upload-Checksum: sha1 <base64>`). */
export const CHECKSUM_ALGORITHM = 'sha1';

/** Adaptive chunks: never below 8 MiB nor above 64 MiB. */
export const CHUNK_MIN_BYTES = 8 * 1024 * 1024;
export const CHUNK_MAX_BYTES = 64 * 1024 * 1024;
/** A chunk should take about this long, so progress and a resend stay small on slow lines. */
export const CHUNK_TARGET_MS = 5_000;
/** Files sent at once; each file sends one request at a time. */
export const PARALLEL_FILES = 3;
/** §9: upload progress poll. */
export const UPLOAD_POLL_MS = 2_500;
/** §9: the speed estimate uses the last 6 samples. */
export const SPEED_SAMPLES = 6;
/** §9, §5: below this many bytes per second the slow-speed warning shows. */
export const SLOW_SPEED_BYTES_PER_SECOND = 100_000;

/** A relative path inside a dropped folder: forward slashes, no '..', no leading slash. */
const RelativePath = z
  .string()
  .min(1)
  .max(1024)
  .refine((p) => !p.startsWith('/') && !p.split('/').some((s) => s === '' || s === '.' || s === '..'), {
    message: 'must be a relative path inside the dropped folder',
  });

const FileName = z
  .string()
  .min(1, 'is required')
  .max(255)
  .refine((n) => !/[/\\\0]/.test(n), { message: 'must be a file name, not a path' })
  // '...mrxs' or '.czi': no name before the extension, and an .mrxs's data folder would be '..'.
  .refine((n) => /[^.]/.test(n.slice(0, n.length - extensionOf(n).length)), {
    message: 'must have a name before its extension',
  });

/**
 * Upload-Metadata of a tus creation request (values are base64 on the wire). Every upload belongs to
 * a group: a single slide file is a group of one; an .mrxs with its data folder is a group of all its
 * files (`groupSize`), each part naming its place in the folder (`relativePath`). A plain tus 1.0
 * client (tus-py-client, Uppy, tusd's tools) sends only `filename`: without `groupId` and `groupSize`
 * the file is a group of one of its own, which the server names. Other keys such clients send
 * (`name`, `type`, …) are ignored.
 */
export const UploadMetadata = z
  .object({
    filename: FileName,
    filetype: z.string().max(200).optional(),
    groupId: Id.optional(),
    groupSize: z.coerce.number().int().min(1).max(10_000).default(1),
    relativePath: RelativePath.optional(),
  })
  .refine((m) => m.groupId !== undefined || m.groupSize === 1, {
    path: ['groupId'],
    message: 'is required for a group of more than one file',
  });
export type UploadMetadata = z.infer<typeof UploadMetadata>;

/** Where an upload group is on the server. */
export const UploadGroupStatuses = ['uploading', 'complete', 'canceled', 'expired', 'failed'] as const;
export type UploadGroupStatus = (typeof UploadGroupStatuses)[number];

export const UploadPart = z.object({
  /** The tus resource id (the last segment of its URL). */
  id: z.string(),
  relativePath: z.string(),
  size: z.number().int(),
  status: z.enum(['uploading', 'complete', 'canceled', 'expired']),
});
export type UploadPart = z.infer<typeof UploadPart>;

/** What became of the group's image: the processing job's outcome, read by the upload row (§4.3). */
export const UploadImageState = z.object({
  id: Id,
  status: z.enum(ImageStatuses),
  scanGroupId: Id.nullable(),
  /** info.code: label_applied, image_label_decode_error, label_does_not_exist, read_error, … */
  code: z.string().nullable(),
  /** info.desc: the reader's reason for a read error, the decoded label otherwise. */
  desc: z.string().nullable(),
});
export type UploadImageState = z.infer<typeof UploadImageState>;

export const UploadGroup = z.object({
  id: Id,
  name: z.string(),
  status: z.enum(UploadGroupStatuses),
  /** How many files the group holds once every part is created. */
  fileCount: z.number().int(),
  parts: z.array(UploadPart),
  /** The assembly's refusal (an .mrxs without its data files…), for status read_error. */
  error: z.string().nullable(),
  /** The first scene's image (null until the group is complete): what clients of one image per file read. */
  image: UploadImageState.nullable(),
  /**
   * Every image made from the group, one per scene of the file, in scene order (`images[0]` is `image`).
   * The other scenes' images appear once processing has opened the file and counted its scenes.
   */
  images: z.array(UploadImageState),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UploadGroup = z.infer<typeof UploadGroup>;

export const UploadGroupResult = z.object({ result: UploadGroup });
/** A tus resource id as the server makes them: 32 hex digits. */
export const UploadIdParams = z.object({ id: z.string().regex(/^[0-9a-f]{32}$/, 'is not an upload id') });
export const UploadGroupParams = z.object({ groupId: Id });
export const UploadGroupListQuery = z.object({
  page: z.coerce.number().int().min(1, 'page starts at 1').default(1),
  limit: z.coerce.number().int().min(1).max(100, 'limit is at most 100').default(50),
});

/** Label repair from the uploader (§2.3 ?fixUpload / ?fixCreateUpload): one of the two. */
export const ApplyLabelBody = z
  .strictObject({
    simpleId: z.string().trim().min(1).max(100).optional(),
    scanGroupId: Id.optional(),
  })
  .refine((b) => (b.simpleId === undefined) !== (b.scanGroupId === undefined), {
    message: 'give either simpleId or scanGroupId',
  });
export type ApplyLabelBody = z.infer<typeof ApplyLabelBody>;

/** Texts of our own where the spec is silent (docs/decisions.md). */
export const UploadOwnText = {
  /** Errors of the catalogue (./errors.ts) that the uploader and its tests name. */
  tooLarge: (max: string) => errorText('TOO_LARGE', { max }),
  mrxsNeedsFolder: errorText('MRXS_NEEDS_FOLDER'),
  mrxsMissingData: (what: string) => errorText('MRXS_MISSING_DATA', { what }),
  duplicatePart: errorText('DUPLICATE_PART'),
  notComplete: errorText('NOT_COMPLETE'),
  labelNotFound: errorText('LABEL_NOT_FOUND'),
  storageFull: errorText('STORAGE_FULL'),
  fileNotKept:
    'The browser did not keep a copy of this file. Choose the same file again to continue the upload.',
  wrongFile: 'This is not the same file. Choose the file this upload started with.',
  paused: 'Paused: waiting for the network',
  notStarted: 'The files could not be added to the uploads. Nothing was sent; please choose them again.',
  inFlight: (n: number) =>
    n ? `${n} ${n === 1 ? 'upload' : 'uploads'} in progress` : 'No uploads in progress',
  needLabel: (n: number) => `${n} ${n === 1 ? 'needs' : 'need'} a slide label`,
  clearFinished: 'Clear finished',
  clearRow: 'Clear',
  /** The label repair modals name the file they apply to. */
  forFile: 'For the file',
  barcodeRead: 'Barcode read from the file',
  barcodeNoMatch: 'No slide has this label ID.',
  barcodeNone: 'No barcode could be read from the file.',
  labelCreated: (simpleId: string, file: string) =>
    `Slide label ID ${simpleId} was created and applied to ${file}.`,
} as const;

// ---------------------------------------------------------------- §4.3 statuses of an upload row

export const UploadWaitingStatuses = [
  'waiting',
  'aborted',
  'waiting_for_processing',
  'waiting_for_image_creation',
  'waiting_for_label_upload_metadata',
  'waiting_for_label_upload',
  'waiting_for_label',
  'waiting_for_apply_label',
  'waiting_for_stamp',
  'waiting_for_upload_metadata',
  'waiting_for_multipart_upload_metadata',
  'waiting_for_multipart_upload',
  'waiting_for_upload',
  'queued',
  'done',
] as const;

export const UploadErrorStatuses = [
  'image_creation_error',
  'image_label_metadata_error',
  'image_label_upload_error',
  'upload_metadata_error',
  'multipart_upload_metadata_error',
  'image_label_decode_error',
  'image_label_apply_error',
  'label_does_not_exist',
  'stamping_error',
  'upload_error',
  'multipart_upload_error',
  'read_error',
  'processing_error',
] as const;

export const UploadStatuses = [...UploadWaitingStatuses, ...UploadErrorStatuses] as const;
export type UploadStatus = (typeof UploadStatuses)[number];

/** The upload file record of §3. */
export const UploadFileRecord = z.object({
  id: z.string(),
  name: z.string(),
  uploadSize: z.number(),
  transferred: z.number(),
  /** 0 to 1 */
  progress: z.number().min(0).max(1),
  status: z.enum(UploadStatuses),
  error: z.string().nullable(),
  labelUrl: z.string().nullable(),
  scanGroupId: z.string().nullable(),
});
export type UploadFileRecord = z.infer<typeof UploadFileRecord>;

const LABEL_STATUSES: readonly UploadStatus[] = [
  'image_label_metadata_error',
  'image_label_upload_error',
  'image_label_decode_error',
  'image_label_apply_error',
  'label_does_not_exist',
];
const LABEL_WAITING: readonly UploadStatus[] = [
  'waiting_for_label_upload_metadata',
  'waiting_for_label_upload',
  'waiting_for_label',
  'waiting_for_apply_label',
];

export type UploadAction = 'cancel' | 'openImage' | 'fixLabel';

export interface UploadDisplay {
  /** The status text of §4.3. */
  text: string;
  /** A second line: the error, 'No Label Associated', a percentage… */
  detail?: string;
  /** A hover with more detail (image_creation_error). */
  hover?: string;
  /** 0 to 100 while bytes are sent. */
  percent?: number;
  actions: UploadAction[];
  tone: 'neutral' | 'progress' | 'success' | 'error';
}

/** §4.3: how a row shows its status. `error` is the record's error text, `progress` 0 to 1. */
export function displayUploadStatus(r: {
  status: UploadStatus;
  progress: number;
  error?: string | null;
}): UploadDisplay {
  const s = r.status;
  switch (s) {
    case 'waiting':
      return { text: 'Waiting', actions: ['cancel'], tone: 'neutral' };
    case 'waiting_for_upload_metadata':
    case 'waiting_for_multipart_upload_metadata':
      return { text: 'Starting Upload', actions: ['cancel'], tone: 'progress' };
    case 'waiting_for_image_creation':
      return { text: 'Reading Label...', actions: [], tone: 'progress' };
    case 'waiting_for_upload':
    case 'waiting_for_multipart_upload': {
      if (!(r.progress > 0))
        return {
          text: 'Queued For Upload',
          detail: r.error ?? undefined,
          actions: ['cancel'],
          tone: 'neutral',
        };
      const percent = Math.min(100, Math.floor(r.progress * 100));
      return {
        text: 'Upload in Progress',
        detail: r.error ?? `${percent}%`,
        percent,
        actions: ['cancel'],
        tone: 'progress',
      };
    }
    case 'waiting_for_stamp':
      return { text: 'Confirming Upload', actions: [], tone: 'progress' };
    case 'waiting_for_processing':
      return { text: 'Waiting for processing...', actions: [], tone: 'progress' };
    case 'done':
      return { text: 'Upload Complete', actions: ['openImage'], tone: 'success' };
    case 'aborted':
      return { text: UploadText.canceled, actions: [], tone: 'neutral' };
    case 'read_error':
      return {
        text: UploadText.invalidFile,
        detail: r.error || UploadText.incompatibleFormat,
        actions: [],
        tone: 'error',
      };
    case 'image_creation_error':
      return {
        text: UploadText.invalidFile,
        detail: UploadText.invalidChannel,
        hover: r.error ?? undefined,
        actions: [],
        tone: 'error',
      };
    default:
      if (LABEL_WAITING.includes(s))
        return { text: 'Label Upload in Progress', actions: [], tone: 'progress' };
      if (LABEL_STATUSES.includes(s))
        return {
          text: UploadText.incomplete,
          detail: UploadText.noLabel,
          actions: ['fixLabel'],
          tone: 'error',
        };
      return { text: s, detail: r.error ?? undefined, actions: [], tone: 'error' };
  }
}

/** Rows that still move on their own (sending, or waiting for the server). */
export function isUploadActive(status: UploadStatus): boolean {
  return [
    'waiting',
    'queued',
    'waiting_for_upload_metadata',
    'waiting_for_multipart_upload_metadata',
    'waiting_for_upload',
    'waiting_for_multipart_upload',
    'waiting_for_stamp',
  ].includes(status);
}

/** Rows whose bytes are still to send: the leave-page warning stays on while any is left (§2.6). */
export const isSending = isUploadActive;

/** Rows that wait for the server's processing (polled every 2.5 s, §9). */
export const isAwaitingServer = (status: UploadStatus): boolean =>
  status === 'waiting_for_stamp' ||
  status === 'waiting_for_processing' ||
  status === 'waiting_for_image_creation';

/** Rows still under way: bytes to send, or the server still working on them (the collapsed bar's count). */
export const isInFlight = (status: UploadStatus): boolean =>
  isSending(status) || isAwaitingServer(status) || LABEL_WAITING.includes(status);

/** Rows whose label names no slide: they wait for the user to enter or create one (§4.3). */
export const needsLabel = (status: UploadStatus): boolean => LABEL_STATUSES.includes(status);

/**
 * Rows the user may clear from the list: finished, canceled or failed, and not holding a cancel the
 * server has yet to hear of (the record carries that DELETE until the network is back).
 */
export const isClearable = (r: { status: UploadStatus; cancelPending?: boolean }): boolean =>
  !isInFlight(r.status) && !r.cancelPending;

/**
 * The row status once the server has the group: the group's and its image's state, mapped to §4.3.
 * `undefined` while the bytes are still being sent (the client's own status stands).
 */
export function statusFromGroup(
  group: UploadGroup,
): { status: UploadStatus; error: string | null } | undefined {
  switch (group.status) {
    case 'uploading':
      return undefined;
    case 'canceled':
      return { status: 'aborted', error: null };
    case 'expired':
      return { status: 'upload_error', error: group.error };
    case 'failed':
      return { status: 'read_error', error: group.error };
  }
  const image = group.image;
  if (!image) return { status: 'waiting_for_stamp', error: null };
  if (image.status === 'created' || image.status === 'processing')
    return { status: 'waiting_for_processing', error: null };
  if (image.status === 'completed') {
    if (image.scanGroupId) return { status: 'done', error: null };
    if (image.code === 'image_label_decode_error') return { status: 'image_label_decode_error', error: null };
    return { status: 'label_does_not_exist', error: null };
  }
  // failed or rejected: the processing job's code when it is one of §4.3's, else processing_error.
  const code = (UploadStatuses as readonly string[]).includes(image.code ?? '')
    ? (image.code as UploadStatus)
    : 'processing_error';
  return { status: code, error: image.desc };
}

// ---------------------------------------------------------------- §9 speed and time left

export interface SpeedSample {
  /** ms (any monotonic clock) */
  at: number;
  /** bytes transferred so far */
  bytes: number;
}

/** Appends a sample and keeps the last SPEED_SAMPLES (a new array; the input is not changed). */
export function pushSample(samples: readonly SpeedSample[], sample: SpeedSample): SpeedSample[] {
  return [...samples, sample].slice(-SPEED_SAMPLES);
}

/** Bytes per second over the last 6 samples; undefined while fewer than two or no time passed. */
export function speedOf(samples: readonly SpeedSample[]): number | undefined {
  const window = samples.slice(-SPEED_SAMPLES);
  if (window.length < 2) return undefined;
  const first = window[0];
  const last = window[window.length - 1];
  const ms = last.at - first.at;
  if (ms <= 0) return undefined;
  return Math.max(0, ((last.bytes - first.bytes) * 1000) / ms);
}

/** §9: 'B/s', 'kB/s', 'MB/s' with 2 decimals, base 1024. */
export function formatSpeed(bytesPerSecond: number): string {
  if (bytesPerSecond < 1024) return `${bytesPerSecond.toFixed(2)} B/s`;
  if (bytesPerSecond < 1024 * 1024) return `${(bytesPerSecond / 1024).toFixed(2)} kB/s`;
  return `${(bytesPerSecond / 1024 / 1024).toFixed(2)} MB/s`;
}

/** §9: 'Estimating...' while the speed is unknown, else 'About N seconds' / 'About M minutes N seconds'. */
export function formatTimeLeft(remainingBytes: number, bytesPerSecond: number | undefined): string {
  if (!bytesPerSecond || !Number.isFinite(bytesPerSecond) || bytesPerSecond <= 0)
    return UploadText.estimating;
  const seconds = Math.max(0, Math.ceil(remainingBytes / bytesPerSecond));
  if (seconds < 60) return `About ${seconds} seconds`;
  return `About ${Math.floor(seconds / 60)} minutes ${seconds % 60} seconds`;
}

/** §9, §5: the warning shows when a known speed is below 100000 bytes/s. */
export const isSlowSpeed = (bytesPerSecond: number | undefined): boolean =>
  bytesPerSecond !== undefined && bytesPerSecond < SLOW_SPEED_BYTES_PER_SECOND;

/** The next chunk size: about CHUNK_TARGET_MS worth at the measured speed, whole MiB, 8–64 MiB. */
export function nextChunkSize(bytesPerSecond: number | undefined): number {
  if (!bytesPerSecond || !Number.isFinite(bytesPerSecond)) return CHUNK_MIN_BYTES;
  const mib = 1024 * 1024;
  const wanted = Math.floor((bytesPerSecond * CHUNK_TARGET_MS) / 1000 / mib) * mib;
  return Math.min(CHUNK_MAX_BYTES, Math.max(CHUNK_MIN_BYTES, wanted));
}

/** Bytes as people read them on the rows: base 1024, 2 decimals. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(2)} kB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(2)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
