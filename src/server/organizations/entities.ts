// Reads organizations and shapes them as the API returns them (spec §3 Organization): the read-scope
// columns, one row by id, and rows to entities with their teams and member counts.
import { eq, sql } from 'drizzle-orm';
import type { Organization } from '../../api/users';
import type { Db } from '../db/client';
import type { ScopeColumns } from '../db/read-scope-sql';
import { organizations, users, type OrganizationRow } from '../db/schema';
import { sqlArray } from '../db/sql-array';

/** The columns the Organization read scope tests (one object: readScopeSql keeps its SQL per object). */
export const organizationScope: ScopeColumns = { id: organizations.id, rootId: organizations.rootId };

export async function findOrganization(db: Db, id: string): Promise<OrganizationRow | undefined> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
  return row;
}

export async function toOrganization(db: Db, row: OrganizationRow): Promise<Organization> {
  const [org] = await toOrganizations(db, [row]);
  return org;
}

/** Many rows at once: two queries for all of them (descendants and member counts), not two per row. */
export async function toOrganizations(db: Db, rows: readonly OrganizationRow[]): Promise<Organization[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  // One after another: `db` may be a transaction, whose one connection runs one query at a time.
  const descendants = await db
    .select({ id: organizations.id, parentIds: organizations.parentIds })
    .from(organizations)
    .where(sql`${organizations.parentIds} && ${sqlArray(ids)}`);
  const counts = await db
    .select({ organizationId: users.organizationId, count: sql<number>`count(*)::int` })
    .from(users)
    .where(sql`${users.organizationId} = ANY(${sqlArray(ids, 'uuid')})`)
    .groupBy(users.organizationId);
  const countOf = new Map(counts.map((c) => [c.organizationId, Number(c.count)]));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    rootId: row.rootId,
    parentId: row.parentId,
    parentIds: row.parentIds,
    childIds: descendants.filter((d) => d.parentIds.includes(row.id)).map((d) => d.id),
    enabledPolicies: row.enabledPolicies,
    availablePolicies: row.availablePolicies,
    info: row.info,
    creatorUserId: row.creatorUserId,
    createdAt: row.createdAt.toISOString(),
    adminUserId: row.adminUserId,
    scanGroupSettings: row.scanGroupSettings,
    userLimit: row.userLimit,
    numberOfUsers: countOf.get(row.id) ?? 0,
  }));
}
