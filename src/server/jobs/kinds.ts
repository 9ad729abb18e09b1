// Job kinds enqueued from routes, and their timing: names in one place for routes and handlers.
export const STORAGE_STEP = 'storage-step';
/** Reads an uploaded image, makes it viewable, then writes its pyramid (processing/process-image.ts). */
export const PROCESS_IMAGE = 'process-image';
/** Computes a requested rigid alignment (src/server/alignments/job.ts). */
export const ALIGN_RIGID = 'align-rigid';
/** Archiving or reactivating takes a moment of storage work; the card refetches after about 1 s (§4.2). */
export const STORAGE_STEP_DELAY_MS = 1500;
/** The periodic job that starts the archive of slides whose scheduled archiveAt has come, and how often. */
export const SWEEP_ARCHIVES = 'sweep-scheduled-archives';
export const STORAGE_SWEEP_MS = 60_000;
/** The periodic job that forgets finished jobs, how often it runs and how long each outcome is kept. */
export const PRUNE_FINISHED_JOBS = 'prune-finished-jobs';
export const PRUNE_FINISHED_JOBS_EVERY_MS = 60 * 60_000;
/** Done jobs are kept a week; failed ones a month, for whoever looks into why a slide failed. */
export const KEEP_DONE_JOBS_MS = 7 * 24 * 60 * 60_000;
export const KEEP_FAILED_JOBS_MS = 30 * 24 * 60 * 60_000;
