// Annotations as the API returns them (spec §3), their read-scope columns, the changed fields of a
// PATCH, the check that the image, source image and review an annotation names are readable, and
// their writes.
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { hexToRgb } from '../../api/annotation-classes';
import type { AnnotationPatchBody } from '../../api/annotations';
import type { Annotation } from '../../api/entities';
import type { Db } from '../db/client';
import type { ScopeColumns } from '../db/read-scope-sql';
import { annotations, organizations } from '../db/schema';
import { apiError } from '../http/errors';
import { accessOf } from '../http/guard';
import { findReview, readableImage } from '../reviews/repository';
import { reviewSubject } from '../reviews/rules';
import { asSubject } from '../../access';

export type AnnotationRow = typeof annotations.$inferSelect;

/** §6.2 (docs/decisions.md): readable in the own organization and teams, and by the creator. */
export const annotationScope: ScopeColumns = {
  organizationId: annotations.organizationId,
  creatorUserId: annotations.creatorUserId,
};

export function toAnnotation(row: AnnotationRow): Annotation {
  return {
    id: row.id,
    creatorUserId: row.creatorUserId,
    organizationId: row.organizationId,
    content: row.content ?? null,
    imageId: row.imageId,
    sourceImageId: row.sourceImageId,
    reviewId: row.reviewId,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function findAnnotation(db: Db, id: string): Promise<AnnotationRow | undefined> {
  const [row] = await db.select().from(annotations).where(eq(annotations.id, id));
  return row;
}

const IGNORED = new Set(['createdAt', 'updatedAt']);
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields of a PATCH that differ from the stored annotation (src/access judges which may). */
export function annotationChanges(
  stored: AnnotationRow,
  body: AnnotationPatchBody['annotation'],
): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || IGNORED.has(key)) continue;
    if (!same(value, stored[key as keyof AnnotationRow])) changes[key] = value;
  }
  return changes;
}

/** 400 naming the field when the image, the source image or the review is unknown to the caller. */
export async function checkAnnotationReferences(
  db: Db,
  request: FastifyRequest,
  refs: { imageId: string; sourceImageId: string | null; reviewId: string | null },
): Promise<void> {
  if (!(await readableImage(db, request, refs.imageId)))
    throw apiError('UNKNOWN_IMAGE', { field: 'body.annotation.imageId' });
  if (refs.sourceImageId && !(await readableImage(db, request, refs.sourceImageId)))
    throw apiError('UNKNOWN_IMAGE', { field: 'body.annotation.sourceImageId' });
  if (refs.reviewId) {
    const review = await findReview(db, refs.reviewId);
    if (!review || !accessOf(request).ability.can('read', asSubject('Review', reviewSubject(review))))
      throw apiError('UNKNOWN_REVIEW', { field: 'body.annotation.reviewId' });
  }
}

export type NewAnnotationRow = typeof annotations.$inferInsert;

export async function insertAnnotation(db: Db, row: NewAnnotationRow): Promise<AnnotationRow> {
  const [created] = await db.insert(annotations).values(row).returning();
  return created;
}

/** Inserts an import's annotations in one statement (createdAt may be SQL: a time per row). */
export async function insertAnnotations(
  db: Db,
  rows: readonly PgInsertValue<typeof annotations>[],
): Promise<void> {
  await db.insert(annotations).values([...rows]);
}

/** Writes the changed fields; the row as it is now. */
export async function updateAnnotation(
  db: Db,
  id: string,
  changes: Record<string, unknown>,
): Promise<AnnotationRow> {
  const [updated] = await db
    .update(annotations)
    // No trigger keeps this table's updated_at (it is not a synced kind), so it is set here.
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(annotations.id, id))
    .returning();
  return updated;
}

export async function deleteAnnotation(db: Db, id: string): Promise<void> {
  await db.delete(annotations).where(eq(annotations.id, id));
}

/**
 * The organization's and its teams' annotations of the class `oldName` (any case) follow its new
 * name and colour.
 */
export async function reclassifyAnnotations(
  db: Db,
  organizationId: string,
  oldName: string,
  to: { name: string; color: string },
): Promise<void> {
  const classification = JSON.stringify({ name: to.name, color: hexToRgb(to.color) });
  const teams = db
    .select({ id: organizations.id })
    .from(organizations)
    .where(
      or(
        eq(organizations.id, organizationId),
        sql`${organizations.parentIds} @> ARRAY[${organizationId}]::text[]`,
      ),
    );
  await db
    .update(annotations)
    .set({
      content: sql`jsonb_set(${annotations.content}, '{properties,classification}', ${classification}::jsonb)`,
      updatedAt: new Date(),
    })
    .where(
      and(
        inArray(annotations.organizationId, teams),
        sql`jsonb_typeof(${annotations.content} -> 'properties') = 'object'`,
        sql`lower(${annotations.content} #>> '{properties,classification,name}') = lower(${oldName})`,
      ),
    );
}
