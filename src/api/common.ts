// Shared pieces of the v2 contract: ids, dates, the list envelope and the error body.
import { z } from 'zod';

export const Id = z.uuid({ message: 'must be a valid id' });
export const IsoDate = z.iso.datetime({ offset: true }).or(z.date().transform((d) => d.toISOString()));

/** Every list response (spec §3): `{result, count, page, limit}`. */
export const listEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({
    result: z.array(item),
    count: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
  });

/** The JSON body of every 4xx/5xx answer; `message` is what a person reads (§8). */
export const ErrorBody = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  code: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const Ok = z.object({ ok: z.literal(true) });

/** `/:id` of every resource route; a malformed id is a 400 naming `params.id`. */
export const IdParams = z.object({ id: Id });
/** What a DELETE answers. */
export const DeletedResult = z.object({ result: z.object({ id: Id }) });

/**
 * A value's JSON with every object's keys sorted: two values are equal as JSON when these are, whatever
 * order their keys came in (PostgreSQL's jsonb keeps its own order).
 */
export const stableJson = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
