// "A PATCH may send the whole entity back" (docs/api.md): of the entity object a client sends, only
// the fields whose value differs from the stored row are changes. Timestamps and server-kept fields
// are ignored; fields fixed at creation are refused when they differ (400 naming the field). Also which
// of a write's values replace newer ones than the sender had seen (overwrittenValues).
import { stableJson } from '../../api/common';
import type { Overwritten } from '../../api/edit-base';
import { apiError } from '../http/errors';

const isStringArray = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string');

/** Equal as the API means it: sets of ids/tags ignore order, dates compare as instants. */
export function sameValue(key: string, sent: unknown, stored: unknown): boolean {
  if (isStringArray(sent) && isStringArray(stored)) {
    const a = new Set(sent);
    const b = new Set(stored);
    return a.size === b.size && [...a].every((v) => b.has(v));
  }
  if (key.endsWith('At') && typeof sent === 'string' && typeof stored === 'string')
    return Date.parse(sent) === Date.parse(stored);
  return stableJson(sent ?? null) === stableJson(stored ?? null);
}

export function changedFields(
  sent: Record<string, unknown>,
  stored: Record<string, unknown>,
  opts: { ignored: readonly string[]; fixed: readonly string[]; prefix: string },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(sent)) {
    if (value === undefined || opts.ignored.includes(key) || sameValue(key, value, stored[key])) continue;
    if (opts.fixed.includes(key)) throw apiError('FIELD_FIXED', { field: `${opts.prefix}.${key}` });
    out[key] = value;
  }
  return out;
}

/**
 * The newer values a write replaces (src/api/edit-base.ts): a guarded field the write changes, whose
 * stored value differs from the one the sender's edit replaced, on a row changed on the server since
 * the sender's base. Either condition alone is not enough: the row moves for other fields too, and the
 * value the sender saw includes its own earlier edits, which an older refused one never got to store.
 * Without a base (or that field's value in it) nothing is reported. `edits` are the changed fields.
 */
export function overwrittenValues(
  edits: Record<string, unknown>,
  stored: Record<string, unknown> & { updatedAt: string },
  base: ({ updatedAt: string } & Record<string, unknown>) | undefined,
  guarded: readonly string[],
): Overwritten[] {
  if (!base || Date.parse(base.updatedAt) === Date.parse(stored.updatedAt)) return [];
  const out: Overwritten[] = [];
  for (const field of guarded) {
    if (!(field in edits) || base[field] === undefined) continue;
    if (sameValue(field, base[field], stored[field])) continue;
    out.push({ field, serverValue: stored[field] ?? null, yourValue: edits[field] ?? null });
  }
  return out;
}
