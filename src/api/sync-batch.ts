// POST /v2/sync/batch (the outbox's replay, docs/api.md "Batches"): several mutations in one round
// trip, each exactly as if sent alone — its own Idempotency-Key, checks and answer — applied in order.
import { z } from 'zod';

/** Under /v2. */
export const SYNC_BATCH_PATH = '/sync/batch';

/** Entries per batch at most. */
export const SYNC_BATCH_MAX = 100;

export const SyncBatchEntry = z.object({
  /** Sent as the entry's Idempotency-Key (the outbox entry's id). */
  id: z.string().min(1).max(200),
  method: z.enum(['POST', 'PATCH', 'PUT', 'DELETE']),
  /** The single call's path under /v2, with its query string: '/studies/<id>'. */
  path: z.string().min(2).max(2000).startsWith('/'),
  /** The single call's JSON body; absent when it has none. */
  body: z.unknown().optional(),
});
export type SyncBatchEntry = z.infer<typeof SyncBatchEntry>;

export const SyncBatchBody = z.object({ entries: z.array(SyncBatchEntry).min(1).max(SYNC_BATCH_MAX) });
export type SyncBatchBody = z.infer<typeof SyncBatchBody>;

/** What the single call would have answered: its status and its JSON body (null when empty). */
export const SyncBatchAnswer = z.object({
  id: z.string(),
  status: z.number().int(),
  body: z.unknown(),
});
export type SyncBatchAnswer = z.infer<typeof SyncBatchAnswer>;

/** One answer per entry, in the entries' order. */
export const SyncBatchResult = z.object({ results: z.array(SyncBatchAnswer) });
export type SyncBatchResult = z.infer<typeof SyncBatchResult>;
