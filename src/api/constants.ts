// Business constants and limits of spec §9: one place, imported by server and app.

export const REPORT_MESSAGE_MAX = 2000;
export const STUDY_NAME_MAX = 100;
export const TAG_MAX_LENGTH = 16;
export const TAGS_PER_STUDY_MAX = 30;
export const FIX_UPLOAD_SEARCH_MAX = 100;

/** Access token lifetime: about 15 minutes. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** Refresh token and auth cookie lifetime: 7 days. */
export const REFRESH_TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Tokens are refreshed 2 × 20 s before the access token expires (§9). */
export const TOKEN_REFRESH_MARGIN_MS = 2 * 20_000;
export const GOOGLE_NONCE_REFRESH_MS = 90_000;
