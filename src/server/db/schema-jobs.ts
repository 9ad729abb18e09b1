// The durable job queue (DESIGN "jobs"): rows claimed with FOR UPDATE SKIP LOCKED under a lease, so a
// worker that crashes mid-job leaves it to be claimed again when the lease runs out — never stuck.
import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, updatedAt } from './columns';

export const jobs = pgTable(
  'jobs',
  {
    id: uuid().primaryKey(),
    kind: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    /** queued → running → done | failed (after maxAttempts) */
    status: text().notNull().default('queued'),
    attempts: integer().notNull().default(0),
    maxAttempts: integer().notNull().default(3),
    runAt: at().notNull().defaultNow(),
    lockedBy: text(),
    lockedUntil: at(),
    lastError: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('jobs_ready_idx').on(t.status, t.runAt)],
);
