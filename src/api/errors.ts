// Every coded error the API answers, with its HTTP status and message template, in one table (as
// fastify's lib/errors.js): the server builds its error answers from it (src/server/http/errors.ts),
// the app recognises them by it (ApiError in src/app/lib/api.ts), docs/api.md lists it, and
// tests/unit/error-catalogue.test.ts checks that the three agree and that the spec's texts are here.
//
// An entry's name is the `code` the API answers, unless the entry says otherwise: several refusals
// share a generic code (BAD_REQUEST, CONFLICT, FORBIDDEN) and are told apart by their message, and a
// few answers carry no code at all (`code: null`). A message naming a field starts with it
// ("body.review.imageId: No such image is available to you"): its template takes `field`.
// Imports only constants (./constants, the demo lab's name), so every module of src/api may import it.
import { ANNOTATION_CLASSES_MAX, GEOJSON_IMPORT_MAX_BYTES, TAGS_PER_STUDY_MAX } from './constants';
import { DEMO_ORGANIZATION } from './first-run';

interface ErrorEntry {
  readonly status: number;
  /** The code answered when it is not the entry's name; null: the answer has no code. */
  readonly code?: string | null;
  /** The text, or its template over named parameters. */
  readonly message: string | ((params: never) => string);
}

/** Texts that several entries answer (same words, another status or code). */
const SESSION_INVALID = 'Your session is not valid. Please sign in again.';
const NO_SUCH_IMAGE = 'No such image is available to you';
const NO_SUCH_USER = 'No such user is available to you';
const NO_SUCH_ORGANIZATION = 'No such organization is available to you';
const TAG_EXISTS = 'This tag already exists';
const HAS_SCAN_GROUP = 'The study already has this scan group.';
const SLIDE_ARCHIVED = 'This slide is archived. Reactivate it first.';

type Field = { field: string };
type Id = { id: string };

export const ERRORS = {
  // Any request
  VALIDATION: {
    status: 400,
    message: ({ field, problem }: Field & { problem: string }) => `${field}: ${problem}`,
  },
  INVALID_JSON: { status: 400, message: 'The request body is not valid JSON' },
  EMPTY_JSON_BODY: {
    status: 400,
    code: 'FST_ERR_CTP_EMPTY_JSON_BODY',
    message: 'The request body is empty but must be JSON',
  },
  NOT_FOUND: { status: 404, message: ({ what }: { what: string }) => `${what} not found` },
  NO_SUCH_CALL: {
    status: 404,
    code: 'NOT_FOUND',
    message: ({ method, path }: { method: string; path: string }) => `No such call: ${method} ${path}`,
  },
  INTERNAL: { status: 500, message: 'Something went wrong on the server. Please try again.' },
  CROSS_ORIGIN: { status: 403, message: 'This request came from a page outside Tessera and was refused' },
  IDEMPOTENCY_KEY_TOO_LONG: {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'Idempotency-Key is at most 200 characters',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    message: 'This Idempotency-Key was already used for a different request',
  },
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    message: 'A request with this Idempotency-Key is still running. Retry later.',
  },

  // Sessions and sign-in (§8 'User is not logged in'; the others are ours, docs/decisions.md)
  NOT_LOGGED_IN: { status: 401, message: 'User is not logged in' },
  INVALID_TOKEN: { status: 401, message: SESSION_INVALID },
  INVALID_REFRESH_TOKEN: { status: 401, message: SESSION_INVALID },
  REFRESH_TOKEN_REUSED: {
    status: 401,
    message: 'This session was ended for your safety. Please sign in again.',
  },
  INVALID_CREDENTIALS: { status: 401, message: 'Incorrect email or password' },
  USER_INACTIVE: { status: 401, message: 'This account is not active' },
  TOO_MANY_SIGN_INS: {
    status: 429,
    code: 'TOO_MANY_REQUESTS',
    message: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  },
  TOO_MANY_MAILS: {
    status: 429,
    code: 'TOO_MANY_REQUESTS',
    message: 'Too many e-mails were asked for. Please wait an hour and try again.',
  },
  BOT_CHECK_FAILED: { status: 400, message: 'The bot check failed. Please try again.' },
  WRONG_PASSWORD: { status: 400, message: 'The current password is incorrect' },
  INVALID_RESET_TOKEN: { status: 400, message: 'This reset link is invalid or has expired' },
  INVALID_ACTIVATION_TOKEN: { status: 400, message: 'This activation link is invalid or has expired' },
  MISSING_POLICIES: { status: 403, message: 'You do not have access to this application' },
  GOOGLE_DISABLED: { status: 400, message: 'Google sign-in is not configured' },
  GOOGLE_TOKEN_INVALID: { status: 401, message: 'The Google sign-in could not be verified' },

  // Permission denials (§5), answered by every route through src/access
  DENIED_DELETE_OWN_ORGANIZATION: {
    status: 403,
    code: 'FORBIDDEN',
    message: 'You cannot delete your own organization',
  },
  DENIED_DELETE_YOURSELF: { status: 403, code: 'FORBIDDEN', message: 'You cannot delete yourself' },
  DENIED_SCAN_GROUPS_FOR_OTHERS: {
    status: 403,
    code: 'FORBIDDEN',
    message: 'You can only create scan groups for yourself',
  },
  DENIED_SCAN_ORDERS_FOR_OTHERS: {
    status: 403,
    code: 'FORBIDDEN',
    message: 'You can only create scan orders for yourself',
  },
  DENIED_REVIEWS_FOR_OTHERS: {
    status: 403,
    code: 'FORBIDDEN',
    message: 'You can only create reviews for yourself',
  },
  DENIED_ANNOTATIONS_FOR_OTHERS: {
    status: 403,
    code: 'FORBIDDEN',
    message: 'You can only create annotations for yourself',
  },
  DENIED_STUDIES_FOR_OTHERS: {
    status: 403,
    code: 'FORBIDDEN',
    message: 'You can only create studies for yourself',
  },
  DENIED_IMAGES_FOR_OTHERS: {
    status: 403,
    code: 'FORBIDDEN',
    message: 'You can only create images for yourself',
  },
  DENIED_ALIGNMENTS_FOR_OTHERS: {
    status: 403,
    code: 'FORBIDDEN',
    message: 'You can only create alignments for yourself',
  },
  DENIED_INACTIVE_IMAGE_VIEW: {
    status: 403,
    code: 'FORBIDDEN',
    message: 'You can only view active images',
  },
  DENIED_DOWNLOAD_INACTIVE: {
    status: 403,
    code: 'FORBIDDEN',
    message: 'You can only download active images',
  },
  DENIED_UPLOAD_INACTIVE: { status: 403, code: 'FORBIDDEN', message: 'You can only upload active images' },
  DENIED_STATUS_INACTIVE: {
    status: 403,
    code: 'FORBIDDEN',
    message: 'You can only update status of active images',
  },
  DENIED_DISPLAY_STATUS_INACTIVE: {
    status: 403,
    code: 'FORBIDDEN',
    message: 'You can only update display status of active images',
  },
  DENIED_CREATE: { status: 403, code: 'FORBIDDEN', message: "You don't have permissions to create" },
  DENIED_CREATE_LABEL: {
    status: 403,
    code: 'FORBIDDEN',
    message: 'You dont have permission to create a new slide label.',
  },
  DENIED_CREATE_ORDER: {
    status: 403,
    code: 'FORBIDDEN',
    message: 'You dont have permission to create a new order.',
  },
  DENIED_REQUEST_REVIEW: {
    status: 403,
    code: 'FORBIDDEN',
    message: 'You do not have permission to request a review',
  },
  DENIED_CREATE_STUDY: {
    status: 403,
    code: 'FORBIDDEN',
    message: 'You do not have permission to create a study',
  },
  DENIED: { status: 403, code: 'FORBIDDEN', message: 'You do not have permission to do this' },

  // Organizations and users
  NO_PARENT: { status: 400, message: 'parentId: no such organization' },
  NOT_A_POLICY: {
    status: 400,
    message: ({ field, name }: Field & { name: string }) => `${field}: "${name}" is not a policy`,
  },
  POLICY_NOT_AVAILABLE: {
    status: 400,
    message: ({ field, name }: Field & { name: string }) =>
      `${field}: "${name}" is not available to this organization`,
  },
  POLICY_NOT_IN_PARENT: {
    status: 400,
    code: 'POLICY_NOT_AVAILABLE',
    message: ({ name }: { name: string }) =>
      `availablePolicies: "${name}" is not available to the parent organization`,
  },
  SUPER_ADMIN_ONLY: { status: 403, message: 'Only a super admin can grant the superAdmin policy' },
  EXPIRY_ABOVE_MAX: {
    status: 400,
    message: 'scanGroupSettings.defaultActiveExpiryDays: must not be more than maxDefaultActiveExpiryDays',
  },
  ADMIN_NOT_MEMBER: {
    status: 400,
    message: 'adminUserId: the administrator must be a user of this organization tree',
  },
  NOT_EMPTY: { status: 409, message: 'This organization still has teams or users: remove them first' },
  NO_ORGANIZATION: { status: 400, message: 'organizationId: no such organization' },
  EMAIL_TAKEN: { status: 409, message: 'A user with this e-mail already exists' },
  USER_LIMIT: {
    status: 403,
    message: ({ limit }: { limit: number }) =>
      `This organization has reached its limit of ${limit} user${limit === 1 ? '' : 's'}. Ask your administrator to raise it.`,
  },
  ALREADY_ACTIVE: { status: 409, message: 'This user has already activated their account.' },
  DEMO_SUPER_ADMIN_ONLY: {
    status: 403,
    code: 'FORBIDDEN',
    message: 'Only a super administrator can load the demo lab',
  },
  DEMO_LOADED: { status: 409, message: `The demo lab (${DEMO_ORGANIZATION}) is loaded already` },

  // Organs, pipelines, predictors
  ORGAN_EXISTS: { status: 409, message: 'An organ with this name already exists for this animal' },
  ORGAN_IN_USE: { status: 409, message: 'This organ is still used by slides, pipelines or predictors' },
  PIPELINE_IN_USE: { status: 409, message: 'This pipeline is still used by scan orders' },
  PREDICTOR_IN_USE: { status: 409, message: 'This predictor is still used by pipelines' },
  NO_SUCH_ORGAN: {
    status: 400,
    code: 'NO_SUCH_REFERENCE',
    message: ({ field }: Field) => `${field}: no such organ`,
  },
  NO_SUCH_PREDICTOR: {
    status: 400,
    code: 'NO_SUCH_REFERENCE',
    message: ({ id }: Id) => `predictorIds: no such predictor ${id}`,
  },
  NO_SUCH_ORGANIZATION: {
    status: 400,
    code: 'NO_SUCH_REFERENCE',
    message: ({ field, id }: Field & Id) => `${field}: no such organization ${id}`,
  },

  // Scan orders and their lists
  NO_SUCH_SLIDE: { status: 400, code: 'NO_SUCH_REFERENCE', message: 'scanGroupId: no such slide' },
  NO_SUCH_PIPELINE: { status: 400, code: 'NO_SUCH_REFERENCE', message: 'pipelineId: no such pipeline' },
  NO_SUCH_STUDY: {
    status: 400,
    code: 'NO_SUCH_REFERENCE',
    message: ({ id }: Id) => `studyIds: no such study ${id}`,
  },
  NO_SUCH_SCAN_ORDER: {
    status: 400,
    code: 'NO_SUCH_REFERENCE',
    message: ({ id }: Id) => `scanOrderIds: no such scan order ${id}`,
  },
  NO_SUCH_ASSIGNEE_USER: {
    status: 400,
    code: 'NO_SUCH_REFERENCE',
    message: ({ id }: Id) => `assigneeUserIds: no such user ${id}`,
  },

  // Slides (scan groups) and their images
  SLIDE_ARCHIVED: { status: 409, message: SLIDE_ARCHIVED },
  ARCHIVED_SLIDE_CHANGED: { status: 409, code: 'CONFLICT', message: SLIDE_ARCHIVED },
  SLIDE_BEING_REACTIVATED: { status: 409, code: 'CONFLICT', message: 'This slide is being reactivated' },
  ARCHIVE_DATE_PAST: {
    status: 400,
    code: 'BAD_REQUEST',
    message: ({ field }: Field) => `${field}: must be a later date`,
  },
  UNKNOWN_ORGAN: {
    status: 400,
    code: 'BAD_REQUEST',
    message: ({ field }: Field) => `${field}: No such organ`,
  },
  ANIMAL_MISMATCH: {
    status: 400,
    code: 'BAD_REQUEST',
    message: ({ field }: Field) => `${field}: The organ belongs to another animal`,
  },
  SLIDE_TOO_MANY_TAGS: {
    status: 400,
    code: 'BAD_REQUEST',
    message: `A slide can have at most ${TAGS_PER_STUDY_MAX} tags`,
  },
  NOT_PROCESSING: { status: 409, message: 'Only an image waiting for or in processing can be canceled' },
  LINK_INVALID: { status: 403, message: 'This download link is invalid or has expired' },
  FILE_MISSING: { status: 404, code: 'NOT_FOUND', message: 'The file is not available' },
  RANGE_NOT_SATISFIABLE: { status: 416, code: null, message: 'The requested range is not in the file' },
  /** §8's upload list status, also the answer to a file of no known format. */
  INCOMPATIBLE_FILE_FORMAT: { status: 415, message: 'Incompatible File Format' },

  // Studies (§5 'This tag already exists', 'The study already has this scan group.')
  TAG_REPEATED: { status: 400, code: 'BAD_REQUEST', message: TAG_EXISTS },
  TAG_EXISTS: { status: 409, code: 'CONFLICT', message: TAG_EXISTS },
  STUDY_TOO_MANY_TAGS: {
    status: 400,
    code: 'BAD_REQUEST',
    message: `A study can have at most ${TAGS_PER_STUDY_MAX} tags`,
  },
  SCAN_GROUP_REPEATED: { status: 400, code: 'BAD_REQUEST', message: HAS_SCAN_GROUP },
  SCAN_GROUP_IN_STUDY: { status: 409, code: 'CONFLICT', message: HAS_SCAN_GROUP },
  USER_UNAVAILABLE: {
    status: 400,
    code: 'BAD_REQUEST',
    message: ({ field }: Field) => `${field}: ${NO_SUCH_USER}`,
  },
  ORGANIZATION_UNAVAILABLE: {
    status: 400,
    code: 'BAD_REQUEST',
    message: ({ field }: Field) => `${field}: ${NO_SUCH_ORGANIZATION}`,
  },
  SLIDE_UNAVAILABLE: {
    status: 400,
    code: 'BAD_REQUEST',
    message: ({ field }: Field) => `${field}: No such slide is available to you`,
  },
  ARCHIVED_SLIDE_IN_STUDY: {
    status: 409,
    code: 'CONFLICT',
    message: 'Archived slides cannot be added to a study',
  },
  FIELD_FIXED: {
    status: 400,
    code: 'BAD_REQUEST',
    message: ({ field }: Field) => `${field}: cannot be changed`,
  },

  // Reviews and QC
  REVIEW_FIELD_FIXED: {
    status: 400,
    code: 'BAD_REQUEST',
    message: ({ field }: Field) => `${field}: cannot be changed once the review exists`,
  },
  QC_MISMATCH: {
    status: 400,
    code: 'BAD_REQUEST',
    message: ({ field }: Field) => `${field}: qc is true exactly for QC reviews (type qc)`,
  },
  QC_NEEDS_RESULT: {
    status: 400,
    code: 'BAD_REQUEST',
    message: ({ field }: Field) => `${field}: A QC review needs a result: accepted, rejected or flagged`,
  },
  REVIEWER_REQUIRED: {
    status: 400,
    code: 'BAD_REQUEST',
    message: ({ field }: Field) => `${field}: Choose a reviewer for this review`,
  },
  UNKNOWN_IMAGE: { status: 400, message: ({ field }: Field) => `${field}: ${NO_SUCH_IMAGE}` },
  UNKNOWN_REVIEWER: {
    status: 400,
    code: 'UNKNOWN_USER',
    message: ({ field }: Field) => `${field}: No such reviewer is available to you`,
  },
  UNKNOWN_USER: { status: 400, message: ({ field }: Field) => `${field}: ${NO_SUCH_USER}` },
  UNKNOWN_ORGANIZATION: { status: 400, message: ({ field }: Field) => `${field}: ${NO_SUCH_ORGANIZATION}` },
  UNKNOWN_STUDY: {
    status: 400,
    message: ({ field }: Field) => `${field}: No such study is available to you`,
  },
  DUPLICATE_REVIEW: {
    status: 409,
    message: 'This reviewer already has a review of this image in this review group',
  },
  OWN_REVIEWER: {
    status: 400,
    message: ({ field }: Field) => `${field}: You cannot be the reviewer of your own request`,
  },
  REVIEWER_CANNOT_QC: {
    status: 400,
    code: 'REVIEWER_CANNOT_ACT',
    message: ({ field }: Field) => `${field}: This person cannot give QC results: choose a QC reviewer`,
  },
  REVIEWER_CANNOT_REVIEW: {
    status: 400,
    code: 'REVIEWER_CANNOT_ACT',
    message: ({ field }: Field) => `${field}: This person cannot complete reviews: choose another reviewer`,
  },
  QC_STATUS_EXPECTED: {
    status: 400,
    code: 'STATUS_NOT_OF_TYPE',
    message: ({ field }: Field) => `${field}: A QC review takes a QC result: accepted, rejected or flagged`,
  },
  STANDARD_STATUS_EXPECTED: {
    status: 400,
    code: 'STATUS_NOT_OF_TYPE',
    message: ({ field }: Field) =>
      `${field}: A standard review is completed, not accepted, rejected or flagged (those are QC results)`,
  },
  QC_GROUP: {
    status: 400,
    code: 'GROUP_OF_OTHER_KIND',
    message: ({ field }: Field) =>
      `${field}: This review group is a quality check: only QC reviews and comments join it`,
  },
  STANDARD_GROUP: {
    status: 400,
    code: 'GROUP_OF_OTHER_KIND',
    message: ({ field }: Field) =>
      `${field}: This review group is a standard review: only standard reviews and comments join it`,
  },
  GROUP_OF_OTHER_STUDY: {
    status: 400,
    message: ({ field }: Field) => `${field}: This review group belongs to another study`,
  },
  IMAGE_NOT_IN_STUDY: {
    status: 400,
    message: ({ field }: Field) => `${field}: This image is not on a slide of the study`,
  },
  QC_DECIDED_FIRST: {
    status: 409,
    message: ({ who, result }: { who: string; result: string }) =>
      `${who} marked this image ${result} first, so your decision was not saved.`,
  },

  // Annotations, their classes and GeoJSON imports; alignments
  UNKNOWN_REVIEW: {
    status: 400,
    message: ({ field }: Field) => `${field}: No such review is available to you`,
  },
  TOO_MANY_CLASSES: {
    status: 400,
    message: `An organization has at most ${ANNOTATION_CLASSES_MAX} annotation classes`,
  },
  DUPLICATE_CLASS: {
    status: 409,
    message: ({ name }: { name: string }) => `A class named "${name}" already exists`,
  },
  GEOJSON_TOO_LARGE: {
    status: 413,
    message: `The file is larger than ${GEOJSON_IMPORT_MAX_BYTES / 1024 / 1024} MB`,
  },
  /** The import's problems, each naming its feature (importErrorMessage in src/api/annotation-geojson.ts). */
  INVALID_GEOJSON: { status: 400, message: ({ problems }: { problems: string }) => problems },
  ALIGNMENT_SAME_IMAGE: {
    status: 400,
    code: 'BAD_REQUEST',
    message: ({ field }: Field) => `${field}: The reference and target images must differ`,
  },

  // Tiles
  /** The slide's pixels under this tile could not be read (a damaged part of the file). */
  TILE_UNREADABLE: { status: 500, message: 'This part of the slide could not be read' },
  /** A tile far from full resolution of a slide without its own pyramid, before ours is written. */
  TILE_NOT_READY: { status: 503, message: 'This tile is not ready yet: the slide is still being processed' },

  // Uploads (tus): our texts where the spec is silent (docs/decisions.md)
  TUS_LENGTH_REQUIRED: { status: 400, code: 'BAD_REQUEST', message: 'Upload-Length is required' },
  TUS_LENGTH_INVALID: { status: 400, code: 'BAD_REQUEST', message: 'Upload-Length must be a byte count' },
  TUS_METADATA_INVALID: {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'Upload-Metadata is not valid tus metadata',
  },
  TUS_GROUP_SIZE_DIFFERS: {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'metadata.groupSize: differs from the group’s',
  },
  /** A field of the Upload-Metadata header that UploadMetadata (src/api/uploads.ts) refuses (after the entries of its fixed texts, which recogniseError tries first). */
  TUS_METADATA_FIELD: {
    status: 400,
    code: 'BAD_REQUEST',
    message: ({ path, problem }: { path: string; problem: string }) => `metadata.${path}: ${problem}`,
  },
  TUS_VERSION: { status: 412, message: 'Tus-Resumable Required' },
  TUS_OFFSET_INVALID: { status: 400, code: 'TUS', message: 'Invalid upload-offset' },
  TUS_CONTENT_TYPE_INVALID: { status: 400, code: 'TUS', message: 'Invalid content-type' },
  CHECKSUM_MALFORMED: {
    status: 400,
    code: 'BAD_CHECKSUM',
    message: 'Upload-Checksum must be "<algorithm> <base64 digest>"',
  },
  CHECKSUM_ALGORITHM: {
    status: 400,
    code: 'BAD_CHECKSUM',
    message: ({ algorithm }: { algorithm: string }) => `Unsupported checksum algorithm: ${algorithm}`,
  },
  CHECKSUM_NOT_SHA1: { status: 400, code: 'BAD_CHECKSUM', message: 'Upload-Checksum is not a SHA-1 digest' },
  TOO_LARGE: {
    status: 413,
    message: ({ max }: { max: string }) => `The file is larger than the ${max} this server accepts`,
  },
  MRXS_NEEDS_FOLDER: {
    status: 415,
    code: 'INCOMPATIBLE_FILE_FORMAT',
    message:
      'An .mrxs slide needs its data folder: drop the folder holding the .mrxs file and its data folder',
  },
  /** An upload group's error once its files are in (the upload rows' `error`), not an answer. */
  MRXS_MISSING_DATA: {
    status: 415,
    code: 'INCOMPATIBLE_FILE_FORMAT',
    message: ({ what }: { what: string }) => `The .mrxs data folder has no ${what}`,
  },
  GROUP_TAKEN: { status: 409, code: 'CONFLICT', message: 'This upload group belongs to another upload' },
  GROUP_CLOSED: { status: 409, message: 'This upload group is no longer accepting files' },
  GROUP_FULL: { status: 409, code: 'CONFLICT', message: 'This upload group already has all of its files' },
  DUPLICATE_PART: { status: 409, code: 'CONFLICT', message: 'This file is already part of the upload group' },
  UPLOAD_COMPLETE: { status: 409, message: 'This upload is already complete' },
  UPLOAD_FINISHED: { status: 409, message: 'This upload has already finished' },
  UPLOAD_GONE: { status: 410, message: 'This upload was canceled or has expired' },
  NOT_COMPLETE: { status: 409, message: 'The upload has not finished yet' },
  LABEL_NOT_FOUND: { status: 404, message: 'No slide has this label ID' },
  /** A full disk, answered to a PATCH (and as tus's plain-text body): says what happens next. */
  STORAGE_FULL: {
    status: 507,
    message: 'The server has no room for this upload right now. It will continue when space is free.',
  },

  // Sync
  BAD_CURSOR: { status: 400, code: 'BAD_REQUEST', message: 'cursor is not one this server gave out' },
  NOT_SYNCABLE: {
    status: 400,
    code: 'BAD_REQUEST',
    message: ({ kind }: { kind: string }) => `${kind} cannot be synced yet`,
  },
  NOT_BATCHABLE: { status: 400, code: 'BAD_REQUEST', message: 'This call cannot be sent in a batch' },
} as const satisfies Record<string, ErrorEntry>;

/** The name of an entry of the catalogue. */
export type ErrorCode = keyof typeof ERRORS;

/** The parameters an entry's template takes: none for a fixed text. */
export type ErrorParams<C extends ErrorCode> = (typeof ERRORS)[C]['message'] extends (
  params: infer P,
) => string
  ? [params: P]
  : [];

/** The text of entry `name`, its template filled with `params`. */
export function errorText<C extends ErrorCode>(name: C, ...params: ErrorParams<C>): string {
  const message: ErrorEntry['message'] = ERRORS[name].message;
  return typeof message === 'string' ? message : (message as (p: unknown) => string)(params[0]);
}

/** The status and code the API answers for entry `name` (code undefined: the answer has none). */
export function errorAnswer(name: ErrorCode): { status: number; code: string | undefined } {
  const entry: ErrorEntry = ERRORS[name];
  return { status: entry.status, code: entry.code === null ? undefined : (entry.code ?? name) };
}

/** The template with its parameters named: "{field}: No such organ". */
export function errorTemplate(name: ErrorCode): string {
  const message: ErrorEntry['message'] = ERRORS[name].message;
  if (typeof message === 'string') return message;
  const named = new Proxy({}, { get: (_, key) => `{${String(key)}}` });
  return (message as (p: unknown) => string)(named);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
let patterns: Array<{ name: ErrorCode; status: number; code: string | undefined; text: RegExp }> | undefined;

/**
 * Which entry an error answer is, or undefined for one the catalogue does not hold (a library's
 * validation problem, a server of another version). By status and code when one entry has them and
 * a fixed text (whose wording may differ on another server), else by the message as well.
 */
export function recogniseError(
  status: number,
  code: string | undefined,
  message: string,
): ErrorCode | undefined {
  patterns ??= (Object.keys(ERRORS) as ErrorCode[]).map((name) => ({
    name,
    ...errorAnswer(name),
    text: new RegExp(`^${escapeRegExp(errorTemplate(name)).replace(/\\\{\w+\\\}/g, '.+')}$`, 's'),
  }));
  const candidates = patterns.filter((p) => p.status === status && p.code === code);
  const only = candidates.length === 1 ? candidates[0].name : undefined;
  if (only && code !== undefined && typeof ERRORS[only].message === 'string') return only;
  return candidates.find((p) => p.text.test(message))?.name;
}

/** The catalogue's text of an error answer when it is an entry of fixed text, else the answer's own. */
export function catalogueText(status: number, code: string | undefined, message: string): string {
  const name = recogniseError(status, code, message);
  const text: ErrorEntry['message'] | undefined = name && ERRORS[name].message;
  return typeof text === 'string' ? text : message;
}
