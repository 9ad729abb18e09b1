// /administrator/organization: the selected organization's details (info, administrator, expiry
// defaults, user limit and number of users) and its enabled policies, each editable only where the
// user's abilities allow (§6.2 modifyOrganization, modifyTeams, platform management).
import { useState } from 'react';
import { Button, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { asSubject, denialMessage } from '../../access';
import type { Organization } from '../../api/users';
import { useAbility } from '../session/ability';
import { useMutations } from '../sync/hooks';
import { useUsers, type LocalOrganization } from './admin-data';
import {
  OrganizationFields,
  changesOf,
  editsOf,
  valuesOf,
  type OrganizationValues,
} from './OrganizationFields';
import { PolicyChecklist } from './PolicyChecklist';
import { FailedAlert, RowBadge } from './RowState';
import { saveEdit, setDiff } from './save';
import { useSelection } from './selection';
import { inOrder } from './policies';

export function OrganizationPage() {
  const { selected } = useSelection();
  if (!selected) return <Loader size="sm" />;
  return <OrganizationEditor key={selected.id} org={selected} />;
}

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size="xl" fw={600}>
        {value}
      </Text>
    </Card>
  );
}

/** The ability's reason, if any, why `field` of `org` may not be changed. */
export function useOrgDenial(org: Organization) {
  const { ability } = useAbility();
  return (field: string) => denialMessage(ability, 'update', asSubject('Organization', org), field);
}

export function OrganizationEditor({
  org,
  showPolicies = true,
}: {
  org: LocalOrganization;
  showPolicies?: boolean;
}) {
  const deny = useOrgDenial(org);
  const { update } = useMutations();
  const members = useUsers([org.id]);
  // Edits are kept apart from the row, so a newer copy (a pull, another tab) shows in untouched fields.
  const [edits, setEdits] = useState<Partial<OrganizationValues>>({});
  const [policyEdit, setPolicyEdit] = useState<string[] | null>(null);
  const values = { ...valuesOf(org), ...edits };
  const setValues = (next: OrganizationValues) => setEdits(editsOf(next, valuesOf(org)));
  const enabled = policyEdit ?? inOrder(org.enabledPolicies);
  const reset = () => {
    setEdits({});
    setPolicyEdit(null);
  };

  const changes = changesOf(values, org);
  const policyOps = setDiff(org.enabledPolicies, enabled);
  const dirty = Object.keys(changes).length > 0 || policyOps.add.length + policyOps.remove.length > 0;
  const admin = members?.find((u) => u.id === org.adminUserId);
  const save = async () => {
    const ok = await saveEdit(update, 'organizations', org.id, {
      set: changes,
      add: { enabledPolicies: policyOps.add },
      remove: { enabledPolicies: policyOps.remove },
    });
    if (ok) reset();
  };

  return (
    <Stack gap="md">
      <FailedAlert row={org} />
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Stat
          label="Users"
          value={org.userLimit !== null ? `${org.numberOfUsers} of ${org.userLimit}` : org.numberOfUsers}
        />
        <Stat label="Teams" value={org.childIds.length} />
        <Stat label="Enabled policies" value={inOrder(org.enabledPolicies).length} />
        <Stat label="Administrator" value={admin?.name ?? (org.adminUserId ? '…' : '—')} />
      </SimpleGrid>
      <Card withBorder>
        <Group justify="space-between" mb="sm">
          <Title order={4}>{org.name}</Title>
          <RowBadge row={org} />
        </Group>
        <OrganizationFields
          values={values}
          onChange={setValues}
          deny={deny}
          numberOfUsers={org.numberOfUsers}
          adminCandidates={(members ?? []).map((u) => ({ value: u.id, label: `${u.name} (${u.email})` }))}
        />
      </Card>
      {showPolicies && (
        <Card withBorder>
          <PolicyChecklist
            label="Enabled policies"
            value={enabled}
            onChange={setPolicyEdit}
            selectable={org.availablePolicies}
            deniedReason={deny('enabledPolicies')}
          />
        </Card>
      )}
      <Group justify="flex-end">
        <Button variant="default" disabled={!dirty} onClick={reset}>
          Discard changes
        </Button>
        <Button disabled={!dirty || !values.name.trim()} onClick={() => void save()}>
          Save changes
        </Button>
      </Group>
    </Stack>
  );
}
