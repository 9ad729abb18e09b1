// /administrator/pictor-admin: the provider-level list of organizations (roots), for platform
// administrators; Create Organization goes to /new-organization (§2.2). A row opens its organization
// in the admin screens; its user count is what that organization's Users page lists.
import { Stack, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { Denied } from '../../api/messages';
import { formatDate } from '../lib/format';
import { useAbility } from '../session/ability';
import { useOrganizations, useUsers, type LocalOrganization } from './admin-data';
import { useSelection } from './selection';
import { AdminListHeader, AdminTable, NameCell, userLimitText, usersShownFor } from './AdminTable';
import { inOrder } from './policies';

export function PictorAdminPage() {
  const navigate = useNavigate();
  const { ability } = useAbility();
  const orgs = useOrganizations();
  const users = useUsers();
  const { select } = useSelection();
  if (!orgs) return null;
  const roots = orgs.filter((o) => o.parentId === null);
  const createDenied = ability.can('create', 'Organization') ? undefined : Denied.noCreatePermission;
  return (
    <Stack gap="md">
      <AdminListHeader
        caption="Organizations on this platform"
        action="Create Organization"
        deniedReason={createDenied}
        onAction={() => void navigate({ to: '/new-organization' })}
      />
      <AdminTable<LocalOrganization>
        rows={roots}
        minWidth={800}
        onOpen={(o) => {
          select(o.id);
          void navigate({ to: '/administrator/organization' });
        }}
        openLabel={(o) => `Open ${o.name}`}
        columns={[
          { label: 'Organization', render: (o) => <NameCell name={o.name} row={o} /> },
          {
            label: 'Administrator',
            render: (o) => {
              const admin = users?.find((u) => u.id === o.adminUserId);
              return <Text size="sm">{admin ? `${admin.name} (${admin.status})` : '—'}</Text>;
            },
          },
          { label: 'Users', render: (o) => usersShownFor(o, orgs, users) },
          { label: 'User limit', render: userLimitText },
          { label: 'Teams', render: (o) => o.childIds.length },
          { label: 'Available policies', render: (o) => inOrder(o.availablePolicies).length },
          { label: 'Created', render: (o) => formatDate(o.createdAt) },
        ]}
      />
    </Stack>
  );
}
