// Enqueue, claim, finish and fail jobs in the database. Works on PGlite and PostgreSQL alike, and
// across processes: a claim is one UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED).
import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
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
  return id;
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
        AND ((status = 'queued' AND run_at <= now()) OR (status = 'running' AND locked_until < now()))
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

export async function complete(db: Db, id: string): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'done', lockedBy: null, lockedUntil: null, updatedAt: new Date() })
    .where(eq(jobs.id, id));
}

/** Schedules a retry with backoff, or marks the job failed after its last attempt. Returns the new status. */
export async function fail(db: Db, job: JobRow, error: unknown): Promise<'queued' | 'failed'> {
  const message = error instanceof Error ? error.message : String(error);
  const last = job.attempts >= job.maxAttempts;
  await db
    .update(jobs)
    .set({
      status: last ? 'failed' : 'queued',
      lastError: message.slice(0, 2000),
      lockedBy: null,
      lockedUntil: null,
      runAt: new Date(Date.now() + 2 ** job.attempts * 1000),
      updatedAt: new Date(),
    })
    .where(eq(jobs.id, job.id));
  return last ? 'failed' : 'queued';
}
