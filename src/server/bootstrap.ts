// First start: creates the platform organization and its first super administrator, once. The
// `settings` row is the lock, so two processes starting together cannot both create them.
import crypto from 'node:crypto';
import { POLICIES } from '../access/policies';
import type { Db } from './db/client';
import { organizations, settings, users } from './db/schema';
import { generatePassword, hashPassword } from './auth/passwords';
import { markPasswordGenerated } from './auth/generated-password';

export const DEFAULT_ADMIN_EMAIL = 'admin@tessera.local';
export const PLATFORM_ORGANIZATION_NAME = 'Tessera Platform';

export interface Bootstrapped {
  email: string;
  /** Set only when this call generated it: shown once, never stored in clear. */
  generatedPassword?: string;
}

export async function bootstrap(
  db: Db,
  opts: { adminEmail?: string; adminPassword?: string },
): Promise<Bootstrapped | undefined> {
  const claimed = await db
    .insert(settings)
    .values({ key: 'bootstrapped', value: new Date().toISOString() })
    .onConflictDoNothing()
    .returning();
  if (claimed.length === 0) return undefined;
  const email = (opts.adminEmail ?? DEFAULT_ADMIN_EMAIL).trim().toLowerCase();
  const password = opts.adminPassword ?? generatePassword();
  const orgId = crypto.randomUUID();
  const userId = crypto.randomUUID();
  const all = [...POLICIES];
  await db.transaction(async (tx) => {
    await tx.insert(organizations).values({
      id: orgId,
      name: PLATFORM_ORGANIZATION_NAME,
      rootId: orgId,
      parentId: null,
      parentIds: [],
      enabledPolicies: all,
      availablePolicies: all,
      isPlatform: 1,
      adminUserId: userId,
      creatorUserId: userId,
    });
    await tx.insert(users).values({
      id: userId,
      email,
      name: 'Administrator',
      passwordHash: await hashPassword(password),
      status: 'active',
      organizationId: orgId,
      enabledPolicies: all,
    });
    if (!opts.adminPassword) await markPasswordGenerated(tx, userId);
  });
  return { email, generatedPassword: opts.adminPassword ? undefined : password };
}
