// Reads and writes users and shapes them as the API returns them (spec §3).
import { sqlArray } from '../db/sql-array';
import { eq, sql } from 'drizzle-orm';
import type { User } from '../../api/users';
import type { Db } from '../db/client';
import { actionTokens, refreshTokens, sessions, users, type UserRow } from '../db/schema';
import type { ScopeColumns } from '../db/read-scope-sql';

/** The columns the User read scope tests (one object: readScopeSql keeps its SQL per object). */
export const userScope: ScopeColumns = { organizationId: users.organizationId };

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    search: `${row.name} ${row.email}`.toLowerCase(),
    name: row.name,
    status: row.status as User['status'],
    organizationId: row.organizationId,
    enabledPolicies: row.enabledPolicies,
    requestedPolicies: row.requestedPolicies,
    creatorUserId: row.creatorUserId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  return row;
}

export async function findUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** Writes `patch` to the user and stamps updatedAt; the row as it is now. */
export async function updateUser(
  db: Db,
  id: string,
  patch: Partial<Pick<UserRow, 'name' | 'enabledPolicies'>>,
): Promise<UserRow> {
  const [updated] = await db
    .update(users)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return updated;
}

/** Deletes the user; their sessions and e-mailed links end with them. */
export async function deleteUser(db: Db, id: string): Promise<void> {
  await db.delete(users).where(eq(users.id, id));
  await db.delete(refreshTokens).where(eq(refreshTokens.userId, id));
  await db.delete(sessions).where(eq(sessions.userId, id));
  await db.delete(actionTokens).where(eq(actionTokens.userId, id));
}

/** A new password (its hash); sessions and links are the caller's to end. */
export async function setUserPassword(db: Db, id: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, id));
}

/** An invited user sets their password and becomes active. */
export async function activateUser(db: Db, id: string, passwordHash: string): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash, status: 'active', updatedAt: new Date() })
    .where(eq(users.id, id));
}

/** The policies the user asked their administrators for. */
export async function setRequestedPolicies(db: Db, id: string, policies: string[]): Promise<void> {
  await db
    .update(users)
    .set({ requestedPolicies: policies, updatedAt: sql`now()` })
    .where(eq(users.id, id));
}

export { sqlArray };
