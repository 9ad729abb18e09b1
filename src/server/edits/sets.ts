// Set-valued fields (tags, assignees, scanGroupIds) changed by replace/add/remove, the same way in
// JavaScript (to validate and authorize the outcome) and in SQL (to write it from the stored value,
// so two offline edits of the same set merge instead of the last one winning).
import { sqlArray } from '../db/sql-array';
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

export interface SetChange {
  /** The whole new list (the entity field of a PATCH), applied first. */
  replace?: readonly string[];
  add?: readonly string[];
  remove?: readonly string[];
}

export const touches = (c: SetChange): boolean =>
  c.replace !== undefined || (c.add?.length ?? 0) > 0 || (c.remove?.length ?? 0) > 0;

/** Order kept, first occurrence wins; removals last. */
export function applySet(current: readonly string[], c: SetChange): string[] {
  const removed = new Set(c.remove ?? []);
  const out: string[] = [];
  for (const v of [...(c.replace ?? current), ...(c.add ?? [])])
    if (!removed.has(v) && !out.includes(v)) out.push(v);
  return out;
}

export const textArraySql = (values: readonly string[]): SQL => sqlArray(values);

/** The SQL twin of applySet, evaluated on the stored column. */
export function setSql(column: PgColumn, c: SetChange): SQL {
  const base = c.replace ? textArraySql(c.replace) : sql`${column}`;
  return sql`ARRAY(SELECT u.x FROM unnest(array_cat(${base}, ${textArraySql(c.add ?? [])}))
    WITH ORDINALITY AS u(x, n) WHERE NOT (u.x = ANY(${textArraySql(c.remove ?? [])}))
    GROUP BY u.x ORDER BY min(u.n))`;
}

/** First value that appears twice, compared case-insensitively (tags 'Liver' and 'liver' clash). */
export function firstDuplicate(values: readonly string[], fold = (v: string) => v.toLowerCase()) {
  const seen = new Set<string>();
  for (const v of values) {
    const key = fold(v);
    if (seen.has(key)) return v;
    seen.add(key);
  }
  return undefined;
}
