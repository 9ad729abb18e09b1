// Organizations and users in the sync feed: readable per src/access read scopes.
import { organizations, users } from '../db/schema';
import { registerSyncSource } from '../sync/kinds';
import { toOrganizations, toUser, type OrganizationRow, type UserRow } from './repository';

export function organizationSyncSources(): void {
  registerSyncSource({
    kind: 'organizations',
    type: 'Organization',
    table: organizations,
    idColumn: organizations.id,
    changeSeqColumn: organizations.changeSeq,
    scope: { id: organizations.id, rootId: organizations.rootId },
    toEntities: (db, rows) => toOrganizations(db, rows as OrganizationRow[]),
  });
  registerSyncSource({
    kind: 'users',
    type: 'User',
    table: users,
    idColumn: users.id,
    changeSeqColumn: users.changeSeq,
    scope: { organizationId: users.organizationId },
    toEntities: async (_db, rows) => rows.map((r) => toUser(r as UserRow)),
  });
}
