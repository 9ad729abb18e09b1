// Runs jobs: `concurrency` loops per process (in-process by default, or `npm run worker` processes
// at scale).
// Handlers register by kind; a handler that throws is retried with backoff; a lease longer than any
// job and renewed while it runs means a crashed worker's job is picked up again, never stuck. An
// attempt counts when a job is taken, so a job that crashes its worker every time ends failed after
// its last attempt instead of starting again on every restart.
import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { jobs } from '../db/schema';
import {
  ABANDONED_TEXT,
  JOBS_CHANNEL,
  claim,
  complete,
  fail,
  failAbandoned,
  nextDue,
  type JobRow,
} from './queue';

export type JobHandler = (job: JobRow, signal: AbortSignal) => Promise<void>;

export interface WorkerOptions {
  db: Db;
  log: FastifyBaseLogger;
  handlers: Record<string, JobHandler>;
  /**
   * The longest an idle worker sleeps. It wakes sooner when a job is enqueued (`listen`, or nudge()
   * in this process) or when the next delayed job or lease end comes (queue.ts nextDue).
   */
  pollMs?: number;
  /** Subscribes to the queue's NOTIFY channel (Database.listen); without it, only nudge() wakes. */
  listen?: (channel: string, onPayload: () => void) => Promise<() => Promise<void>>;
  /** Jobs run at once in this process (default 1). */
  concurrency?: number;
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
  /** The idle lanes' wake-ups. */
  private readonly waiting = new Set<() => void>();
  private readonly abort = new AbortController();
  /** The jobs running here, by id, with their own abort. */
  private readonly current = new Map<string, AbortController>();

  readonly concurrency: number;

  constructor(private readonly opts: WorkerOptions) {
    this.concurrency = Math.max(1, Math.floor(opts.concurrency ?? 1));
  }

  start(): void {
    this.running ??= this.loop();
  }

  /** Whether this process runs jobs (start() was called and stop() was not). */
  get started(): boolean {
    return this.running !== undefined && !this.stopped;
  }

  /** Looks for work now instead of at the next poll (after an enqueue in this process). */
  nudge(): void {
    for (const wake of [...this.waiting]) wake();
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
    const unlisten = await this.opts
      .listen?.(JOBS_CHANNEL, () => this.nudge())
      .catch((error: unknown) => {
        this.opts.log.error({ err: error }, 'job worker could not listen for new jobs; it polls');
        return undefined;
      });
    await this.opts.onStart?.().catch((error: unknown) => {
      this.opts.log.error({ err: error }, 'job worker start hook failed');
    });
    await Promise.all(Array.from({ length: this.concurrency }, () => this.lane(!!unlisten)));
    await unlisten?.();
  }

  /** How long an idle lane sleeps: until the next due job, at most `pollMs` (1 s when not listening). */
  private async idleMs(listening: boolean): Promise<number> {
    const most = listening ? (this.opts.pollMs ?? 30_000) : Math.min(this.opts.pollMs ?? 1000, 1000);
    const due = await nextDue(this.opts.db, Object.keys(this.opts.handlers)).catch(() => undefined);
    if (!due) return most;
    return Math.max(10, Math.min(most, due.getTime() - Date.now() + 10));
  }

  /** One of the `concurrency` loops: takes a job, runs it, and waits for work when none is ready. */
  private async lane(listening: boolean): Promise<void> {
    while (!this.stopped) {
      const did = await this.runOne().catch((error: unknown) => {
        this.opts.log.error({ err: error }, 'job loop error');
        return false;
      });
      if (did || this.stopped) continue;
      const sleepMs = await this.idleMs(listening);
      if (!this.stopped)
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            this.waiting.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, sleepMs);
          this.waiting.add(wake);
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
