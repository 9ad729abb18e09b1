// /administrator/pictor-admin: the provider-level list of organizations (roots), for platform
// administrators; Create Organization goes to /new-organization (§2.2).
import { Button, Card, Group, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { Denied, Misc } from '../../api/messages';
import { formatDate } from '../lib/format';
import { useAbility } from '../session/ability';
import { useOrganizations, useUsers } from './admin-data';
import { DeniedTooltip } from './Denied';
import { inOrder } from './policies';
import { RowBadge } from './RowState';

export function PictorAdminPage() {
  const navigate = useNavigate();
  const { ability } = useAbility();
  const orgs = useOrganizations();
  const users = useUsers();
  if (!orgs) return null;
  const roots = orgs.filter((o) => o.parentId === null);
  const createDenied = ability.can('create', 'Organization') ? undefined : Denied.noCreatePermission;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text c="dimmed" size="sm">
          Organizations on this platform
        </Text>
        <DeniedTooltip reason={createDenied}>
          <Button disabled={!!createDenied} onClick={() => void navigate({ to: '/new-organization' })}>
            Create Organization
          </Button>
        </DeniedTooltip>
      </Group>
      {roots.length === 0 ? (
        <Card withBorder>
          <Text c="dimmed" ta="center">
            {Misc.resultsNotFound}
          </Text>
        </Card>
      ) : (
        <Card withBorder p={0}>
          <ScrollArea>
            <Table striped highlightOnHover miw={720}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Organization</Table.Th>
                  <Table.Th>Administrator</Table.Th>
                  <Table.Th>Users</Table.Th>
                  <Table.Th>Teams</Table.Th>
                  <Table.Th>Available policies</Table.Th>
                  <Table.Th>Created</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {roots.map((o) => {
                  const admin = users?.find((u) => u.id === o.adminUserId);
                  return (
                    <Table.Tr key={o.id}>
                      <Table.Td>
                        <Group gap="xs">
                          <Text size="sm" fw={500}>
                            {o.name}
                          </Text>
                          <RowBadge row={o} />
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{admin ? `${admin.name} (${admin.status})` : '—'}</Text>
                      </Table.Td>
                      <Table.Td>
                        {o.userLimit !== null ? `${o.numberOfUsers} of ${o.userLimit}` : o.numberOfUsers}
                      </Table.Td>
                      <Table.Td>{o.childIds.length}</Table.Td>
                      <Table.Td>{inOrder(o.availablePolicies).length}</Table.Td>
                      <Table.Td>{formatDate(o.createdAt)}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </Card>
      )}
    </Stack>
  );
}
