// Runs jobs: one loop per process (in-process by default, or `npm run worker` processes at scale).
// Handlers register by kind; a handler that throws is retried with backoff; a lease longer than any
// job and renewed while it runs means a crashed worker's job is picked up again, never stuck. An
// attempt counts when a job is taken, so a job that crashes its worker every time ends failed after
// its last attempt instead of starting again on every restart.
import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { jobs } from '../db/schema';
import { ABANDONED_TEXT, claim, complete, fail, failAbandoned, type JobRow } from './queue';

export type JobHandler = (job: JobRow, signal: AbortSignal) => Promise<void>;

export interface WorkerOptions {
  db: Db;
  log: FastifyBaseLogger;
  handlers: Record<string, JobHandler>;
  /** How often to look for work when idle. */
  pollMs?: number;
  leaseMs?: number;
  /** Called when a job ends for good (its last attempt failed). */
  onGiveUp?: (job: JobRow, error: unknown) => Promise<void>;
  /** Called once when the loop starts (not by drain()): periodic jobs make sure they are scheduled. */
  onStart?: () => Promise<void>;
}

export class JobWorker {
  readonly id = `worker-${crypto.randomUUID().slice(0, 8)}`;
  private stopped = false;
  private running: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly abort = new AbortController();
  /** The jobs running here, by id, with their own abort. */
  private readonly current = new Map<string, AbortController>();

  constructor(private readonly opts: WorkerOptions) {}

  start(): void {
    this.running ??= this.loop();
  }

  /** Looks for work now instead of at the next poll (after an enqueue in this process). */
  nudge(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    this.nudge();
    await this.running;
  }

  /** Runs ready jobs until none is left (tests call this instead of start()). */
  async drain(): Promise<number> {
    let n = 0;
    while (await this.runOne()) n++;
    return n;
  }

  private async loop(): Promise<void> {
    await this.opts.onStart?.().catch((error: unknown) => {
      this.opts.log.error({ err: error }, 'job worker start hook failed');
    });
    while (!this.stopped) {
      const did = await this.runOne().catch((error: unknown) => {
        this.opts.log.error({ err: error }, 'job loop error');
        return false;
      });
      if (!did && !this.stopped)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.opts.pollMs ?? 1000);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
    }
  }

  private async runOne(): Promise<boolean> {
    const leaseMs = this.opts.leaseMs ?? 60_000;
    const kinds = Object.keys(this.opts.handlers);
    // Jobs whose last attempt died with its worker end here, failed with the reason, not run again.
    for (const dead of await failAbandoned(this.opts.db, kinds)) {
      this.opts.log.warn({ job: dead.id, kind: dead.kind, attempts: dead.attempts }, 'job abandoned');
      await this.opts.onGiveUp?.(dead, new Error(dead.lastError ?? ABANDONED_TEXT));
    }
    const job = await claim(this.opts.db, this.id, kinds, leaseMs);
    if (!job) return false;
    // The job's own signal: the worker stopping, or the job canceled (cancel() here, or found no
    // longer ours when the lease is renewed, for a cancel made through another process).
    const own = new AbortController();
    const onStop = () => own.abort();
    this.abort.signal.addEventListener('abort', onStop, { once: true });
    this.current.set(job.id, own);
    const renew = setInterval(() => {
      void this.opts.db
        .update(jobs)
        .set({ lockedUntil: sql`now() + (${leaseMs}::text || ' milliseconds')::interval` })
        .where(and(eq(jobs.id, job.id), eq(jobs.status, 'running'), eq(jobs.lockedBy, this.id)))
        .returning({ id: jobs.id })
        .then((rows) => {
          if (!rows.length) own.abort();
        })
        .catch(() => undefined);
    }, leaseMs / 3);
    try {
      await this.opts.handlers[job.kind](job, own.signal);
      await complete(this.opts.db, job);
    } catch (error) {
      const status = await fail(this.opts.db, job, error);
      this.opts.log.warn({ job: job.id, kind: job.kind, attempt: job.attempts, err: error }, `job ${status}`);
      if (status === 'failed') await this.opts.onGiveUp?.(job, error);
    } finally {
      clearInterval(renew);
      this.current.delete(job.id);
      this.abort.signal.removeEventListener('abort', onStop);
    }
    return true;
  }

  /** Stops the job `id` now if this worker runs it (its row was already canceled: cancelJobs). */
  cancel(id: string): void {
    this.current.get(id)?.abort();
  }
}
