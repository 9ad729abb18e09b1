// Rate limits held in the database (rate_counters), so every server process counts against the same
// number. Each hit is one UPSERT … RETURNING count, so concurrent calls cannot all read the same old
// count: a call is counted before it is checked, and only those within the limit go on. What is
// counted: sign-in attempts (sign-in.ts) and the calls that send e-mail (mail.ts).
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateCounters } from '../db/schema';

export interface Limit {
  max: number;
  windowSeconds: number;
}

/** Counters whose window ended this long ago are deleted now and then (the longest window is a day). */
const PRUNE_AFTER_SECONDS = 2 * 24 * 60 * 60;
/** One hit in this many also prunes, so the table stays small without a job of its own. */
const PRUNE_EVERY = 200;

/**
 * Counts one call against `key` and says whether it is within `limit`. A fixed window: the first hit
 * after the window has passed starts a new one at 1.
 */
export async function hit(db: Db, key: string, limit: Limit): Promise<boolean> {
  const expired = sql`${rateCounters.windowStart} <= now() - make_interval(secs => ${limit.windowSeconds})`;
  const [row] = await db
    .insert(rateCounters)
    .values({ key, windowStart: sql`now()`, count: 1 })
    .onConflictDoUpdate({
      target: rateCounters.key,
      set: {
        windowStart: sql`CASE WHEN ${expired} THEN now() ELSE ${rateCounters.windowStart} END`,
        count: sql`CASE WHEN ${expired} THEN 1 ELSE ${rateCounters.count} + 1 END`,
      },
    })
    .returning({ count: rateCounters.count });
  if (Math.floor(Math.random() * PRUNE_EVERY) === 0)
    await db
      .delete(rateCounters)
      .where(sql`${rateCounters.windowStart} < now() - make_interval(secs => ${PRUNE_AFTER_SECONDS})`);
  return (row?.count ?? 1) <= limit.max;
}

/** Gives back one counted call (a sign-in that succeeded is not a failure). */
export async function refund(db: Db, key: string): Promise<void> {
  await db
    .update(rateCounters)
    .set({ count: sql`greatest(${rateCounters.count} - 1, 0)` })
    .where(eq(rateCounters.key, key));
}

/** An account's e-mail as its counters' keys hold it. */
export const normalEmail = (email: string) => email.trim().toLowerCase();
