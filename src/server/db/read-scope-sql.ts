// Turns a read scope of src/access into a SQL condition on a table, so lists are filtered in the
// database to what the caller may read (§6.2) — the same test ability.can('read', row) makes.
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { ReadScope } from '../../access';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A caller's id as a literal of the statement's text, or undefined when it is not a well-formed uuid
 * (then it must stay a parameter). The ids are the caller's own (its actor), so a prepared list
 * statement is one text per caller scope that PostgreSQL plans once (a generic plan); bound, the
 * member lists were planned afresh on every run (bench/README.md, api-lists).
 */
export const inlineUuid = (id: string): string | undefined => (UUID.test(id) ? `'${id}'` : undefined);

const idSql = (id: string): SQL => {
  const literal = inlineUuid(id);
  return literal ? sql.raw(literal) : sql`${id}`;
};

const idArray = (ids: readonly string[], type: 'text' | 'uuid' = 'text'): SQL =>
  sql`ARRAY[${sql.join(ids.map(idSql), sql`, `)}]::${sql.raw(type)}[]`;

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
  ids.map((assigneeId) => {
    const json = JSON.stringify([{ assigneeType, assigneeId }]);
    return UUID.test(assigneeId)
      ? sql`${column} @> ${sql.raw(`'${json}'`)}::jsonb`
      : sql`${column} @> ${json}::jsonb`;
  });

/**
 * `undefined` means no condition (everything readable). Every branch is written so an index can
 * answer it (uuid equality, array containment, jsonb containment), letting PostgreSQL combine them
 * with a BitmapOr instead of scanning the table (bench/README.md, api-lists).
 */
export function readScopeSql(scope: ReadScope, c: ScopeColumns): SQL | undefined {
  if (scope.all) return undefined;
  const any: SQL[] = [];
  if (scope.creatorUserId && c.creatorUserId)
    any.push(sql`${c.creatorUserId} = ${idSql(scope.creatorUserId)}`);
  if (scope.reviewerId && c.reviewerId) any.push(sql`${c.reviewerId} = ${idSql(scope.reviewerId)}`);
  if (scope.rootId && c.id && c.rootId)
    any.push(sql`(${c.id} = ${idSql(scope.rootId)} OR ${c.rootId} = ${idSql(scope.rootId)})`);
  const gated: SQL[] = [];
  if (scope.organizationIds.length && c.organizationId)
    gated.push(
      // Compared as uuids where the column is one, so its index is usable.
      c.organizationId.columnType === 'PgUUID'
        ? sql`${c.organizationId} = ANY(${idArray(scope.organizationIds, 'uuid')})`
        : sql`${c.organizationId}::text = ANY(${idArray(scope.organizationIds)})`,
    );
  const uid = scope.assigneeUserId;
  const orgs = scope.assigneeOrgIds;
  if (scope.direct) {
    if (uid && c.assigneeUserIds) gated.push(sql`${c.assigneeUserIds} @> ${idArray([uid])}`);
    if (orgs.length && c.assigneeOrgIds) gated.push(sql`${c.assigneeOrgIds} && ${idArray(orgs)}`);
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
