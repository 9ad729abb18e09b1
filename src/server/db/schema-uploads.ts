// Resumable uploads: a group per slide (one file, or an .mrxs with its data folder) and one
// row per tus resource. Kept in the database, not in the tus store's own metadata, so that any server
// process can check ownership, assemble a group and expire abandoned bytes.
import { bigint, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, updatedAt } from './columns';

export const uploadGroups = pgTable(
  'upload_groups',
  {
    /** Chosen by the client (a uuid) so that every part it creates names the same group. */
    id: uuid().primaryKey(),
    creatorUserId: uuid().notNull(),
    organizationId: uuid().notNull(),
    /** The slide's file name: the .czi/.qptiff, or the .mrxs of a folder. Set by the first part that has it. */
    name: text().notNull().default(''),
    /** Files the group holds when complete (Upload-Metadata groupSize). */
    fileCount: integer().notNull(),
    /** uploading → complete | canceled | expired | failed */
    status: text().notNull().default('uploading'),
    /** The image made when the group was complete. */
    imageId: uuid(),
    /** Why the assembly refused the group (status failed). */
    error: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('upload_groups_creator_idx').on(t.creatorUserId, t.createdAt)],
);

export const uploads = pgTable(
  'uploads',
  {
    /** The tus resource id: the last segment of its URL, and its key under uploads/ in storage. */
    id: text().primaryKey(),
    groupId: uuid().notNull(),
    creatorUserId: uuid().notNull(),
    fileName: text().notNull(),
    /** Place inside the dropped folder ('' for a single file). Unique within the group. */
    relativePath: text().notNull(),
    /** Declared Upload-Length in bytes. */
    size: bigint({ mode: 'number' }).notNull(),
    /** uploading → complete | canceled | expired */
    status: text().notNull().default('uploading'),
    /** After this the bytes of an unfinished upload are removed (tus expiration). */
    expiresAt: at().notNull(),
    completedAt: at(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('uploads_group_path_idx').on(t.groupId, t.relativePath),
    index('uploads_status_expiry_idx').on(t.status, t.expiresAt),
  ],
);
