// /account-settings/permissions (§2.2, §6): the effective policies and where each comes from (user ∩
// organization ∩ available), and a request for a change to the administrators.
import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { POLICIES } from '../../access';
import { POLICY_GROUPS, policyLabel } from '../admin/policies';
import { useMe } from '../session/session-context';
import { RequestChangeDialog } from './RequestChangeDialog';

/** Where a policy comes from, in words: effective, or the first of the three sets that lacks it. */
function sourceOf(p: string, mine: string[], orgEnabled: string[], orgAvailable: string[], org: string) {
  if (!orgAvailable.includes(p)) return `Not available to ${org}`;
  if (!orgEnabled.includes(p)) return `Not enabled by ${org}`;
  if (!mine.includes(p)) return 'Not enabled for you';
  return `Enabled for you and by ${org}`;
}

export function PermissionsPage() {
  const me = useMe();
  const [requesting, setRequesting] = useState(false);
  const effective = new Set(me.effectivePolicies);
  const mine = me.user.enabledPolicies;
  const { enabledPolicies: orgEnabled, availablePolicies: orgAvailable, name: org } = me.organization;
  const yes = (v: boolean) => (v ? '✓' : '—');
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed" maw={640}>
          You can use a policy when it is enabled for you, enabled by {org}, and available to {org}.{' '}
          {effective.size} of {POLICIES.length} are in effect.
        </Text>
        <Button variant="light" onClick={() => setRequesting(true)}>
          Request a change
        </Button>
      </Group>
      {me.user.requestedPolicies.length > 0 && (
        <Alert variant="light" color="blue" title="Requested">
          {me.user.requestedPolicies.map(policyLabel).join(', ')}
        </Alert>
      )}
      <Card withBorder p={0}>
        <ScrollArea>
          <Table miw={760} aria-label="Permissions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Policy</Table.Th>
                <Table.Th ta="center">You</Table.Th>
                <Table.Th ta="center">Organization</Table.Th>
                <Table.Th ta="center">Available</Table.Th>
                <Table.Th>Where it comes from</Table.Th>
              </Table.Tr>
            </Table.Thead>
            {POLICY_GROUPS.map((g) => (
              <Table.Tbody key={g.title}>
                <Table.Tr>
                  <Table.Td colSpan={5} bg="var(--mantine-color-gray-0)">
                    <Text size="xs" tt="uppercase" fw={700} c="dimmed">
                      {g.title}
                    </Text>
                  </Table.Td>
                </Table.Tr>
                {g.policies.map((p) => (
                  <Table.Tr key={p} data-policy={p}>
                    <Table.Td>
                      <Text size="sm">{policyLabel(p)}</Text>
                      <Text size="xs" c="dimmed">
                        {p}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="center">{yes(mine.includes(p))}</Table.Td>
                    <Table.Td ta="center">{yes(orgEnabled.includes(p))}</Table.Td>
                    <Table.Td ta="center">{yes(orgAvailable.includes(p))}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        {effective.has(p) ? (
                          <Badge color="green" variant="light" tt="none" style={{ flexShrink: 0 }}>
                            In effect
                          </Badge>
                        ) : null}
                        <Text size="sm" c={effective.has(p) ? undefined : 'dimmed'}>
                          {sourceOf(p, mine, orgEnabled, orgAvailable, org)}
                        </Text>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            ))}
          </Table>
        </ScrollArea>
      </Card>
      <RequestChangeDialog
        opened={requesting}
        onClose={() => setRequesting(false)}
        initialPolicies={me.user.requestedPolicies}
      />
    </Stack>
  );
}
