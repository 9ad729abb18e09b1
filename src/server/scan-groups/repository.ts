// Slides (scan groups) as stored and as the API returns them (spec §3), their read-scope columns, and
// the generation of their short simpleId, and their writes.
import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { ScanGroup } from '../../api/entities';
import type { ScanGroupStatus, StorageStatus } from '../../api/enums';
import { SIMPLE_ID_ALPHABET, SIMPLE_ID_LENGTH } from '../../api/scan-groups';
import type { Db } from '../db/client';
import { images, reactions, scanGroups, studies } from '../db/schema';
import type { ScopeColumns } from '../db/read-scope-sql';
import { assertReadable } from '../http/guard';

export type ScanGroupRow = typeof scanGroups.$inferSelect;

export const scanGroupScope: ScopeColumns = {
  organizationId: scanGroups.organizationId,
  creatorUserId: scanGroups.creatorUserId,
  assigneeUserIds: scanGroups.assigneeUserIds,
  assigneeOrgIds: scanGroups.assigneeOrgIds,
  inheritedAssignees: scanGroups.inheritedAssignees,
};

export function toScanGroup(row: ScanGroupRow): ScanGroup {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    creatorUserId: row.creatorUserId,
    organizationId: row.organizationId,
    status: row.status as ScanGroupStatus,
    simpleId: row.simpleId,
    name: row.name,
    notes: row.notes,
    LISInfo: row.lisInfo ?? null,
    organId: row.organId,
    animal: row.animal,
    tags: row.tags,
    storageStatus: row.storageStatus as StorageStatus,
    archiveAt: row.archiveAt?.toISOString() ?? null,
    storageHistory: row.storageHistory,
    lastUploadDate: row.lastUploadDate?.toISOString() ?? null,
    assigneeUserIds: row.assigneeUserIds,
    assigneeOrgIds: row.assigneeOrgIds,
    inheritedAssignees: row.inheritedAssignees,
  };
}

/** `lock`: inside a transaction, hold the row until it ends (set fields merge without lost updates). */
export async function findScanGroup(db: Db, id: string, lock = false): Promise<ScanGroupRow | undefined> {
  const q = db.select().from(scanGroups).where(eq(scanGroups.id, id));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

/** The slide and its entity, or 404 'Slide not found' when missing or not readable by the caller. */
export async function readableScanGroup(db: Db, request: FastifyRequest, id: string, lock = false) {
  const row = await findScanGroup(db, id, lock);
  const entity = row && toScanGroup(row);
  assertReadable(request, 'ScanGroup', entity, 'Slide');
  return { row: row as ScanGroupRow, entity };
}

/** A random simpleId. 256 = 8 × 32, so `byte % 32` picks every character equally often. */
export function generateSimpleId(): string {
  return [...crypto.randomBytes(SIMPLE_ID_LENGTH)]
    .map((b) => SIMPLE_ID_ALPHABET[b % SIMPLE_ID_ALPHABET.length])
    .join('');
}

/**
 * Inserts a slide with a fresh simpleId, retrying on the (rare) clash with the unique index.
 * `values` is the row without its simpleId.
 */
export async function insertWithSimpleId(
  db: Db,
  values: Omit<typeof scanGroups.$inferInsert, 'simpleId'>,
): Promise<ScanGroupRow> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const [row] = await db
      .insert(scanGroups)
      .values({ ...values, simpleId: generateSimpleId() })
      .onConflictDoNothing({ target: scanGroups.simpleId })
      .returning();
    if (row) return row;
  }
  throw new Error('scan-groups: could not find a free simpleId');
}

/** Writes `set` (plain values or SQL of the stored ones) to the slide; the row as it is now. */
export async function updateScanGroup(
  db: Db,
  id: string,
  set: PgUpdateSetSource<typeof scanGroups>,
): Promise<ScanGroupRow> {
  const [updated] = await db.update(scanGroups).set(set).where(eq(scanGroups.id, id)).returning();
  return updated;
}

/** Studies drop the slide; its images stay with their organization, without a slide. */
export async function detachScanGroup(db: Db, id: string): Promise<void> {
  await db
    .update(studies)
    .set({ scanGroupIds: sql`array_remove(${studies.scanGroupIds}, ${id}::text)` })
    .where(sql`${studies.scanGroupIds} @> ARRAY[${id}::text]`);
  await db
    .update(images)
    .set({ scanGroupId: null, inheritedAssignees: [] })
    .where(eq(images.scanGroupId, id));
}

/** Deletes the hearts on the slide; their ids. */
export async function deleteScanGroupReactions(db: Db, id: string): Promise<string[]> {
  const hearts = await db
    .delete(reactions)
    .where(and(eq(reactions.reference, 'ScanGroup'), eq(reactions.referenceId, id)))
    .returning({ id: reactions.id });
  return hearts.map((h) => h.id);
}

/** An image of the slide was uploaded (or labelled onto it) just now. */
export async function stampLastUpload(db: Db, id: string): Promise<void> {
  await db.update(scanGroups).set({ lastUploadDate: new Date() }).where(eq(scanGroups.id, id));
}

export async function deleteScanGroup(db: Db, id: string): Promise<void> {
  await db.delete(scanGroups).where(eq(scanGroups.id, id));
}
