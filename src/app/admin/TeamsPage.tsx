// /administrator/teams: the teams below the selected organization, with Modify in the organization
// modal (560 px, §9) and Create New Team (/administrator/teams/create). Modify follows modifyTeams
// (availablePolicies, enabledPolicies, info, admin, expiry settings, userLimit); create follows
// createTeams; each control is disabled with the denial tooltip otherwise.
import { useState } from 'react';
import { Badge, Button, Group, Modal, Stack } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { asSubject, canCreateTeam, denialMessage } from '../../access';
import { AdminText, Denied } from '../../api/messages';
import { formatDate } from '../lib/format';
import { useAbility } from '../session/ability';
import { useMutations } from '../sync/hooks';
import { pathName, useOrganizations, useUsers, type LocalOrganization } from './admin-data';
import { AdminListHeader, AdminTable, NameCell, RowAction, userLimitText, usersShownFor } from './AdminTable';
import { ORGANIZATION_MODAL_WIDTH } from './constants';
import {
  OrganizationFields,
  changesOf,
  editsOf,
  valuesOf,
  type OrganizationValues,
} from './OrganizationFields';
import { PolicyChecklist } from './PolicyChecklist';
import { inOrder } from './policies';
import { saveEdit, setDiff } from './save';
import { useSelection } from './selection';

export function TeamsPage({ createPath = '/administrator/teams/create' }: { createPath?: string }) {
  const { selected } = useSelection();
  const all = useOrganizations();
  const { ability } = useAbility();
  const navigate = useNavigate();
  const [editing, setEditing] = useState<string | null>(null);
  const users = useUsers();
  if (!selected || !all) return null;
  const teams = all.filter((o) => o.parentIds.includes(selected.id));
  const createDenied = canCreateTeam(ability) ? undefined : Denied.noCreatePermission;
  const editingTeam = teams.find((t) => t.id === editing);
  return (
    <Stack gap="md">
      <AdminListHeader
        caption={<>Teams of {selected.name}</>}
        action="Create New Team"
        deniedReason={createDenied}
        onAction={() => void navigate({ to: createPath })}
      />
      <AdminTable<LocalOrganization>
        rows={teams}
        minWidth={640}
        columns={[
          {
            label: 'Team',
            render: (t) => (
              <NameCell name={pathName(all, t).replace(`${pathName(all, selected)} › `, '')} row={t} />
            ),
          },
          { label: 'Users', render: (t) => usersShownFor(t, all, users) },
          { label: 'User limit', render: userLimitText },
          {
            label: 'Policies',
            render: (t) => (
              <Badge variant="light" tt="none">
                {inOrder(t.enabledPolicies).length} of {inOrder(t.availablePolicies).length} enabled
              </Badge>
            ),
          },
          { label: 'Created', render: (t) => formatDate(t.createdAt) },
        ]}
        actions={(t) => (
          <RowAction
            label="Modify"
            deniedReason={denialMessage(ability, 'update', asSubject('Organization', t))}
            onClick={() => setEditing(t.id)}
            ariaLabel={`Modify ${t.name}`}
          />
        )}
      />
      <Modal
        opened={!!editingTeam}
        onClose={() => setEditing(null)}
        title={editingTeam ? `Modify ${editingTeam.name}` : ''}
        size={ORGANIZATION_MODAL_WIDTH}
      >
        {editingTeam && (
          <TeamEditor
            team={editingTeam}
            parent={all.find((o) => o.id === editingTeam.parentId)}
            onDone={() => setEditing(null)}
          />
        )}
      </Modal>
    </Stack>
  );
}

/** The organization modal's body: a team's fields and policies, within what its parent has. */
function TeamEditor({
  team,
  parent,
  onDone,
}: {
  team: LocalOrganization;
  parent?: LocalOrganization;
  onDone(): void;
}) {
  const { ability } = useAbility();
  const { update } = useMutations();
  const members = useUsers([team.id]);
  const deny = (field: string) => denialMessage(ability, 'update', asSubject('Organization', team), field);
  const [edits, setEdits] = useState<Partial<OrganizationValues>>({});
  const values = { ...valuesOf(team), ...edits };
  const [available, setAvailable] = useState(() => inOrder(team.availablePolicies));
  const [enabled, setEnabled] = useState(() => inOrder(team.enabledPolicies));
  const parentAvailable = parent ? parent.availablePolicies : team.availablePolicies;
  const availableOps = setDiff(team.availablePolicies, available);
  const enabledNow = enabled.filter((p) => available.includes(p));
  const enabledOps = setDiff(team.enabledPolicies, enabledNow);
  const changes = changesOf(values, team);
  const dirty =
    Object.keys(changes).length > 0 ||
    [...availableOps.add, ...availableOps.remove, ...enabledOps.add, ...enabledOps.remove].length > 0;
  const save = async () => {
    const ok = await saveEdit(update, 'organizations', team.id, {
      set: changes,
      add: { availablePolicies: availableOps.add, enabledPolicies: enabledOps.add },
      remove: { availablePolicies: availableOps.remove, enabledPolicies: enabledOps.remove },
    });
    if (ok) onDone();
  };
  return (
    <Stack gap="md">
      <OrganizationFields
        values={values}
        onChange={(next) => setEdits(editsOf(next, valuesOf(team)))}
        deny={deny}
        numberOfUsers={team.numberOfUsers}
        adminCandidates={(members ?? []).map((u) => ({ value: u.id, label: `${u.name} (${u.email})` }))}
      />
      <PolicyChecklist
        label="Available policies"
        value={available}
        onChange={setAvailable}
        selectable={parentAvailable}
        unavailableReason={AdminText.notInParent}
        deniedReason={deny('availablePolicies')}
      />
      <PolicyChecklist
        label="Enabled policies"
        value={enabledNow}
        onChange={setEnabled}
        selectable={available}
        deniedReason={deny('enabledPolicies')}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button disabled={!dirty || !values.name.trim()} onClick={() => void save()}>
          Save changes
        </Button>
      </Group>
    </Stack>
  );
}
