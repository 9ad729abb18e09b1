// The job kinds this server runs, in one place: adding a kind is one line here. It sits beside
// routes.ts rather than in jobs/, which is the queue alone, so that the queue imports none of the
// folders whose work it runs.
import { and, eq, lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { alignRigidHandler, failAlignment } from './alignments/job';
import type { Db } from './db/client';
import { scanGroups } from './db/schema';
import { PRUNE_IDEMPOTENCY_EVERY_MS, PRUNE_IDEMPOTENCY_KEYS, pruneIdempotencyKeys } from './http/idempotency';
import { followImageOrders, followSlideOrders } from './orders/follow';
import { PROCESS_IMAGE } from './jobs/kinds';
import { markFailed, processImageHandler } from './processing/process-image';
import { recomputeInheritance } from './scan-groups/inheritance';
import { advanceStorage, failStorage } from './scan-groups/storage';
import { maxSlidePixelsFromEnv } from './slides/limits';
import { storageFor } from './storage';
import { uploadSettingsFromEnv } from './uploads/config';
import { EXPIRE_UPLOADS, expireUploadsHandler, scheduleUploadExpiry } from './uploads/expiry-job';
import {
  ALIGN_RIGID,
  KEEP_DONE_JOBS_MS,
  KEEP_FAILED_JOBS_MS,
  PRUNE_FINISHED_JOBS,
  PRUNE_FINISHED_JOBS_EVERY_MS,
  STORAGE_STEP,
  STORAGE_SWEEP_MS,
  SWEEP_ARCHIVES,
} from './jobs/kinds';
import { periodicHandler, schedulePeriodic } from './jobs/periodic';
import { enqueue, pruneFinishedJobs } from './jobs/queue';
import { JobWorker, type WorkerOptions } from './jobs/worker';

export function createJobWorker(deps: {
  db: Db;
  dataDir: string;
  log: FastifyBaseLogger;
  /** Jobs this process runs at once. */
  concurrency?: number;
  /** JOB_LEASE_MS (config.ts). */
  leaseMs: number;
  /** The database's NOTIFY subscription, so an enqueue anywhere wakes this worker. */
  listen?: WorkerOptions['listen'];
}): JobWorker {
  const uploadSettings = uploadSettingsFromEnv();
  // The same storage (and instance) as the upload routes: DATA_DIR/files, or S3 when S3_* is set.
  const storage = storageFor({ dataDir: deps.dataDir, expiryMs: uploadSettings.expiryMs });
  return new JobWorker({
    db: deps.db,
    log: deps.log,
    // Processing a big slide takes minutes: the lease is renewed while it runs, and only a dead worker lets it lapse.
    leaseMs: deps.leaseMs,
    concurrency: deps.concurrency,
    listen: deps.listen,
    handlers: {
      [PROCESS_IMAGE]: processImageHandler({
        ...deps,
        storage,
        maxSlidePixels: maxSlidePixelsFromEnv(),
        // A linked image inherits its slide's assignees, so whoever may see the slide sees the image.
        // Its slide's orders follow the image (processing, fulfilled: src/server/orders/follow.ts).
        onLinked: async (db, scanGroupId) => {
          await recomputeInheritance(db, { scanGroupIds: [scanGroupId] });
          await followSlideOrders(db, [scanGroupId]);
        },
      }),
      [ALIGN_RIGID]: alignRigidHandler(deps),
      [STORAGE_STEP]: async (job) => {
        await deps.db.transaction((tx) => advanceStorage(tx, String(job.payload.scanGroupId)));
      },
      // Idempotency keys older than a week are forgotten, hourly, once per cluster.
      [PRUNE_IDEMPOTENCY_KEYS]: periodicHandler(
        deps.db,
        PRUNE_IDEMPOTENCY_KEYS,
        PRUNE_IDEMPOTENCY_EVERY_MS,
        async () => {
          const pruned = await pruneIdempotencyKeys(deps.db);
          if (pruned) deps.log.info({ pruned }, 'idempotency keys pruned');
        },
      ),
      // Slides whose scheduled archiveAt has come start archiving, every minute, once per cluster.
      [SWEEP_ARCHIVES]: periodicHandler(deps.db, SWEEP_ARCHIVES, STORAGE_SWEEP_MS, async () => {
        const started = await sweepScheduledArchives(deps.db);
        if (started) deps.log.info({ started }, 'scheduled archives started');
      }),
      // Finished jobs are forgotten after their keeping time, hourly, once per cluster.
      [PRUNE_FINISHED_JOBS]: periodicHandler(
        deps.db,
        PRUNE_FINISHED_JOBS,
        PRUNE_FINISHED_JOBS_EVERY_MS,
        async () => {
          const pruned = await pruneFinishedJobs(deps.db, KEEP_DONE_JOBS_MS, KEEP_FAILED_JOBS_MS);
          if (pruned) deps.log.info({ pruned }, 'finished jobs pruned');
        },
      ),
      // Abandoned uploads expire once per cluster, every UPLOAD_CLEANUP_MINUTES (src/server/uploads/expiry-job.ts).
      [EXPIRE_UPLOADS]: expireUploadsHandler({
        db: deps.db,
        storage,
        log: deps.log,
        settings: uploadSettings,
      }),
    },
    onStart: async () => {
      await scheduleUploadExpiry(deps.db, uploadSettings.cleanupMs);
      await schedulePeriodic(deps.db, PRUNE_IDEMPOTENCY_KEYS, PRUNE_IDEMPOTENCY_EVERY_MS);
      await schedulePeriodic(deps.db, SWEEP_ARCHIVES, STORAGE_SWEEP_MS);
      await schedulePeriodic(deps.db, PRUNE_FINISHED_JOBS, PRUNE_FINISHED_JOBS_EVERY_MS);
    },
    async onGiveUp(job, error) {
      if (job.kind === PROCESS_IMAGE) {
        await markFailed(deps.db, String(job.payload.imageId), 'processing_error', error);
        await followImageOrders(deps.db, String(job.payload.imageId));
      }
      if (job.kind === STORAGE_STEP)
        await deps.db.transaction((tx) => failStorage(tx, String(job.payload.scanGroupId)));
      if (job.kind === ALIGN_RIGID) await failAlignment(deps.db, job);
    },
  });
}

/** Starts the archive of active slides whose scheduled archiveAt has come (the SWEEP_ARCHIVES job). */
export async function sweepScheduledArchives(db: Db): Promise<number> {
  const due = await db
    .select({ id: scanGroups.id })
    .from(scanGroups)
    .where(and(eq(scanGroups.storageStatus, 'active'), lte(scanGroups.archiveAt, new Date())));
  for (const { id } of due) {
    await db.transaction((tx) => advanceStorage(tx, id));
    await enqueue(db, STORAGE_STEP, { scanGroupId: id });
  }
  return due.length;
}
