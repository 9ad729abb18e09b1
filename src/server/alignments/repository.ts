// Rigid alignments as stored and as the API returns them, their read-scope columns, and their
// creation (the 'align-rigid' job, job.ts, takes them on from there).
import { eq } from 'drizzle-orm';
import type { AlignmentRigid } from '../../api/entities';
import type { Db } from '../db/client';
import type { ScopeColumns } from '../db/read-scope-sql';
import { alignmentRigids } from '../db/schema';

export type AlignmentRow = typeof alignmentRigids.$inferSelect;

/** Readable in the own organization and teams, and by the creator (docs/decisions.md). */
export const alignmentScope: ScopeColumns = {
  organizationId: alignmentRigids.organizationId,
  creatorUserId: alignmentRigids.creatorUserId,
};

export function toAlignment(row: AlignmentRow): AlignmentRigid {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    creatorUserId: row.creatorUserId,
    organizationId: row.organizationId,
    type: row.type,
    status: row.status as AlignmentRigid['status'],
    error: row.error,
    outputData: row.outputData ?? null,
    inputData: row.inputData ?? null,
  };
}

export async function findAlignment(db: Db, id: string): Promise<AlignmentRow | undefined> {
  const [row] = await db.select().from(alignmentRigids).where(eq(alignmentRigids.id, id));
  return row;
}

export async function insertAlignment(
  db: Db,
  row: typeof alignmentRigids.$inferInsert,
): Promise<AlignmentRow> {
  const [created] = await db.insert(alignmentRigids).values(row).returning();
  return created;
}
