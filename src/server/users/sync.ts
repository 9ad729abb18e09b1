// Organizations and users in the sync feed: readable per src/access read scopes.
import { organizations, users, type OrganizationRow, type UserRow } from '../db/schema';
import { toOrganizations } from '../organizations/entities';
import type { SyncSource } from '../sync/kinds';
import { toUser } from './repository';

export const organizationSyncSources: readonly SyncSource[] = [
  {
    kind: 'organizations',
    type: 'Organization',
    table: organizations,
    idColumn: organizations.id,
    changeSeqColumn: organizations.changeSeq,
    scope: { id: organizations.id, rootId: organizations.rootId },
    toEntities: (db, rows) => toOrganizations(db, rows as OrganizationRow[]),
  },
  {
    kind: 'users',
    type: 'User',
    table: users,
    idColumn: users.id,
    changeSeqColumn: users.changeSeq,
    scope: { organizationId: users.organizationId },
    toEntities: async (_db, rows) => rows.map((r) => toUser(r as UserRow)),
  },
];
