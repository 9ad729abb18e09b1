// The scan-group and study lists as one prepared statement per request that answers the page already
// as JSON text, the version of the tables it read (count cache) and the caller's stamp (authenticate.ts)
// — bench/README.md, api-lists. Why: at 50 clients on 2 cores the cost per request was the round trips
// (a stamp statement, then the page), PostgreSQL planning each statement afresh, and in node the
// parsing of every column, Drizzle's row mapping, zod's check of the answer and JSON.stringify.
//
// The conditions are still written with Drizzle (read scope, filters) and compiled once; the rest of
// the statement is text around them. Each row's JSON is stored with the row (its list_json column,
// migration 0016), which must answer what the entity mapper (toScanGroup, toStudy) answers: tests/api/
// list-json.test.ts compares the two for every row of a fixture.
import { and, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readsAllOf, type ReadScope } from '../../access';
import type { Database } from '../db/client';
import { dialect } from '../db/dialect';
import { inlineUuid, isReaderKeysScope } from '../db/read-scope-sql';
import { confirmActor, pendingActorCheck, stampSql } from '../http/authenticate';
import {
  cachedCount,
  countAndKeep,
  countKey,
  lastCount,
  noteCount,
  versionText,
  type VersionedTable,
} from './count-cache';

const columnText = new Map<PgColumn, string>();
/** `"table"."column"` as the compiled conditions write it. */
export function columnSql(column: PgColumn): string {
  let text = columnText.get(column);
  if (text === undefined) columnText.set(column, (text = dialect.sqlToQuery(sql`${column}`).sql));
  return text;
}

/** What one list reads and how its rows look in JSON. */
export interface ListSource {
  /** `"table"`, as the conditions name it. */
  table: string;
  id: PgColumn;
  /**
   * The row's JSON object as text: its `list_json` column, which PostgreSQL keeps from the row
   * (migration 0016 holds the entity's keys and their order).
   */
  json: string;
  versioned: readonly VersionedTable[];
  /**
   * The order column whose index also carries the read scope's columns (organization_id, reader_keys:
   * migration 0014). A list with no condition but such a scope and filters answeredByOrderIndex marks,
   * in this order, picks its page's ids from that index alone: a member's default list tests the scope
   * on ~200–1,000 index entries instead of as many rows read from the table (bench/README.md).
   */
  scopeCoveredOrder?: PgColumn;
  /**
   * The order of the organization index (organization_id, this column descending, id: migration
   * 0012), which carries the sort keys of an organization's rows.
   */
  organizationOrder: PgColumn;
}

export interface ListRequest {
  /** The conditions; called again with the reloaded actor when the caller changed meanwhile. */
  where: () => SQL[];
  orderBy: PgColumn;
  direction: 'asc' | 'desc';
  page: number;
  limit: number;
  /** The organizationId filter, if any. */
  organizationIds?: readonly string[];
  /** The caller's read scope of the list's entity; called again with `where`. */
  scope: () => ReadScope;
}

const inOrderIndex = new WeakSet<SQL>();

/**
 * Marks a filter that reads only columns the `scopeCoveredOrder` index carries (the study name,
 * migration 0015): with it, and the read scope, that index alone still picks the page's ids.
 */
export function answeredByOrderIndex(cond: SQL): SQL {
  inOrderIndex.add(cond);
  return cond;
}

/**
 * Whether the page's ids are picked from an index first and only those rows then read, instead of
 * reading every candidate row from the table to sort it, and from which:
 * - 'organization': a filter to organizations the caller reads in full (no scope condition is left),
 *   in an order other than the organization index's own: the pick is an index-only scan of that index
 *   (migration 0012; EXPLAIN of an organization's 90 days sorted by created-at ascending 1.7 → 0.75 ms,
 *   by name 1.3 → 0.55 ms). Not with a read-scope condition: its columns are not in that index, and
 *   the extra lookups cost more (bench/README.md);
 * - 'order': only the read scope and filters that `scopeCoveredOrder`'s index carries, in that order
 *   (migrations 0014, 0015): the index is walked until the page is full.
 */
function indexPicking(
  source: ListSource,
  list: ListRequest,
  where: readonly SQL[],
): 'organization' | 'order' | undefined {
  const orgs = list.organizationIds;
  if (orgs?.length && readsAllOf(list.scope(), orgs))
    return list.orderBy === source.organizationOrder && list.direction === 'desc'
      ? undefined
      : 'organization';
  return where.length > 0 &&
    where.every((c) => isReaderKeysScope(c) || inOrderIndex.has(c)) &&
    list.orderBy === source.scopeCoveredOrder
    ? 'order'
    : undefined;
}

/**
 * Below this many rows a read scope's match set is read whole and sorted rather than found by walking
 * the order index (runPage).
 */
const FEW_ROWS = 200;

/** Pages past this one run unprepared, so deep pages do not each keep a statement on every connection. */
const PREPARED_PAGES = 10;

interface Answer {
  rows: string;
  n: number;
  version: string | number;
  stamp?: string | null;
}

async function runPage(
  database: Database,
  source: ListSource,
  list: ListRequest,
  stampOf: string | undefined,
): Promise<{ answer: Answer; cond: { sql: string; params: unknown[] }; hintKey?: string }> {
  const where = list.where();
  const cond = where.length ? dialect.sqlToQuery(and(...where)!) : { sql: '', params: [] };
  const picking = indexPicking(source, list, where);
  // The walk of the order index tests entries until the page is full: for a caller who reads few rows
  // (a new team, a reviewer with a handful of slides) that is the whole index, 100,000 entries, 44 ms.
  // PostgreSQL cannot tell: a reader key missing from its statistics counts as half the rarest one
  // (~450 of 100,000 rows), so it walks. When the last answer to these conditions counted fewer than
  // FEW_ROWS, their match set is read whole from the scope's indexes (OFFSET 0 keeps the walk out of
  // its plan) and sorted: 0.2 ms. hintKey: where the walk is the plan, the key listPage notes the match
  // set's size under (only those lists pay for it).
  const hintKey =
    picking === 'order' && where.some(isReaderKeysScope) ? countKey(source.table, cond) : undefined;
  const readWhole = hintKey !== undefined && (lastCount(database.db, hintKey) ?? Infinity) < FEW_ROWS;
  const params = [...cond.params];
  const param = (value: unknown) => `$${params.push(value)}`;
  const dir = list.direction === 'asc' ? 'asc' : 'desc';
  const sortKey = columnSql(list.orderBy);
  const id = columnSql(source.id);
  // The inner query picks the page's rows (its plan is the one the conditions and order choose); the
  // outer one, whose FROM takes the table's name so the JSON column's reference reads the picked rows,
  // joins their stored JSON texts.
  const order = (d: string) => `${sortKey} ${d} NULLS LAST, ${id} ${d}`;
  // LIMIT and OFFSET are written into the text, not bound: a generic plan made without their values
  // assumes a large share of the table, costs more than the plans made for LIMIT 10, and PostgreSQL
  // then plans every run afresh (pg_prepared_statements: 0 generic / 421 custom in the bench). Both
  // are integers checked by the query schema; deep pages run unprepared (PREPARED_PAGES).
  const limit = Math.trunc(list.limit);
  const offset = Math.trunc((list.page - 1) * list.limit);
  const table = source.table;
  const rows = readWhole
    ? `(SELECT ${id}, ${sortKey} FROM ${table} WHERE ${cond.sql} OFFSET 0) AS ${table}`
    : table + (cond.sql ? ` WHERE ${cond.sql}` : '');
  const page = `${rows} ORDER BY ${order(dir)} LIMIT ${limit} OFFSET ${offset}`;
  const text =
    `SELECT coalesce('[' || string_agg(${source.json}, ',' ORDER BY ${order(dir)}) || ']', '[]') AS rows, ` +
    `count(*)::int AS n, ${versionText(source.versioned)} AS version` +
    // The caller's id is written in like the scope's ids (read-scope-sql.ts), so the text has no
    // parameter left for the default lists and PostgreSQL keeps one generic plan for it.
    (stampOf ? `, ${stampSql(inlineUuid(stampOf) ?? param(stampOf))} AS stamp` : '') +
    ` FROM (SELECT * FROM ` +
    (picking ? `${table} WHERE ${id} IN (SELECT ${id} FROM ${page}))` : `${page})`) +
    ` AS ${table}`;
  const prepared = list.page <= PREPARED_PAGES;
  const [answer] = await database.query<Answer>(text, params, { prepared });
  return { answer, cond, hintKey };
}

/**
 * Answers one page of a list as the {result, count, page, limit} envelope's JSON text. The count costs
 * nothing when the page is not full (count = offset + rows); otherwise it comes from the count cache
 * while the versioned tables are unchanged, else from a count statement (lists/count-cache.ts).
 */
export async function listPage(
  request: FastifyRequest,
  database: Database,
  source: ListSource,
  list: ListRequest,
): Promise<string> {
  const check = pendingActorCheck(request);
  let { answer, cond, hintKey } = await runPage(database, source, list, check?.userId);
  // The caller's user, organization or teams changed since its actor was loaded: load it again
  // (401 when it is gone) and answer with the scope it has now.
  if (check && answer.stamp !== check.stamp) {
    await confirmActor(request);
    ({ answer, cond, hintKey } = await runPage(database, source, list, undefined));
  }
  const offset = (list.page - 1) * list.limit;
  let count: number;
  if (answer.n < list.limit && (answer.n > 0 || offset === 0)) count = offset + answer.n;
  else {
    const countText = `SELECT count(*)::int AS count, ${versionText(source.versioned)} AS version FROM ${source.table}${cond.sql ? ` WHERE ${cond.sql}` : ''}`;
    const counted = async () => {
      const [row] = await database.query<{ count: number; version: string | number }>(
        countText,
        cond.params,
        { prepared: true },
      );
      return { count: Number(row.count), version: Number(row.version) };
    };
    const key = hintKey ?? countKey(source.table, cond);
    count =
      cachedCount(database.db, key, Number(answer.version)) ??
      (await countAndKeep(database.db, key, counted));
  }
  if (hintKey !== undefined) noteCount(database.db, hintKey, count);
  return `{"result":${answer.rows},"count":${count},"page":${list.page},"limit":${list.limit}}`;
}

/** Sends JSON text as it is (Fastify serializes only what is not a string). */
export function sendJson(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text as never);
}
