// "A PATCH may send the whole entity back" (docs/api.md): of the entity object a client sends, only
// the fields whose value differs from the stored row are changes. Timestamps and server-kept fields
// are ignored; fields fixed at creation are refused when they differ (400 naming the field).
import { stableJson } from '../../api/common';
import { badRequest } from '../http/errors';

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
    if (opts.fixed.includes(key)) throw badRequest(`${opts.prefix}.${key}: cannot be changed`);
    out[key] = value;
  }
  return out;
}
