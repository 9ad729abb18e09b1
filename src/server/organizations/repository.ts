// Organization writes: create, update and delete, the row lock of a read-modify-write, and the cascade
// that keeps every team's policies within its parent's (a team never has what its parent lacks, §6).
import { eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { POLICIES } from '../../access';
import type { Db } from '../db/client';
import { organizations, type OrganizationRow } from '../db/schema';
import { sqlArray } from '../db/sql-array';

/** What a new root organization may use unless its creator says otherwise: all but the platform's own. */
export const DEFAULT_ROOT_POLICIES = POLICIES.filter((p) => p !== 'superAdmin' && !p.startsWith('platform'));

/** The row, locked until the surrounding transaction ends, so concurrent set edits apply in turn. */
export async function lockOrganization(tx: Db, id: string): Promise<OrganizationRow | undefined> {
  const [row] = await tx.select().from(organizations).where(eq(organizations.id, id)).for('update');
  return row;
}

/** Removes `removed` from the available and enabled policies of every team below `id`. */
export async function cascadeAvailablePolicies(tx: Db, id: string, removed: readonly string[]) {
  if (removed.length === 0) return;
  const gone = sqlArray(removed);
  await tx
    .update(organizations)
    .set({
      availablePolicies: sql`array(SELECT p FROM unnest(${organizations.availablePolicies}) p WHERE p <> ALL(${gone}))`,
      enabledPolicies: sql`array(SELECT p FROM unnest(${organizations.enabledPolicies}) p WHERE p <> ALL(${gone}))`,
      updatedAt: new Date(),
    })
    .where(sql`${id} = ANY(${organizations.parentIds})`);
}

/**
 * Touches organizations whose derived fields changed — `childIds` when a team below was added or
 * removed (and with them the abilities over teams), `numberOfUsers` when a user joined or left — so
 * the sync feed sends them again.
 */
export async function touchOrganizations(tx: Db, ids: readonly string[]) {
  if (ids.length === 0) return;
  await tx
    .update(organizations)
    .set({ updatedAt: new Date() })
    .where(sql`${organizations.id} = ANY(${sqlArray(ids, 'uuid')})`);
}

export async function insertOrganization(
  tx: Db,
  row: typeof organizations.$inferInsert,
): Promise<OrganizationRow> {
  const [created] = await tx.insert(organizations).values(row).returning();
  return created;
}

/** Writes `set` to the organization; the row as it is now. */
export async function updateOrganization(
  tx: Db,
  id: string,
  set: PgUpdateSetSource<typeof organizations>,
): Promise<OrganizationRow> {
  const [updated] = await tx.update(organizations).set(set).where(eq(organizations.id, id)).returning();
  return updated;
}

export async function deleteOrganization(tx: Db, id: string): Promise<void> {
  await tx.delete(organizations).where(eq(organizations.id, id));
}

/** Organizations the user administered have no administrator once the user is gone. */
export async function clearOrganizationAdmin(tx: Db, userId: string): Promise<void> {
  await tx
    .update(organizations)
    .set({ adminUserId: null, updatedAt: new Date() })
    .where(eq(organizations.adminUserId, userId));
}
