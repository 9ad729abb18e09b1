// Studies as stored and as the API returns them (spec §3), and their read-scope columns.
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Study } from '../../api/entities';
import type { StudyStatus } from '../../api/enums';
import type { Db } from '../db/client';
import type { ScopeColumns } from '../db/read-scope-sql';
import { studies } from '../db/schema';
import { assertReadable } from '../http/guard';

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
