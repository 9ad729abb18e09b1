// The pull side of sync (DESIGN "Pull"): one feed per mirrored kind, paged by an opaque cursor over
// the change sequence, with the ids deleted since; and the full list of readable ids, so the local mirror
// can drop rows the user lost access to.
import { z } from 'zod';

export const SYNC_KINDS = [
  'studies',
  'scan-groups',
  'images',
  'scan-orders',
  'scan-order-lists',
  'reviews',
  'review-groups',
  'organizations',
  'users',
  'organs',
  'pipelines',
  'predictors',
  'reactions',
] as const;
export type SyncKind = (typeof SYNC_KINDS)[number];

export const SYNC_PAGE_MAX = 500;

export const SyncQuery = z.object({
  cursor: z.string().max(300).optional(),
  limit: z.coerce.number().int().min(1).max(SYNC_PAGE_MAX).default(200),
});

export const SyncPage = z.object({
  result: z.array(z.record(z.string(), z.unknown())),
  deletedIds: z.array(z.string()),
  /** Pass back to continue; unchanged when nothing new. */
  cursor: z.string(),
  hasMore: z.boolean(),
});
export type SyncPage = z.infer<typeof SyncPage>;

export const SyncIds = z.object({ ids: z.array(z.string()) });
