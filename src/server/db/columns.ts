// Column helpers shared by the schema modules: timestamps, text arrays, assignee columns.
import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, text, timestamp, type ExtraConfigColumn } from 'drizzle-orm/pg-core';
import type { InheritedAssignee } from '../../api/entities';

export const createdAt = () => timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const updatedAt = () => timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const at = () => timestamp({ withTimezone: true, mode: 'date' });
export const textArray = () =>
  text()
    .array()
    .notNull()
    .default(sql`'{}'::text[]`);

/** Direct assignees (users and organizations), and those inherited from a containing row (§3). */
export const assigneeColumns = () => ({
  assigneeUserIds: textArray(),
  assigneeOrgIds: textArray(),
  inheritedAssignees: jsonb().$type<InheritedAssignee[]>().notNull().default([]),
});

/** The sync cursor column; filled from the `change_seq` sequence by the `bump_change_seq` trigger. */
export const changeSeq = () =>
  bigint({ mode: 'number' })
    .notNull()
    .default(sql`nextval('change_seq')`);

/**
 * The indexes the read scope's branches use (db/read-scope-sql.ts): creator, direct assignees (text[]
 * containment / overlap) and inherited assignees (jsonb containment), so a member's list is a
 * BitmapOr of index scans instead of a scan of the table (bench/README.md, api-lists).
 */
export const readScopeIndexes = (
  table: string,
  t: {
    creatorUserId: ExtraConfigColumn;
    assigneeUserIds: ExtraConfigColumn;
    assigneeOrgIds: ExtraConfigColumn;
    inheritedAssignees: ExtraConfigColumn;
  },
) => [
  index(`${table}_creator_idx`).on(t.creatorUserId),
  index(`${table}_assignee_users_gin`).using('gin', t.assigneeUserIds),
  index(`${table}_assignee_orgs_gin`).using('gin', t.assigneeOrgIds),
  index(`${table}_inherited_gin`).using('gin', t.inheritedAssignees.op('jsonb_path_ops')),
];
