// Expiring abandoned uploads (tus expiration: their bytes are freed, the group becomes 'expired') is a
// job of the database-backed queue, 'expire-uploads', run every UPLOAD_CLEANUP_MINUTES. One job per
// period: its id is derived from the period's start, so however many servers and workers schedule
// it, the row exists once and one worker of the cluster runs it (the queue's SKIP LOCKED claim). The
// schedule lives in the database, so it outlives restarts: a job that was due while everything was
// down runs as soon as a worker starts. Each run schedules the next period before it sweeps, so a
// failing sweep (retried by the queue) never ends the chain; every worker start schedules it too.
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { enqueue } from '../jobs/queue';
import type { JobHandler } from '../jobs/worker';
import type { FileStorage } from '../storage';
import { expireUploads } from './assemble';
import type { UploadSettings } from './config';

export const EXPIRE_UPLOADS = 'expire-uploads';

/** A stable uuid for the job of the period starting at `slotStart` (ms since the epoch). */
export function expiryJobId(slotStart: number): string {
  const h = crypto.createHash('sha256').update(`${EXPIRE_UPLOADS}:${slotStart}`).digest('hex');
  // Shaped as a version-8 (custom) RFC 9562 uuid.
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Makes sure the sweep of the next period (the first period boundary after `now`) is queued; does
 * nothing when it already is, or when the cleanup is turned off (period 0). Returns the job id.
 */
export async function scheduleUploadExpiry(
  db: Db,
  periodMs: number,
  now = new Date(),
): Promise<string | undefined> {
  if (!(periodMs > 0)) return undefined;
  const slotStart = (Math.floor(now.getTime() / periodMs) + 1) * periodMs;
  return enqueue(
    db,
    EXPIRE_UPLOADS,
    { periodStart: new Date(slotStart).toISOString() },
    { id: expiryJobId(slotStart), runAt: new Date(slotStart) },
  );
}

export interface ExpiryJobDeps {
  db: Db;
  storage: FileStorage;
  log: FastifyBaseLogger;
  settings: UploadSettings;
}

export function expireUploadsHandler(deps: ExpiryJobDeps): JobHandler {
  return async (job) => {
    // The next period after this job's own (or after now, when it runs late).
    const own = Date.parse(String(job.payload.periodStart));
    const from = new Date(Number.isFinite(own) ? Math.max(own, Date.now()) : Date.now());
    await scheduleUploadExpiry(deps.db, deps.settings.cleanupMs, from);
    const expired = await expireUploads(
      { db: deps.db, storage: deps.storage, log: deps.log, nudge: () => undefined },
      deps.settings.expiryMs,
    );
    if (expired) deps.log.info({ expired }, 'abandoned uploads expired');
  };
}
