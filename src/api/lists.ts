// List queries (§7): page, limit, orderBy, orderDirection; arrays as repeated parameters; ISO dates.
import { z } from 'zod';

/** A query value that may be repeated (?a=1&a=2) or given once; always an array after parsing. */
export const repeated = <T extends z.ZodType>(item: T) =>
  z
    .preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(item).max(500))
    .optional();

/** A date or date-time in ISO 8601 (`2026-11-22` or `2026-11-22T10:00:00Z`). */
export const isoDateParam = z
  .string()
  .max(40)
  .refine(
    (v) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)),
    {
      message: 'must be an ISO date',
    },
  );

export const OrderDirection = z.enum(['asc', 'desc']);

export const pageParams = (maxLimit = 100, defaultLimit = 10) => ({
  page: z.coerce.number().int().min(1, 'page starts at 1').default(1),
  limit: z.coerce.number().int().min(1).max(maxLimit, `limit is at most ${maxLimit}`).default(defaultLimit),
  orderDirection: OrderDirection.default('desc'),
});

/** The list envelope of every list response. */
export interface ListResult<T> {
  result: T[];
  count: number;
  page: number;
  limit: number;
}
