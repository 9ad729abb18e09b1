// Turns a read scope of src/access into a SQL condition on a table, so lists are filtered in the
// database to what the caller may read (§6.2) — the same test ability.can('read', row) makes.
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { readsAllOf, type ReadScope, type ScopedRead } from '../../access';
import { scanGroups, studies } from './schema';
import { dialect } from './dialect';
import { sqlArray } from './sql-array';

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

const idArray = (ids: readonly string[], type: 'text' | 'uuid' = 'text'): SQL => sqlArray(ids, type, idSql);

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

/**
 * The tables with a `reader_keys` column (migration 0013): every user and organization that the row's
 * organization, creator and assignee columns let read it, as 'u:<id>' / 'o:<id>', kept by PostgreSQL
 * (a generated column). It is not in the Drizzle schema, so no select of the app reads it.
 */
const READER_KEYS = new Map<unknown, SQL>([
  [scanGroups, sql.raw('"scan_groups"."reader_keys"')],
  [studies, sql.raw('"studies"."reader_keys"')],
]);

/** One `@>` per assignee, so the GIN (jsonb_path_ops) index of inherited_assignees serves each. */
const inheritedContains = (column: PgColumn, assigneeType: 'User' | 'Organization', ids: readonly string[]) =>
  ids.map((assigneeId) => {
    const json = JSON.stringify([{ assigneeType, assigneeId }]);
    return UUID.test(assigneeId)
      ? sql`${column} @> ${sql.raw(`'${json}'`)}::jsonb`
      : sql`${column} @> ${json}::jsonb`;
  });

/** A uuid as PostgreSQL writes one (lower case): `uuid::text` in reader_keys is compared as text. */
const CANONICAL_UUID = new RegExp(UUID.source);

const sameIds = (a: readonly string[], b: readonly string[]) => {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((id) => set.has(id));
};

/** The conditions readerKeysSql made: lists/page-statement.ts knows from it that an index covers the scope. */
const readerKeyScopes = new WeakSet<SQL>();

/**
 * Whether `cond` is a read scope written on reader_keys (and organization_id) alone, so an index that
 * carries those two columns answers it without reading the table (migration 0014).
 */
export const isReaderKeysScope = (cond: SQL): boolean => readerKeyScopes.has(cond);

function readerKeysSql(scope: ScopedRead, c: ScopeColumns): SQL | undefined {
  const cond = readerKeysCondition(scope, c);
  if (cond) readerKeyScopes.add(cond);
  return cond;
}

/**
 * The scope as `reader_keys && ARRAY[…]` where that is the same test as the OR below, else undefined.
 * It is when the scope reads its creator, assignee and inherited users as one user (the caller), and its
 * organization, assignee and inherited organizations as one set of organizations, with no other branch
 * (the scan-group and study scopes of src/access): reader_keys holds exactly those columns' ids under
 * 'u:' and 'o:'. The ids must be lower-case uuids, as reader_keys writes the uuid columns; the text
 * arrays are compared as text either way. One array overlap per row instead of ten tests (six jsonb
 * containments): bench/README.md, api-lists.
 */
function readerKeysCondition(scope: ScopedRead, c: ScopeColumns): SQL | undefined {
  const table = c.organizationId?.table;
  const readerKeys = READER_KEYS.get(table);
  const columns = [c.creatorUserId, c.assigneeUserIds, c.assigneeOrgIds, c.inheritedAssignees];
  if (!readerKeys || !columns.every((column) => column?.table === table)) return undefined;
  if (!scope.direct || !scope.inherited || scope.publicOnly || scope.reviewerId || scope.rootId)
    return undefined;
  const uid = scope.assigneeUserId ?? undefined;
  if (scope.creatorUserId !== uid) return undefined;
  if (!sameIds(scope.organizationIds, scope.assigneeOrgIds)) return undefined;
  const ids = [...(uid ? [uid] : []), ...scope.assigneeOrgIds];
  if (ids.length === 0 || !ids.every((id) => CANONICAL_UUID.test(id))) return undefined;
  const orgs = [...new Set(scope.assigneeOrgIds)];
  const keys = [...(uid ? [`u:${uid}`] : []), ...orgs.map((id) => `o:${id}`)];
  const overlap = sql`${readerKeys} && ${sqlArray(keys, 'text', (k) => sql.raw(`'${k}'`))}`;
  if (orgs.length === 0 || c.organizationId?.columnType !== 'PgUUID') return overlap;
  // The organization test is implied by the overlap (reader_keys holds 'o:' + organization_id), but
  // written first it answers the rows of the caller's organizations with one uuid compare, and it keeps
  // PostgreSQL from ANDing the GIN index of reader_keys with an organization filter's index: it takes
  // the two for independent, while such a filter implies the scope, and read ~11,000 index entries to
  // drop none (EXPLAIN of the member's organization + dates list: 0.9 → 11 ms without it).
  return sql`(${c.organizationId} = ANY(${idArray(orgs, 'uuid')}) OR ${overlap})`;
}

/**
 * The read scope of a list filtered to `organizationIds`: none when the caller reads those
 * organizations in full, as the filter then implies it (readsAllOf), else readScopeSql's.
 */
export const listScopeSql = (
  scope: ReadScope,
  c: ScopeColumns,
  organizationIds: readonly string[] = [],
): SQL | undefined => (readsAllOf(scope, organizationIds) ? undefined : readScopeSql(scope, c));

// A scope's condition on a set of columns, per scope (one per loaded actor, http/guard.ts): built and
// compiled once, not on every list request. Weak both ways, so neither outlives its actor or columns.
const built = new WeakMap<ReadScope, WeakMap<ScopeColumns, { cond: SQL | undefined }>>();

/**
 * `undefined` means no condition (everything readable). Every branch is written so an index can
 * answer it (uuid equality, array containment, jsonb containment), letting PostgreSQL combine them
 * with a BitmapOr instead of scanning the table (bench/README.md, api-lists). A condition with no
 * parameter left (its ids inlined) comes back as its compiled text, which costs nothing to compile
 * again inside a statement.
 */
export function readScopeSql(scope: ReadScope, c: ScopeColumns): SQL | undefined {
  let byColumns = built.get(scope);
  if (!byColumns) built.set(scope, (byColumns = new WeakMap()));
  let entry = byColumns.get(c);
  if (!entry) byColumns.set(c, (entry = { cond: precompiled(buildScopeSql(scope, c)) }));
  return entry.cond;
}

function precompiled(cond: SQL | undefined): SQL | undefined {
  if (!cond) return cond;
  const query = dialect.sqlToQuery(cond);
  if (query.params.length) return cond;
  const text = sql.raw(query.sql);
  if (readerKeyScopes.has(cond)) readerKeyScopes.add(text);
  return text;
}

function buildScopeSql(scope: ReadScope, c: ScopeColumns): SQL | undefined {
  if (scope.all) return undefined;
  const keys = readerKeysSql(scope, c);
  if (keys) return keys;
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
