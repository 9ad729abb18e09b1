// Value checks of organization and user writes that are not abilities: policy names are among the 24
// and within what the organization (or its parent) has available, expiry defaults within the maximum,
// administrators from the same organization tree. Each failure is a 400 naming the field.
import { eq } from 'drizzle-orm';
import { isPolicy } from '../../access';
import type { Db } from '../db/client';
import { organizations, users } from '../db/schema';
import type { ScanGroupSettings } from '../db/schema';
import { apiError, type HttpError } from '../http/errors';

/** Every name is one of the 24 policies and, when `within` is given, one of those (else `outside`'s error). */
export function checkPolicies(
  field: string,
  values: readonly string[],
  within?: readonly string[],
  outside: (name: string) => HttpError = (name) => apiError('POLICY_NOT_AVAILABLE', { field, name }),
): void {
  const allowed = within && new Set(within);
  for (const name of values) {
    if (!isPolicy(name)) throw apiError('NOT_A_POLICY', { field, name });
    if (allowed && !allowed.has(name)) throw outside(name);
  }
}

/**
 * Making superAdmin available or enabled creates a super admin: only a super admin may do that,
 * whatever organization or user policies the caller holds (platform managers included).
 */
export function checkSuperAdminGrant(
  callerIsSuperAdmin: boolean,
  granted: readonly string[] | undefined,
): void {
  if (!callerIsSuperAdmin && granted?.includes('superAdmin')) throw apiError('SUPER_ADMIN_ONLY');
}

export function checkExpirySettings(settings: ScanGroupSettings): void {
  const { defaultActiveExpiryDays: def, maxDefaultActiveExpiryDays: max } = settings;
  if (def !== undefined && max !== undefined && def > max) throw apiError('EXPIRY_ABOVE_MAX');
}

/** An organization's administrator must belong to an organization of the same tree. */
export async function checkAdminUser(db: Db, adminUserId: string | null | undefined, rootId: string) {
  if (!adminUserId) return;
  const [row] = await db
    .select({ rootId: organizations.rootId })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(eq(users.id, adminUserId));
  if (!row || row.rootId !== rootId) throw apiError('ADMIN_NOT_MEMBER');
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The part of `patch` that differs from `stored`: nested objects compared leaf by leaf, arrays and
 * scalars as values. Sending a field unchanged is then no change, and needs no permission.
 */
export function changedOnly(
  stored: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const before = stored[key];
    if (isPlainObject(value) && isPlainObject(before ?? {})) {
      const inner = changedOnly((before ?? {}) as Record<string, unknown>, value);
      if (Object.keys(inner).length) out[key] = inner;
    } else if (JSON.stringify(before ?? null) !== JSON.stringify(value)) out[key] = value;
  }
  return out;
}
