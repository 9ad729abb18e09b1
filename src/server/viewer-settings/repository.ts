// Users' viewer settings as stored and as the API returns them, their read scope (only their own),
// and their writes: settings are merged key by key into the stored ones, never replaced.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { UserViewerSettings } from '../../api/entities';
import type { Db } from '../db/client';
import { userViewerSettings } from '../db/schema';

export type Row = typeof userViewerSettings.$inferSelect;

export const toSettings = (row: Row): UserViewerSettings => ({
  id: row.id,
  studyId: row.studyId,
  creatorUserId: row.creatorUserId,
  viewerSettings: row.viewerSettings,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const viewerSettingsScope = { creatorUserId: userViewerSettings.creatorUserId };
const merge = (patch: Record<string, unknown>) =>
  sql`${userViewerSettings.viewerSettings} || ${JSON.stringify(patch)}::jsonb`;

export async function mineFor(db: Db, userId: string, studyId: string | null): Promise<Row | undefined> {
  const [row] = await db
    .select()
    .from(userViewerSettings)
    .where(
      and(
        eq(userViewerSettings.creatorUserId, userId),
        studyId ? eq(userViewerSettings.studyId, studyId) : isNull(userViewerSettings.studyId),
      ),
    );
  return row;
}

export async function findViewerSettings(db: Db, id: string): Promise<Row | undefined> {
  const [row] = await db.select().from(userViewerSettings).where(eq(userViewerSettings.id, id));
  return row;
}

export async function insertViewerSettings(
  db: Db,
  row: typeof userViewerSettings.$inferInsert,
): Promise<Row> {
  const [saved] = await db.insert(userViewerSettings).values(row).returning();
  return saved;
}

/** Merges `patch` into the stored settings (top-level keys); the row as it is now. */
export async function mergeViewerSettings(db: Db, id: string, patch: Record<string, unknown>): Promise<Row> {
  const [saved] = await db
    .update(userViewerSettings)
    .set({ viewerSettings: merge(patch) })
    .where(eq(userViewerSettings.id, id))
    .returning();
  return saved;
}
