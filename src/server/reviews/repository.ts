// Reviews and review groups as the API returns them (spec §3), the lookups the review, annotation
// and alignment routes share ("is this image / user there and readable by the caller"), and the
// review writes.
import { eq } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { asSubject } from '../../access';
import type { Review, ReviewGroup } from '../../api/entities';
import type { StorageStatus } from '../../api/enums';
import type { Db } from '../db/client';
import { images, reviewGroups, reviews, users } from '../db/schema';
import { accessOf } from '../http/guard';

export type ReviewRow = typeof reviews.$inferSelect;
export type ReviewGroupRow = typeof reviewGroups.$inferSelect;
export type ImageRow = typeof images.$inferSelect;

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export function toReview(row: ReviewRow): Review {
  return {
    id: row.id,
    creatorUserId: row.creatorUserId,
    organizationId: row.organizationId,
    reviewGroupUUID: row.reviewGroupUUID,
    studyId: row.studyId,
    imageId: row.imageId,
    reviewerId: row.reviewerId,
    status: row.status as Review['status'],
    comment: row.comment,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    type: row.type as Review['type'],
    qc: row.qc,
    visibility: row.visibility as Review['visibility'],
    assigneeUserIds: row.assigneeUserIds,
    assigneeOrgIds: row.assigneeOrgIds,
    inheritedAssignees: row.inheritedAssignees,
  };
}

/** The counts are plain numbers; PostgreSQL's count() arrives as a string or bigint on some drivers. */
export function toReviewGroup(row: {
  id: string;
  total: number | string;
  completed: number | string;
  accepted: number | string;
  rejected: number | string;
  flagged: number | string;
  pending: number | string;
  createdAt: Date | string;
  updatedAt: Date | string;
}): ReviewGroup {
  return {
    id: row.id,
    total: Number(row.total),
    completed: Number(row.completed),
    accepted: Number(row.accepted),
    rejected: Number(row.rejected),
    flagged: Number(row.flagged),
    pending: Number(row.pending),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export async function findReview(db: Db, id: string): Promise<ReviewRow | undefined> {
  const [row] = await db.select().from(reviews).where(eq(reviews.id, id));
  return row;
}

/** The image, when it exists and the caller may read it (§6.2 "readable when assigned"). */
export async function readableImage(
  db: Db,
  request: FastifyRequest,
  id: string,
): Promise<ImageRow | undefined> {
  const [row] = await db.select().from(images).where(eq(images.id, id));
  if (!row) return undefined;
  const subject = asSubject('Image', {
    id: row.id,
    organizationId: row.organizationId,
    creatorUserId: row.creatorUserId,
    inheritedAssignees: row.inheritedAssignees,
    storageStatus: row.storageStatus as StorageStatus,
    scanGroupId: row.scanGroupId ?? undefined,
  });
  return accessOf(request).ability.can('read', subject) ? row : undefined;
}

/** Whether a user with this id exists and the caller may read them (own organization, teams, parents). */
export async function readableUser(db: Db, request: FastifyRequest, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id, organizationId: users.organizationId })
    .from(users)
    .where(eq(users.id, id));
  return !!row && accessOf(request).ability.can('read', asSubject('User', row));
}

/** A unique index refused the write (PostgreSQL 23505), however the driver wrapped the error. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** A unique violation (one review per image per reviewer in a group) is the caller's to answer. */
export async function insertReview(db: Db, row: typeof reviews.$inferInsert): Promise<ReviewRow> {
  const [created] = await db.insert(reviews).values(row).returning();
  return created;
}

/** Writes the changes; the row as it is now. Unique violations as insertReview. */
export async function updateReview(
  db: Db,
  id: string,
  set: PgUpdateSetSource<typeof reviews>,
): Promise<ReviewRow> {
  const [updated] = await db.update(reviews).set(set).where(eq(reviews.id, id)).returning();
  return updated;
}
