// Field-level checks of create and update requests, and the redaction of fields a user may not read.
//
// Convention (also in README): an update is checked per changed field against the STORED row with
// the proposed values under `next` ({...stored, next: patch}). Row conditions (who owns or is
// assigned) thus judge the row as it is, and value limits (a scan order only to `active`, a QC
// result only accepted/rejected/flagged) judge `next.*`. A create is checked against the row as it
// will be stored (ids, creatorUserId, organizationId and storageStatus already filled in).
import type { AppAbility } from './ability-types';
import { denialMessage } from './denial';
import { asSubject, type SubjectMap, type SubjectType } from './subjects';

/** Filled by the server on create, validated by rule conditions rather than by field lists. */
export const SERVER_MANAGED_FIELDS = [
  'id',
  'creatorUserId',
  'organizationId',
  'status',
  'storageStatus',
  'createdAt',
  'updatedAt',
] as const;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

/** Dotted paths of the leaves a patch changes: {info: {city}} → ['info.city']. Arrays are leaves. */
export function patchFields(patch: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(patch).flatMap(([key, value]) => {
    const path = prefix + key;
    return isPlainObject(value) && Object.keys(value).length > 0 ? patchFields(value, `${path}.`) : [path];
  });
}

export type Verdict = { ok: true } | { ok: false; field?: string; message: string };

export function authorizeUpdate<T extends SubjectType>(
  ability: AppAbility,
  type: T,
  stored: SubjectMap[T],
  patch: Record<string, unknown>,
): Verdict {
  const target = asSubject(type, { ...stored, next: patch } as SubjectMap[T]);
  for (const field of patchFields(patch)) {
    const message = denialMessage(ability, 'update', target, field);
    if (message !== undefined) return { ok: false, field, message };
  }
  return { ok: true };
}

/** `row` is the complete new row; `bodyFields` the fields the client sent (default: all of row's). */
export function authorizeCreate<T extends SubjectType>(
  ability: AppAbility,
  type: T,
  row: SubjectMap[T],
  bodyFields: readonly string[] = Object.keys(row),
): Verdict {
  const target = asSubject(type, row);
  const rowMessage = denialMessage(ability, 'create', target);
  if (rowMessage !== undefined) return { ok: false, message: rowMessage };
  const managed: readonly string[] = SERVER_MANAGED_FIELDS;
  for (const field of bodyFields.filter((f) => !managed.includes(f))) {
    const message = denialMessage(ability, 'create', target, field);
    if (message !== undefined) return { ok: false, field, message };
  }
  return { ok: true };
}

/** A copy of an image without `info.traceback` unless the user may read it (super admins). */
export function redactImage<I extends SubjectMap['Image'] & { info?: Record<string, unknown> | null }>(
  ability: AppAbility,
  image: I,
): I {
  if (!image.info || !('traceback' in image.info)) return image;
  if (ability.can('read', asSubject('Image', image), 'info.traceback')) return image;
  const { traceback: _hidden, ...info } = image.info;
  return { ...image, info };
}
