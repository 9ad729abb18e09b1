// Upload groups and their parts as stored, and as GET /v2/upload-groups returns them, and their writes.
import { and, asc, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { UploadGroup, UploadGroupStatus, UploadImageState, UploadPart } from '../../api/uploads';
import type { ImageStatus } from '../../api/enums';
import type { Db } from '../db/client';
import { images, uploadGroups, uploads } from '../db/schema';

export type UploadGroupRow = typeof uploadGroups.$inferSelect;
export type UploadRow = typeof uploads.$inferSelect;
type ImageBits = Pick<typeof images.$inferSelect, 'id' | 'status' | 'scanGroupId' | 'info' | 'scene'>;

export async function findPart(db: Db, id: string): Promise<UploadRow | undefined> {
  const [row] = await db.select().from(uploads).where(eq(uploads.id, id));
  return row;
}

export async function findGroup(db: Db, id: string, lock = false): Promise<UploadGroupRow | undefined> {
  const q = db.select().from(uploadGroups).where(eq(uploadGroups.id, id));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function partsOf(db: Db, groupId: string): Promise<UploadRow[]> {
  return db.select().from(uploads).where(eq(uploads.groupId, groupId)).orderBy(asc(uploads.createdAt));
}

const imageState = (image: ImageBits): UploadImageState => ({
  id: image.id,
  status: image.status as ImageStatus,
  scanGroupId: image.scanGroupId,
  code: image.info.code ?? null,
  desc: image.info.desc ?? null,
});

/** `images`: the group's images (its first one, and one per further scene of the file), any order. */
export function toUploadGroup(group: UploadGroupRow, parts: UploadRow[], images: ImageBits[]): UploadGroup {
  const first = images.find((i) => i.id === group.imageId);
  const all = first ? [...images].sort((a, b) => a.scene - b.scene || a.id.localeCompare(b.id)) : [];
  return {
    id: group.id,
    name: group.name,
    status: group.status as UploadGroupStatus,
    fileCount: group.fileCount,
    parts: parts.map((p): UploadPart => ({
      id: p.id,
      relativePath: p.relativePath || p.fileName,
      size: p.size,
      status: p.status as UploadPart['status'],
    })),
    error: group.error,
    image: first ? imageState(first) : null,
    images: all.map(imageState),
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
  };
}

/** Groups with their parts and images, in the order given. */
export async function loadGroups(db: Db, rows: UploadGroupRow[]): Promise<UploadGroup[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((g) => g.id);
  const parts = await db
    .select()
    .from(uploads)
    .where(inArray(uploads.groupId, ids))
    .orderBy(asc(uploads.createdAt));
  const imageIds = rows.map((g) => g.imageId).filter((id): id is string => !!id);
  // By the group's image id too: images stored before images named their upload group.
  const imgs = imageIds.length
    ? await db
        .select({
          id: images.id,
          status: images.status,
          scanGroupId: images.scanGroupId,
          info: images.info,
          scene: images.scene,
          uploadGroupId: images.uploadGroupId,
        })
        .from(images)
        .where(or(inArray(images.id, imageIds), inArray(images.uploadGroupId, ids)))
    : [];
  return rows.map((g) =>
    toUploadGroup(
      g,
      parts.filter((p) => p.groupId === g.id),
      imgs.filter((i) => i.id === g.imageId || i.uploadGroupId === g.id),
    ),
  );
}

export async function loadGroup(db: Db, id: string): Promise<UploadGroup | undefined> {
  const row = await findGroup(db, id);
  return row ? (await loadGroups(db, [row]))[0] : undefined;
}

/** A user's groups, newest first. */
export async function listGroups(db: Db, userId: string, page: number, limit: number) {
  const where = eq(uploadGroups.creatorUserId, userId);
  const rows = await db
    .select()
    .from(uploadGroups)
    .where(where)
    .orderBy(desc(uploadGroups.createdAt), desc(uploadGroups.id))
    .limit(limit)
    .offset((page - 1) * limit);
  const [{ n }] = await db.select({ n: count() }).from(uploadGroups).where(where);
  return { result: await loadGroups(db, rows), count: Number(n), page, limit };
}

export async function setGroupStatus(
  db: Db,
  id: string,
  status: UploadGroupStatus,
  extra: { error?: string | null; imageId?: string } = {},
): Promise<void> {
  await db
    .update(uploadGroups)
    .set({ status, ...extra, updatedAt: new Date() })
    .where(eq(uploadGroups.id, id));
}

export async function setPartsStatus(db: Db, groupId: string, from: string[], to: string): Promise<void> {
  await db
    .update(uploads)
    .set({ status: to })
    .where(and(eq(uploads.groupId, groupId), inArray(uploads.status, from)));
}

/** Creates the group unless its first part created it already (the client names the group). */
export async function insertGroupIfNew(
  db: Db,
  row: Pick<typeof uploadGroups.$inferInsert, 'id' | 'creatorUserId' | 'organizationId' | 'fileCount'>,
): Promise<void> {
  await db.insert(uploadGroups).values(row).onConflictDoNothing({ target: uploadGroups.id });
}

/** The group takes the name of its slide file (the single file, or a folder's main one). */
export async function nameGroup(db: Db, id: string, name: string): Promise<void> {
  await db.update(uploadGroups).set({ name }).where(eq(uploadGroups.id, id));
}

export async function insertPart(db: Db, row: typeof uploads.$inferInsert): Promise<void> {
  await db.insert(uploads).values(row);
}

export async function deletePart(db: Db, id: string): Promise<void> {
  await db.delete(uploads).where(eq(uploads.id, id));
}

/**
 * Puts the image and every other scene's image of its upload group on the slide, noting the applied
 * label in their info; the ids of the images changed.
 */
export async function applyLabel(
  db: Db,
  target: { imageId: string; groupId: string },
  slide: {
    id: string;
    simpleId: string;
    inheritedAssignees: (typeof images.$inferInsert)['inheritedAssignees'];
  },
): Promise<{ id: string }[]> {
  return db
    .update(images)
    .set({
      scanGroupId: slide.id,
      inheritedAssignees: slide.inheritedAssignees,
      info: sql`${images.info} || ${JSON.stringify({ code: 'label_applied', desc: slide.simpleId })}::jsonb`,
    })
    .where(or(eq(images.id, target.imageId), eq(images.uploadGroupId, target.groupId)))
    .returning({ id: images.id });
}
