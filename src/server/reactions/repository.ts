// Reactions (hearts on slides) as stored and as the API returns them.
import { eq } from 'drizzle-orm';
import type { Reaction } from '../../api/entities';
import type { Db } from '../db/client';
import type { ScopeColumns } from '../db/read-scope-sql';
import { reactions } from '../db/schema';

export type ReactionRow = typeof reactions.$inferSelect;

/** Readable in the own organization and teams, and by their creator (docs/decisions-access.md). */
export const reactionScope: ScopeColumns = {
  organizationId: reactions.organizationId,
  creatorUserId: reactions.creatorUserId,
};

export const toReaction = (row: ReactionRow): Reaction => ({
  id: row.id,
  creatorUserId: row.creatorUserId,
  organizationId: row.organizationId,
  reactionType: 'heart',
  reference: 'ScanGroup',
  referenceId: row.referenceId,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export async function findReaction(db: Db, id: string): Promise<ReactionRow | undefined> {
  const [row] = await db.select().from(reactions).where(eq(reactions.id, id));
  return row;
}
