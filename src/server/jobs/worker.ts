// Runs jobs: one loop per process (in-process by default, or `npm run worker` processes at scale).
// Handlers register by kind; a handler that throws is retried with backoff; a lease longer than any
// job and renewed while it runs means a crashed worker's job is picked up again, never stuck.
import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { jobs } from '../db/schema';
import { claim, complete, fail, type JobRow } from './queue';

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
    const job = await claim(this.opts.db, this.id, Object.keys(this.opts.handlers), leaseMs);
    if (!job) return false;
    const renew = setInterval(() => {
      void this.opts.db
        .update(jobs)
        .set({ lockedUntil: sql`now() + (${leaseMs}::text || ' milliseconds')::interval` })
        .where(eq(jobs.id, job.id))
        .catch(() => undefined);
    }, leaseMs / 3);
    try {
      await this.opts.handlers[job.kind](job, this.abort.signal);
      await complete(this.opts.db, job.id);
    } catch (error) {
      const status = await fail(this.opts.db, job, error);
      this.opts.log.warn({ job: job.id, kind: job.kind, attempt: job.attempts, err: error }, `job ${status}`);
      if (status === 'failed') await this.opts.onGiveUp?.(job, error);
    } finally {
      clearInterval(renew);
    }
    return true;
  }
}
