// Reactions (hearts on slides) as stored and as the API returns them, and their writes.
import { and, eq } from 'drizzle-orm';
import type { Reaction } from '../../api/entities';
import type { Db } from '../db/client';
import type { ScopeColumns } from '../db/read-scope-sql';
import { reactions } from '../db/schema';

export type ReactionRow = typeof reactions.$inferSelect;
export type NewReactionRow = typeof reactions.$inferInsert;

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

/**
 * Adds the heart unless the user already gave this one (unique index): the inserted row, or
 * undefined when it was there already.
 */
export async function insertReaction(db: Db, row: NewReactionRow): Promise<ReactionRow | undefined> {
  const [inserted] = await db.insert(reactions).values(row).onConflictDoNothing().returning();
  return inserted;
}

/** The user's heart of this type on this reference, as stored. */
export async function findSameReaction(
  db: Db,
  row: Pick<ReactionRow, 'creatorUserId' | 'reactionType' | 'reference' | 'referenceId'>,
): Promise<ReactionRow | undefined> {
  const [existing] = await db
    .select()
    .from(reactions)
    .where(
      and(
        eq(reactions.creatorUserId, row.creatorUserId),
        eq(reactions.reactionType, row.reactionType),
        eq(reactions.reference, row.reference),
        eq(reactions.referenceId, row.referenceId),
      ),
    );
  return existing;
}

export async function deleteReaction(db: Db, id: string): Promise<void> {
  await db.delete(reactions).where(eq(reactions.id, id));
}
