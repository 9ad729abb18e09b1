// Annotation classes as stored and as the API returns them, and their writes. Renaming a class also
// rewrites the annotations that hold it (reclassifyAnnotations in ./repository).
import { eq } from 'drizzle-orm';
import type { AnnotationClass } from '../../api/annotation-classes';
import type { Db } from '../db/client';
import { annotationClasses } from '../db/schema';

export type ClassRow = typeof annotationClasses.$inferSelect;

export const toClass = (r: ClassRow): AnnotationClass => ({
  id: r.id,
  organizationId: r.organizationId,
  name: r.name,
  color: r.color.toLowerCase(),
  creatorUserId: r.creatorUserId,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** Throws the unique violation when the organization has a class of that name already. */
export async function insertAnnotationClass(
  db: Db,
  row: typeof annotationClasses.$inferInsert,
): Promise<ClassRow> {
  const [created] = await db.insert(annotationClasses).values(row).returning();
  return created;
}

/** Renames and recolours the class; throws the unique violation as insertAnnotationClass does. */
export async function updateAnnotationClass(
  db: Db,
  id: string,
  to: { name: string; color: string },
): Promise<ClassRow> {
  const [updated] = await db
    .update(annotationClasses)
    .set({ name: to.name, color: to.color, updatedAt: new Date() })
    .where(eq(annotationClasses.id, id))
    .returning();
  return updated;
}

export async function deleteAnnotationClass(db: Db, id: string): Promise<void> {
  await db.delete(annotationClasses).where(eq(annotationClasses.id, id));
}
