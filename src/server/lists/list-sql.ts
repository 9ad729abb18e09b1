// Small SQL helpers the list routes of studies, slides, images, reactions and activities share:
// date ranges from ISO query values, LIKE patterns, ordering with a stable tie-break, and the
// {result, count, page, limit} envelope.
import { and, asc, desc, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';

const DAY_MS = 86_400_000;
const dateOnly = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);

/** start ≤ column < end; a date-only end (2024-05-01) includes that whole day (UTC). */
export function dateRange(column: PgColumn, start?: string, end?: string): SQL[] {
  const out: SQL[] = [];
  if (start) out.push(gte(column, new Date(start)));
  if (end) {
    const at = new Date(end);
    out.push(lt(column, dateOnly(end) ? new Date(at.getTime() + DAY_MS) : new Date(at.getTime() + 1)));
  }
  return out;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
/** A case-insensitive "contains" pattern with LIKE's wildcards escaped. */
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;
/** LIKE pattern of what starts with `text` (the trigram index on simple_id serves it). */
export const prefixPattern = (text: string) => `${escapeLike(text)}%`;

/** ORDER BY the column (nulls last either way), then id, so pages never overlap. */
export function ordering(column: PgColumn, direction: 'asc' | 'desc', id: PgColumn): SQL[] {
  const dir = direction === 'asc' ? sql`asc` : sql`desc`;
  return [sql`${column} ${dir} nulls last`, direction === 'asc' ? asc(id) : desc(id)];
}

export interface Paged {
  page: number;
  limit: number;
}

/**
 * Fetches one page of `table` under `where` and counts the rows under it (the count costs nothing when
 * the page is not full: every row is in hand). The scan-group and study lists, called far more often,
 * answer through lists/page-statement.ts instead (prepared, JSON built in SQL, counts cached).
 */
export async function pageOf<T extends PgTable>(
  db: Db,
  table: T,
  where: SQL[],
  order: SQL[],
  { page, limit }: Paged,
): Promise<{ rows: T['$inferSelect'][]; count: number }> {
  const cond = where.length ? and(...where) : undefined;
  const offset = (page - 1) * limit;
  const rows = (await db
    .select()
    .from(table as PgTable)
    .where(cond)
    .orderBy(...order)
    .limit(limit)
    .offset(offset)) as T['$inferSelect'][];
  if (rows.length < limit && (rows.length > 0 || offset === 0)) return { rows, count: offset + rows.length };
  const [answer] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(table as PgTable)
    .where(cond);
  return { rows, count: Number(answer.count) };
}
