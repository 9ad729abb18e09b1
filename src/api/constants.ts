// Business constants and limits of spec §9: one place, imported by server and app.

export const REPORT_MESSAGE_MAX = 2000;
export const STUDY_NAME_MAX = 100;
export const TAG_MAX_LENGTH = 16;
export const TAGS_PER_STUDY_MAX = 30;
export const FIX_UPLOAD_SEARCH_MAX = 100;
/** A person's name, on the account page, in the user modal and on the server. */
export const USER_NAME_MAX = 100;
/** The free-text notes of slide labels and scan orders. */
export const NOTES_MAX = 2000;
/** Annotation classes one organization may define (its teams' lists are their own). */
export const ANNOTATION_CLASSES_MAX = 200;
/** Our limit for one GeoJSON import of annotations: the file's bytes. */
export const GEOJSON_IMPORT_MAX_BYTES = 20 * 1024 * 1024;

/** Access token lifetime: about 15 minutes. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** Refresh token and auth cookie lifetime: 7 days. */
export const REFRESH_TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Tokens are refreshed 2 × 20 s before the access token expires (§9). */
export const TOKEN_REFRESH_MARGIN_MS = 2 * 20_000;
export const GOOGLE_NONCE_REFRESH_MS = 90_000;

/**
 * A refresh token presented again this soon after its exchange (another tab refreshing at the same
 * moment) answers the same pair as the first use; later, reuse ends the session (docs/security.md).
 */
export const REFRESH_REUSE_GRACE_SECONDS = 10;
/** How long a server process trusts its last look at a session before asking the database again. */
export const SESSION_CHECK_CACHE_SECONDS = 5;
/**
 * How long a server process trusts its last decision that a user may read an image's tiles before
 * asking the database again (server/processing/tile-access.ts): the bound within which a change made
 * through another process (share removed, image archived or deleted, role changed) refuses tiles.
 */
export const ACCESS_DECISION_CACHE_SECONDS = 5;

/** Sign-in attempts (docs/security.md "Limits and enumeration"): each counted before it is checked. */
export const LOGIN_LIMITS = {
  /** Per account and address: the owner elsewhere is not locked out by someone else's guesses. */
  perAccountAddress: { max: 5, windowSeconds: 15 * 60 },
  /** Per address, over every account it tries. */
  perAddress: { max: 20, windowSeconds: 15 * 60 },
  /** Per account from all addresses together: the slower ceiling on guesses spread over many. */
  perAccount: { max: 50, windowSeconds: 24 * 60 * 60 },
} as const;

/** Calls that send e-mail: forgot-password, register-request, invitation resend, bug reports. */
export const MAIL_LIMITS = {
  perAccount: { max: 5, windowSeconds: 60 * 60 },
  perAddress: { max: 20, windowSeconds: 60 * 60 },
} as const;
