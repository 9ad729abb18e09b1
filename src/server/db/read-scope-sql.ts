// Turns a read scope of src/access into a SQL condition on a table, so lists are filtered in the
// database to what the caller may read (§6.2) — the same test ability.can('read', row) makes.
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { ReadScope } from '../../access';
import { sqlArray } from './sql-array';

export interface ScopeColumns {
  id?: PgColumn;
  rootId?: PgColumn;
  organizationId?: PgColumn;
  creatorUserId?: PgColumn;
  reviewerId?: PgColumn;
  visibility?: PgColumn;
  assigneeUserIds?: PgColumn;
  assigneeOrgIds?: PgColumn;
  inheritedAssignees?: PgColumn;
}

/** One `@>` per assignee, so the GIN (jsonb_path_ops) index of inherited_assignees serves each. */
const inheritedContains = (column: PgColumn, assigneeType: 'User' | 'Organization', ids: readonly string[]) =>
  ids.map((assigneeId) => sql`${column} @> ${JSON.stringify([{ assigneeType, assigneeId }])}::jsonb`);

/**
 * `undefined` means no condition (everything readable). Every branch is written so an index can
 * answer it (uuid equality, array containment, jsonb containment), letting PostgreSQL combine them
 * with a BitmapOr instead of scanning the table (bench/README.md, api-lists).
 */
export function readScopeSql(scope: ReadScope, c: ScopeColumns): SQL | undefined {
  if (scope.all) return undefined;
  const any: SQL[] = [];
  if (scope.creatorUserId && c.creatorUserId) any.push(sql`${c.creatorUserId} = ${scope.creatorUserId}`);
  if (scope.reviewerId && c.reviewerId) any.push(sql`${c.reviewerId} = ${scope.reviewerId}`);
  if (scope.rootId && c.id && c.rootId)
    any.push(sql`(${c.id} = ${scope.rootId} OR ${c.rootId} = ${scope.rootId})`);
  const gated: SQL[] = [];
  if (scope.organizationIds.length && c.organizationId)
    gated.push(
      // Compared as uuids where the column is one, so its index is usable.
      c.organizationId.columnType === 'PgUUID'
        ? sql`${c.organizationId} = ANY(${sqlArray(scope.organizationIds, 'uuid')})`
        : sql`${c.organizationId}::text = ANY(${sqlArray(scope.organizationIds)})`,
    );
  const uid = scope.assigneeUserId;
  const orgs = scope.assigneeOrgIds;
  if (scope.direct) {
    if (uid && c.assigneeUserIds) gated.push(sql`${c.assigneeUserIds} @> ${sqlArray([uid])}`);
    if (orgs.length && c.assigneeOrgIds) gated.push(sql`${c.assigneeOrgIds} && ${sqlArray(orgs)}`);
  }
  if (scope.inherited && c.inheritedAssignees) {
    if (uid) gated.push(...inheritedContains(c.inheritedAssignees, 'User', [uid]));
    gated.push(...inheritedContains(c.inheritedAssignees, 'Organization', orgs));
  }
  if (gated.length) {
    const joined = sql.join(gated, sql` OR `);
    any.push(
      scope.publicOnly && c.visibility ? sql`(${c.visibility} = 'public' AND (${joined}))` : sql`(${joined})`,
    );
  }
  if (any.length === 0) return sql`false`;
  return sql`(${sql.join(any, sql` OR `)})`;
}
