// Job kinds enqueued from routes, and their timing: names in one place for routes and handlers.
export const STORAGE_STEP = 'storage-step';
/** Archiving or reactivating takes a moment of storage work; the card refetches after about 1 s (§4.2). */
export const STORAGE_STEP_DELAY_MS = 1500;
/** How often slides whose scheduled archiveAt has come are started. */
export const STORAGE_SWEEP_MS = 60_000;
