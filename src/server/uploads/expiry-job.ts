// Expiring abandoned uploads (tus expiration: their bytes are freed, the group becomes 'expired') is a
// periodic job of the database-backed queue (src/server/jobs/periodic.ts), 'expire-uploads', run
// every UPLOAD_CLEANUP_MINUTES.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { periodicHandler, periodicJobId, schedulePeriodic } from '../jobs/periodic';
import type { JobHandler } from '../jobs/worker';
import type { FileStorage } from '../storage';
import { expireUploads } from './assemble';
import type { UploadSettings } from './config';

export const EXPIRE_UPLOADS = 'expire-uploads';

/** A stable uuid for the job of the period starting at `slotStart` (ms since the epoch). */
export const expiryJobId = (slotStart: number): string => periodicJobId(EXPIRE_UPLOADS, slotStart);

/**
 * Makes sure the sweep of the next period (the first period boundary after `now`) is queued; does
 * nothing when it already is, or when the cleanup is turned off (period 0). Returns the job id.
 */
export const scheduleUploadExpiry = (
  db: Db,
  periodMs: number,
  now = new Date(),
): Promise<string | undefined> => schedulePeriodic(db, EXPIRE_UPLOADS, periodMs, now);

export interface ExpiryJobDeps {
  db: Db;
  storage: FileStorage;
  log: FastifyBaseLogger;
  settings: UploadSettings;
}

export function expireUploadsHandler(deps: ExpiryJobDeps): JobHandler {
  return periodicHandler(deps.db, EXPIRE_UPLOADS, deps.settings.cleanupMs, async () => {
    const expired = await expireUploads(
      { db: deps.db, storage: deps.storage, log: deps.log, nudge: () => undefined },
      deps.settings.expiryMs,
    );
    if (expired) deps.log.info({ expired }, 'abandoned uploads expired');
  });
}
