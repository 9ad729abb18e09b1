// The four steps of /setup, built from the administrator pages' parts, always on the user's own
// organization (a new organization's administrator sets up their own lab).
import { useState } from 'react';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { asSubject, denialMessage } from '../../access';
import { treeOf, useOrganizations, useUsers } from '../admin/admin-data';
import { InviteForm } from '../admin/InviteForm';
import { OrganizationEditor } from '../admin/OrganizationPage';
import { PolicyChecklist } from '../admin/PolicyChecklist';
import { inOrder } from '../admin/policies';
import { FailedAlert, RowBadge } from '../admin/RowState';
import { saveEdit, setDiff } from '../admin/save';
import { StatusBadge } from '../admin/UsersPage';
import { TeamsPage } from '../admin/TeamsPage';
import { TeamCreatePage } from '../admin/TeamCreatePage';
import { useAbility } from '../session/ability';
import { useMe } from '../session/session-context';
import { useMutations } from '../sync/hooks';

function useOwnOrganization() {
  const me = useMe();
  return useOrganizations()?.find((o) => o.id === me.organization.id);
}

export function OrganizationSetupStep() {
  const org = useOwnOrganization();
  if (!org) return null;
  return <OrganizationEditor org={org} showPolicies={false} />;
}

/** Which of the 24 policies the organization enables, limited to what it has available. */
export function PolicyConfigurationStep() {
  const org = useOwnOrganization();
  const { ability } = useAbility();
  const { update } = useMutations();
  const [edit, setEdit] = useState<string[] | null>(null);
  if (!org) return null;
  const enabled = edit ?? inOrder(org.enabledPolicies);
  const ops = setDiff(org.enabledPolicies, enabled);
  const dirty = ops.add.length + ops.remove.length > 0;
  const denied = denialMessage(ability, 'update', asSubject('Organization', org), 'enabledPolicies');
  const save = async () => {
    if (
      await saveEdit(update, 'organizations', org.id, {
        add: { enabledPolicies: ops.add },
        remove: { enabledPolicies: ops.remove },
      })
    )
      setEdit(null);
  };
  return (
    <Card withBorder>
      <Stack gap="md">
        <FailedAlert row={org} />
        <Group justify="space-between">
          <div>
            <Title order={4}>Policies of {org.name}</Title>
            <Text size="sm" c="dimmed">
              A user can use a policy only when both the user and the organization have it enabled.
            </Text>
          </div>
          <RowBadge row={org} />
        </Group>
        <PolicyChecklist
          label="Enabled policies"
          value={enabled}
          onChange={setEdit}
          selectable={org.availablePolicies}
          deniedReason={denied}
        />
        <Group justify="flex-end">
          <Button variant="default" disabled={!dirty} onClick={() => setEdit(null)}>
            Discard changes
          </Button>
          <Button disabled={!dirty} onClick={() => void save()}>
            Save policies
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export const TeamSetupStep = () => <TeamsPage createPath="/setup/team-setup/create" />;
export const TeamSetupCreateStep = () => <TeamCreatePage backTo="/setup/team-setup" />;

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
