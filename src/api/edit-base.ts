// The base of an edit and what it overwrote (docs/api.md "Overwritten values"). A PATCH of a study or a
// slide may say what the sender saw when the edit was made: `base: {updatedAt, <field>: value}`, the
// server version of the row and the values the edit replaces. Scalar fields still follow one rule, the
// last write (in arrival order) wins; but when a write replaces a value that was changed on the server
// after that base, the answer names it in `overwritten`, so the sender can tell its user and offer the
// other value back. Only the guarded fields (text a person types) are compared.
import { z } from 'zod';

/** The longest base value compared: the longest guarded field (a slide's notes, 2,000). */
export const BASE_VALUE_MAX = 2000;

/**
 * `base` of a PATCH body for the given guarded fields: the row's `updatedAt` as the sender last had it
 * from the server, and for each guarded field it changes, the value it replaces as the sender saw it.
 */
export function editBase<F extends string>(fields: readonly F[]) {
  const values = Object.fromEntries(
    fields.map((f) => [f, z.string().max(BASE_VALUE_MAX).nullable().optional()]),
  ) as Record<F, z.ZodOptional<z.ZodNullable<z.ZodString>>>;
  return z.strictObject({
    updatedAt: z.iso.datetime({ offset: true, message: 'must be an ISO date' }),
    ...values,
  });
}

/** One value the write replaced although it had changed on the server since the sender's base. */
export const Overwritten = z.object({
  field: z.string(),
  /** The stored value the write replaced (someone else's newer value). */
  serverValue: z.unknown(),
  /** The value the write stored (the sender's). */
  yourValue: z.unknown(),
});
export type Overwritten = z.infer<typeof Overwritten>;

/** What a PATCH answers next to `result` when it overwrote newer values; absent otherwise. */
export const OverwrittenList = z.array(Overwritten);
