// /administrator/user: the users of the selected organization and its teams, Invite user (e-mail
// checked with check-email), Modify (name and enabledPolicies, §6.2) and Remove with the 'Remove user'
// confirmation. Each control follows the abilities: disabled with the denial's tooltip otherwise
// ('You cannot delete yourself').
import { useState } from 'react';
import { Badge, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { asSubject, denialMessage } from '../../access';
import { AdminText, Denied, extractMessage } from '../../api/messages';
import { UserText } from '../../api/organizations';
import { api } from '../lib/api';
import { useAbility } from '../session/ability';
import { useMutations } from '../sync/hooks';
import {
  pathName,
  treeOf,
  useOrganizations,
  useUsers,
  type LocalOrganization,
  type LocalUser,
} from './admin-data';
import { AdminListHeader, AdminTable, NameCell, RowAction } from './AdminTable';
import { ORGANIZATION_MODAL_WIDTH, TOAST_MS } from './constants';
import { InviteForm } from './InviteForm';
import { NameField } from './NameField';
import { PolicyChecklist } from './PolicyChecklist';
import { inOrder } from './policies';
import { saveEdit, setDiff } from './save';
import { useSelection } from './selection';

const STATUS_COLOR: Record<string, string> = {
  active: 'green',
  pending: 'yellow',
  created: 'gray',
  organizer: 'blue',
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={STATUS_COLOR[status] ?? 'gray'} variant="light">
      {status}
    </Badge>
  );
}

export function UsersPage() {
  const { selected, organizations } = useSelection();
  const all = useOrganizations();
  const tree = selected && all ? treeOf(all, selected.id) : undefined;
  const users = useUsers(tree?.map((o) => o.id) ?? []);
  const { ability } = useAbility();
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  if (!selected || !all || !tree || !organizations) return null;
  const inviteTargets = organizations.filter((o) =>
    ability.can('create', asSubject('User', { organizationId: o.id })),
  );
  const inviteDenied = inviteTargets.length ? undefined : Denied.noCreatePermission;
  const orgOf = (id: string) => all.find((o) => o.id === id);
  // Sent at once, like the invitation itself: the server says whether the e-mail went out.
  const resend = async (u: LocalUser) => {
    try {
      await api('POST', `/users/${encodeURIComponent(u.id)}/invitation`, { body: {} });
      notifications.show({
        color: 'green',
        message: UserText.invitationResent(u.email),
        autoClose: TOAST_MS,
      });
    } catch (e) {
      notifications.show({ color: 'red', title: 'Error', message: extractMessage(e), autoClose: TOAST_MS });
    }
  };
  const editingUser = users?.find((u) => u.id === editing);
  const removingUser = users?.find((u) => u.id === removing);
  return (
    <Stack gap="md">
      <AdminListHeader
        caption={<>Users of {selected.name} and its teams</>}
        action="Invite user"
        deniedReason={inviteDenied}
        onAction={() => setInviting(true)}
      />
      <AdminTable
        rows={users}
        minWidth={720}
        columns={[
          { label: 'Name', render: (u) => <NameCell name={u.name} row={u} nowrap /> },
          { label: 'E-mail', render: (u) => <Text size="sm">{u.email}</Text> },
          {
            label: 'Organization',
            render: (u) => {
              const org = orgOf(u.organizationId);
              return <Text size="sm">{org ? pathName(all, org) : '—'}</Text>;
            },
          },
          { label: 'Status', render: (u) => <StatusBadge status={u.status} /> },
          { label: 'Policies', render: (u) => inOrder(u.enabledPolicies).length },
        ]}
        actions={(u) => {
          const subject = asSubject('User', u);
          return (
            <>
              <RowAction
                label="Modify"
                deniedReason={
                  denialMessage(ability, 'update', subject, 'enabledPolicies') &&
                  denialMessage(ability, 'update', subject, 'name')
                }
                onClick={() => setEditing(u.id)}
                ariaLabel={`Modify ${u.email}`}
              />
              {u.status !== 'active' && (
                <RowAction
                  label={AdminText.resendInvitation}
                  deniedReason={denialMessage(
                    ability,
                    'create',
                    asSubject('User', { organizationId: u.organizationId }),
                  )}
                  onClick={() => void resend(u)}
                  ariaLabel={`${AdminText.resendInvitation} to ${u.email}`}
                />
              )}
              <RowAction
                label="Remove"
                color="red"
                deniedReason={denialMessage(ability, 'delete', subject)}
                onClick={() => setRemoving(u.id)}
                ariaLabel={`Remove ${u.email}`}
              />
            </>
          );
        }}
        footer={
          <Text size="xs" c="dimmed" p="xs">
            {users?.length ?? 0} in all
          </Text>
        }
      />
      <Modal
        opened={inviting}
        onClose={() => setInviting(false)}
        title="Invite user"
        size={ORGANIZATION_MODAL_WIDTH}
      >
        <InviteForm
          targets={inviteTargets}
          defaultOrganizationId={selected.id}
          onDone={() => setInviting(false)}
        />
      </Modal>
      <Modal
        opened={!!editingUser}
        onClose={() => setEditing(null)}
        title={editingUser ? `Modify ${editingUser.email}` : ''}
        size={ORGANIZATION_MODAL_WIDTH}
      >
        {editingUser && (
          <UserEditor
            user={editingUser}
            org={orgOf(editingUser.organizationId)}
            onDone={() => setEditing(null)}
          />
        )}
      </Modal>
      <RemoveUserDialog user={removingUser} onClose={() => setRemoving(null)} />
    </Stack>
  );
}

function UserEditor({ user, org, onDone }: { user: LocalUser; org?: LocalOrganization; onDone(): void }) {
  const { ability } = useAbility();
  const { update } = useMutations();
  const subject = asSubject('User', user);
  const [name, setName] = useState(user.name);
  const [policies, setPolicies] = useState(() => inOrder(user.enabledPolicies));
  const nameDenied = denialMessage(ability, 'update', subject, 'name');
  const policiesDenied = denialMessage(ability, 'update', subject, 'enabledPolicies');
  const ops = setDiff(user.enabledPolicies, policies);
  const nameChanged = name.trim() !== user.name;
  const dirty = nameChanged || ops.add.length + ops.remove.length > 0;
  const save = async () => {
    const ok = await saveEdit(update, 'users', user.id, {
      set: nameChanged ? { name: name.trim() } : {},
      add: { enabledPolicies: ops.add },
      remove: { enabledPolicies: ops.remove },
    });
    if (ok) onDone();
  };
  return (
    <Stack gap="md">
      <NameField value={name} onChange={setName} deniedReason={nameDenied} />
      <TextInput label="E-mail" value={user.email} disabled readOnly />
      <PolicyChecklist
        label="Enabled policies"
        value={policies}
        onChange={setPolicies}
        selectable={org?.availablePolicies ?? []}
        deniedReason={policiesDenied}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button disabled={!dirty || !name.trim()} onClick={() => void save()}>
          Save changes
        </Button>
      </Group>
    </Stack>
  );
}

/** 'Remove user confirmation' (§2.10). */
function RemoveUserDialog({ user, onClose }: { user?: LocalUser; onClose(): void }) {
  const { remove } = useMutations();
  const confirm = async () => {
    if (!user) return;
    try {
      await remove('users', user.id);
      onClose();
    } catch (error) {
      notifications.show({ color: 'red', message: extractMessage(error), autoClose: TOAST_MS });
    }
  };
  return (
    <Modal
      opened={!!user}
      onClose={onClose}
      title={AdminText.removeUserTitle}
      size={ORGANIZATION_MODAL_WIDTH}
    >
      <Stack>
        <Text size="sm">{user ? AdminText.removeUserConfirm(user.name) : ''}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" onClick={() => void confirm()}>
            {AdminText.removeUserTitle}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
