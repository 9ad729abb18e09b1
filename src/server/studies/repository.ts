// Studies as stored and as the API returns them (spec §3), their read-scope columns, and their writes.
import { eq } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { Study } from '../../api/entities';
import type { StudyStatus } from '../../api/enums';
import type { Db } from '../db/client';
import type { ScopeColumns } from '../db/read-scope-sql';
import { activities, studies, userViewerSettings } from '../db/schema';
import { assertReadable } from '../http/guard';
import { activityRow, type ActivityEntry } from '../activities/record';

export type StudyRow = typeof studies.$inferSelect;

export const studyScope: ScopeColumns = {
  organizationId: studies.organizationId,
  creatorUserId: studies.creatorUserId,
  assigneeUserIds: studies.assigneeUserIds,
  assigneeOrgIds: studies.assigneeOrgIds,
  inheritedAssignees: studies.inheritedAssignees,
};

export function toStudy(row: StudyRow): Study {
  return {
    id: row.id,
    name: row.name,
    tags: row.tags,
    scanGroupIds: row.scanGroupIds,
    organizationId: row.organizationId,
    status: row.status as StudyStatus,
    creatorUserId: row.creatorUserId,
    assigneeUserIds: row.assigneeUserIds,
    assigneeOrgIds: row.assigneeOrgIds,
    inheritedAssignees: row.inheritedAssignees,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    viewerOptions: row.viewerOptions ?? null,
  };
}

/** `lock`: inside a transaction, hold the row until it ends (set fields merge without lost updates). */
export async function findStudy(db: Db, id: string, lock = false): Promise<StudyRow | undefined> {
  const q = db.select().from(studies).where(eq(studies.id, id));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

/** The study and its entity, or 404 'Study not found' when missing or not readable by the caller. */
export async function readableStudy(db: Db, request: FastifyRequest, id: string, lock = false) {
  const row = await findStudy(db, id, lock);
  const entity = row && toStudy(row);
  assertReadable(request, 'Study', entity, 'Study');
  return { row: row as StudyRow, entity };
}

/**
 * Inserts a study and its activity in one statement (two data-modifying CTEs, atomic like a
 * transaction): for a create with nothing else to write, one round trip instead of four (BEGIN, two
 * inserts, COMMIT).
 */
export async function insertStudyWithActivity(
  db: Db,
  row: typeof studies.$inferInsert,
  activity: ActivityEntry,
): Promise<StudyRow> {
  const inserted = db.$with('inserted').as(db.insert(studies).values(row).returning());
  const recorded = db.$with('recorded').as(db.insert(activities).values(activityRow(activity)));
  const [created] = await db.with(inserted, recorded).select().from(inserted);
  return created;
}

export async function insertStudy(db: Db, row: typeof studies.$inferInsert): Promise<StudyRow> {
  const [inserted] = await db.insert(studies).values(row).returning();
  return inserted;
}

/** Writes `set` (plain values or SQL of the stored ones) to the study; the row as it is now. */
export async function updateStudy(
  db: Db,
  id: string,
  set: PgUpdateSetSource<typeof studies>,
): Promise<StudyRow> {
  const [updated] = await db.update(studies).set(set).where(eq(studies.id, id)).returning();
  return updated;
}

/** Deletes the study with the viewer settings users kept for it (they reference it). */
export async function deleteStudy(db: Db, id: string): Promise<void> {
  await db.delete(userViewerSettings).where(eq(userViewerSettings.studyId, id));
  await db.delete(studies).where(eq(studies.id, id));
}
