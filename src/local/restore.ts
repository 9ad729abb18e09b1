// Reading back what IndexedDB holds, without trusting it (STYLE §6): a row is checked against its
// entity schema; a field that is missing or of the wrong type is repaired with an empty value of the
// right type (the server's copy replaces it on the next full pull); a row that cannot be repaired is
// left out. Local bookkeeping ($pending, $failed) is kept for the UI.
import { z } from 'zod';
import { stripLocal } from './effects';
import type { KindSpec } from './kinds';

/** What readers get: the entity, plus whether it has changes not yet on the server. */
export type Local<T> = T & {
  /** Outbox entries still to send for this row (0 or absent: in sync). */
  $pending?: number;
  /** The server's message for the latest refused change to this row (rolled back). */
  $failed?: string;
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** An empty value of the field's type, or undefined when there is no sensible one. */
function emptyOf(type: z.ZodType): { value: unknown } | undefined {
  if (type instanceof z.ZodOptional) return { value: undefined };
  if (type instanceof z.ZodNullable) return { value: null };
  if (type instanceof z.ZodDefault) return { value: type.parse(undefined) };
  if (type instanceof z.ZodArray) return { value: [] };
  if (type instanceof z.ZodString) return { value: '' };
  if (type instanceof z.ZodNumber) return { value: 0 };
  if (type instanceof z.ZodBoolean) return { value: false };
  if (type instanceof z.ZodRecord) return { value: {} };
  if (type instanceof z.ZodObject) return { value: repairObject(type, {}) };
  if (type instanceof z.ZodEnum) return { value: type.options[0] };
  return undefined;
}

function repairObject(schema: z.ZodObject, raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...raw };
  for (const [key, type] of Object.entries(schema.shape) as Array<[string, z.ZodType]>) {
    if (type.safeParse(out[key]).success) continue;
    if (type instanceof z.ZodObject && isObject(out[key])) {
      out[key] = repairObject(type, out[key]);
      continue;
    }
    const empty = emptyOf(type);
    if (empty) out[key] = empty.value;
  }
  return out;
}

export interface Restored<T> {
  row: Local<T>;
  /** True when fields had to be filled in: the caller should ask for a fresh copy. */
  repaired: boolean;
}

/** Checks and, where possible, repairs a stored row; undefined for hidden or unusable rows. */
export function restoreRow<T>(spec: KindSpec, raw: unknown): Restored<T> | undefined {
  if (!isObject(raw) || typeof raw.id !== 'string' || !raw.id || raw.$hidden) return undefined;
  const markers: { $pending?: number; $failed?: string } = {};
  if (typeof raw.$pending === 'number' && raw.$pending > 0) markers.$pending = raw.$pending;
  if (typeof raw.$failed === 'string') markers.$failed = raw.$failed;
  const visible = stripLocal(raw);
  const parsed = spec.schema.safeParse(visible);
  if (parsed.success) return { row: { ...(parsed.data as T), ...markers }, repaired: false };
  const again = spec.schema.safeParse(repairObject(spec.schema, visible));
  if (!again.success) return undefined;
  return { row: { ...(again.data as T), ...markers }, repaired: true };
}
