// /setup/invite-users (§2.2): invite users into the organization or its children, and the users so far.
import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { asSubject } from '../../access';
import { treeOf, useOrganizations, useUsers } from '../admin/admin-data';
import { InviteForm } from '../admin/InviteForm';
import { StatusBadge } from '../admin/UsersPage';
import { useAbility } from '../session/ability';
import { useMe } from '../session/session-context';

export function InviteUsersStep() {
  const me = useMe();
  const { ability } = useAbility();
  const orgs = useOrganizations();
  const tree = orgs ? treeOf(orgs, me.organization.id) : [];
  const users = useUsers(tree.map((o) => o.id));
  const targets = tree.filter((o) => ability.can('create', asSubject('User', { organizationId: o.id })));
  return (
    <Group align="flex-start" gap="md" grow wrap="wrap">
      <Card withBorder miw={320}>
        <Title order={4} mb="sm">
          Invite a user
        </Title>
        <InviteForm targets={targets} defaultOrganizationId={me.organization.id} />
      </Card>
      <Card withBorder miw={320}>
        <Title order={4} mb="sm">
          Users
        </Title>
        <Stack gap="xs">
          {(users ?? []).map((u) => (
            <Group key={u.id} justify="space-between" wrap="nowrap">
              <div style={{ minWidth: 0 }}>
                <Text size="sm" fw={500} truncate>
                  {u.name}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {u.email}
                </Text>
              </div>
              <StatusBadge status={u.status} />
            </Group>
          ))}
        </Stack>
      </Card>
    </Group>
  );
}
