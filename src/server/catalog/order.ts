// ORDER BY of the catalogue and order lists: the chosen column in the chosen direction, then the id,
// so that pages never overlap or skip rows that tie.
import { asc, desc, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

export function orderOf<K extends string>(
  q: { orderBy: K; orderDirection: 'asc' | 'desc' },
  columns: Record<K, PgColumn>,
  id: PgColumn,
): SQL[] {
  const dir = q.orderDirection === 'asc' ? asc : desc;
  return [dir(columns[q.orderBy]), dir(id)];
}

/** LIMIT/OFFSET of a 1-based page. */
export const pageWindow = (q: { page: number; limit: number }) => ({
  limit: q.limit,
  offset: (q.page - 1) * q.limit,
});
