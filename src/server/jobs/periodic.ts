// Periodic jobs of the database-backed queue (expiring abandoned uploads, pruning idempotency keys):
// one job per period, its id derived from the kind and the period's start, so however many servers
// and workers schedule it the row exists once and one worker of the cluster runs it (the queue's SKIP
// LOCKED claim). The schedule lives in the database and outlives restarts: a job that was due while
// everything was down runs as soon as a worker starts. Each run schedules the next period before its
// work, so a failing run (retried by the queue) never ends the chain; every worker start schedules
// it too.
import crypto from 'node:crypto';
import type { Db } from '../db/client';
import { enqueue } from './queue';
import type { JobHandler } from './worker';

/** A stable uuid for the job of `kind` for the period starting at `slotStart` (ms since the epoch). */
export function periodicJobId(kind: string, slotStart: number): string {
  const h = crypto.createHash('sha256').update(`${kind}:${slotStart}`).digest('hex');
  // Shaped as a version-8 (custom) RFC 9562 uuid.
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Makes sure the job of `kind` for the next period (the first period boundary after `now`) is queued;
 * does nothing when it already is, or when the period is 0 (turned off). Returns the job id.
 */
export async function schedulePeriodic(
  db: Db,
  kind: string,
  periodMs: number,
  now = new Date(),
): Promise<string | undefined> {
  if (!(periodMs > 0)) return undefined;
  const slotStart = (Math.floor(now.getTime() / periodMs) + 1) * periodMs;
  return enqueue(
    db,
    kind,
    { periodStart: new Date(slotStart).toISOString() },
    { id: periodicJobId(kind, slotStart), runAt: new Date(slotStart) },
  );
}

/** The handler of a periodic job: schedules the next period (after its own, or now when late), then works. */
export function periodicHandler(
  db: Db,
  kind: string,
  periodMs: number,
  work: () => Promise<void>,
): JobHandler {
  return async (job) => {
    const own = Date.parse(String(job.payload.periodStart));
    const from = new Date(Number.isFinite(own) ? Math.max(own, Date.now()) : Date.now());
    await schedulePeriodic(db, kind, periodMs, from);
    await work();
  };
}
