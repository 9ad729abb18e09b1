// Enqueue, claim, finish and fail jobs in the database. Works on PGlite and PostgreSQL alike, and
// across processes: a claim is one UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED).
import crypto from 'node:crypto';
import { and, eq, gte, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobs } from '../db/schema';

export type JobRow = typeof jobs.$inferSelect;

/**
 * Queues a job. With `opts.id` the job is queued once: when a job with that id already exists (queued,
 * running or done), nothing is added (periodic jobs derive their id from their period).
 */
export async function enqueue(
  db: Db,
  kind: string,
  payload: Record<string, unknown>,
  opts: { maxAttempts?: number; runAt?: Date; id?: string } = {},
): Promise<string> {
  const id = opts.id ?? crypto.randomUUID();
  await db
    .insert(jobs)
    .values({ id, kind, payload, maxAttempts: opts.maxAttempts ?? 3, runAt: opts.runAt ?? new Date() })
    .onConflictDoNothing({ target: jobs.id });
  // Wakes the idle workers of every process when the enqueuing transaction commits.
  await db.execute(sql`SELECT pg_notify(${JOBS_CHANNEL}, ${kind})`);
  return id;
}

/** The channel on which enqueue() wakes idle workers (LISTEN in each worker process). */
export const JOBS_CHANNEL = 'tessera_jobs';

/**
 * When the next job of `kinds` becomes claimable without anyone enqueuing: a queued job's run_at (a
 * retry's backoff, a delayed or periodic job) or a running job's lease end (a dead worker's job).
 */
export async function nextDue(db: Db, kinds: string[]): Promise<Date | undefined> {
  const [row] = await db
    .select({
      at: sql<
        Date | string | null
      >`min(CASE WHEN ${jobs.status} = 'queued' THEN ${jobs.runAt} ELSE ${jobs.lockedUntil} END)`,
    })
    .from(jobs)
    .where(and(inArray(jobs.kind, kinds), inArray(jobs.status, ['queued', 'running'])));
  return row?.at ? new Date(row.at) : undefined;
}

/** Claims the oldest ready job of the given kinds (or one whose lease ran out) for `leaseMs`. */
export async function claim(
  db: Db,
  workerId: string,
  kinds: string[],
  leaseMs: number,
): Promise<JobRow | undefined> {
  const kindList = sql.join(
    kinds.map((k) => sql`${k}`),
    sql`, `,
  );
  const rows = await db.execute(sql`
    UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = ${workerId},
      locked_until = now() + (${leaseMs}::text || ' milliseconds')::interval, updated_at = now()
    WHERE id = (
      SELECT id FROM jobs
      WHERE kind IN (${kindList})
        AND ((status = 'queued' AND run_at <= now())
          OR (status = 'running' AND locked_until < now() AND attempts < max_attempts))
      ORDER BY run_at
      FOR UPDATE SKIP LOCKED
      LIMIT 1
    )
    RETURNING id`);
  const id = (rows as unknown as { rows?: Array<{ id: string }> }).rows?.[0]?.id;
  if (!id) return undefined;
  const [job] = await db.select().from(jobs).where(eq(jobs.id, id));
  return job;
}

/** Why a job whose every attempt ended with its worker is not run again. */
export const ABANDONED_TEXT =
  'Processing stopped with the server on every attempt (it crashed or restarted while the job ran); it is not run again';

/**
 * Ends the jobs of `kinds` whose worker died during their last attempt (the attempt was counted when
 * the job was taken, so a job that crashes its worker every time ends here instead of starting again
 * on every restart). Returns them, failed, for their onGiveUp.
 */
export async function failAbandoned(db: Db, kinds: string[]): Promise<JobRow[]> {
  return db
    .update(jobs)
    .set({
      status: 'failed',
      lastError: ABANDONED_TEXT,
      lockedBy: null,
      lockedUntil: null,
      updatedAt: new Date(),
    })
    .where(
      and(
        inArray(jobs.kind, kinds),
        eq(jobs.status, 'running'),
        lt(jobs.lockedUntil, sql`now()`),
        gte(jobs.attempts, jobs.maxAttempts),
      ),
    )
    .returning();
}

/** The job as this worker took it: still running under its lock (not canceled, not taken over). */
const stillOurs = (job: Pick<JobRow, 'id' | 'lockedBy'>) =>
  and(
    eq(jobs.id, job.id),
    eq(jobs.status, 'running'),
    job.lockedBy ? eq(jobs.lockedBy, job.lockedBy) : undefined,
  );

/** Marks the job done, unless it stopped being this worker's meanwhile (canceled: it stays failed). */
export async function complete(db: Db, job: Pick<JobRow, 'id' | 'lockedBy'>): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'done', lockedBy: null, lockedUntil: null, updatedAt: new Date() })
    .where(stillOurs(job));
}

/**
 * Schedules a retry with backoff, or marks the job failed after its last attempt. Returns the new
 * status, or 'gone' when the job stopped being this worker's meanwhile (canceled, or taken over).
 */
export async function fail(db: Db, job: JobRow, error: unknown): Promise<'queued' | 'failed' | 'gone'> {
  const message = error instanceof Error ? error.message : String(error);
  const last = job.attempts >= job.maxAttempts;
  const updated = await db
    .update(jobs)
    .set({
      status: last ? 'failed' : 'queued',
      lastError: message.slice(0, 2000),
      lockedBy: null,
      lockedUntil: null,
      runAt: new Date(Date.now() + 2 ** job.attempts * 1000),
      updatedAt: new Date(),
    })
    .where(stillOurs(job))
    .returning({ id: jobs.id });
  if (!updated.length) return 'gone';
  return last ? 'failed' : 'queued';
}

/**
 * Cancels the queued or running jobs of `kind` whose payload has `key` = `value` (failed, with
 * `reason`): they are never taken again, and a running one stops at its worker's next look. Returns
 * their ids.
 */
export async function cancelJobs(
  db: Db,
  kind: string,
  key: string,
  value: string,
  reason: string,
): Promise<string[]> {
  const rows = await db
    .update(jobs)
    .set({ status: 'failed', lastError: reason, lockedBy: null, lockedUntil: null, updatedAt: new Date() })
    .where(
      and(
        eq(jobs.kind, kind),
        inArray(jobs.status, ['queued', 'running']),
        sql`${jobs.payload} ->> ${key} = ${value}`,
      ),
    )
    .returning({ id: jobs.id });
  return rows.map((r) => r.id);
}

/** Deletes done jobs older than `keepDoneMs` and failed ones older than `keepFailedMs`. Returns how many. */
export async function pruneFinishedJobs(
  db: Db,
  keepDoneMs: number,
  keepFailedMs: number,
  now = new Date(),
): Promise<number> {
  const before = (ms: number) => new Date(now.getTime() - ms);
  const gone = await db
    .delete(jobs)
    .where(
      or(
        and(eq(jobs.status, 'done'), lt(jobs.updatedAt, before(keepDoneMs))),
        and(eq(jobs.status, 'failed'), lt(jobs.updatedAt, before(keepFailedMs))),
      ),
    )
    .returning({ id: jobs.id });
  return gone.length;
}
