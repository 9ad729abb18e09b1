// /setup/policy-configuration (§2.2, §6): which policies the user's organization enables.
import { useState } from 'react';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { asSubject, denialMessage } from '../../access';
import { PolicyChecklist } from '../admin/PolicyChecklist';
import { inOrder } from '../admin/policies';
import { FailedAlert, RowBadge } from '../admin/RowState';
import { saveEdit, setDiff } from '../admin/save';
import { useAbility } from '../session/ability';
import { useMutations } from '../sync/hooks';
import { useOwnOrganization } from './use-own-organization';

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
