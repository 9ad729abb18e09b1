// Requests and responses of /v2/reactions (spec §7): hearts on slides, one per user per slide.
import { z } from 'zod';
import { Id } from './common';
import { Reaction } from './entities';
import { pageParams, repeated } from './lists';

const ReactionCreate = z.strictObject({
  reactionType: z.literal('heart'),
  reference: z.literal('ScanGroup'),
  /** The slide's id. */
  referenceId: Id,
  /** Only ever the caller; filled in when absent. */
  creatorUserId: Id.optional(),
});
/** The fields as §7 shows them, or wrapped as {reaction:{...}} as the outbox sends every create. */
export const CreateReactionBody = z.preprocess(
  (v) =>
    v && typeof v === 'object' && !Array.isArray(v) && 'reaction' in v
      ? (v as { reaction: unknown }).reaction
      : v,
  ReactionCreate,
);
export type CreateReactionBody = z.input<typeof CreateReactionBody>;

/** The app always sends reactionType=heart (§7); scanGroupId is the slide the heart is on. */
export const ReactionListQuery = z.object({
  ...pageParams(500, 100),
  orderBy: z.enum(['createdAt']).default('createdAt'),
  reactionType: z.literal('heart').optional(),
  scanGroupId: repeated(Id),
  creatorUserId: repeated(Id),
});

export const ReactionResult = z.object({ result: Reaction });
