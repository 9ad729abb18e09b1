// Reads users and shapes them as the API returns them (spec §3).
import { sqlArray } from '../db/sql-array';
import { eq } from 'drizzle-orm';
import type { User } from '../../api/users';
import type { Db } from '../db/client';
import { users, type UserRow } from '../db/schema';
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

export { sqlArray };
