// The Share dialog (§2.10, §4.5, §5, §8) for a study or a slide: a list view of the members and
// organizations it is shared with (each removable after its confirmation), then an 'add' mode whose
// pickers exclude who is already assigned, with Share enabled only once someone is chosen. Every
// change is a set operation through the outbox (add/remove of assigneeUserIds / assigneeOrgIds), so it
// works offline and merges with other offline edits. Width 600 (§9), member lists scroll at 136 px.
import { useMemo, useState } from 'react';
import {
  ActionIcon,
  Avatar,
  Button,
  Group,
  Modal,
  MultiSelect,
  ScrollArea,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { Denied, Misc, StudyText, Toasts } from '../../api/messages';
import type { Organization, User } from '../../api/users';
import { readRows } from '../../local/read';
import { initials } from '../lib/format';
import { useLocalQuery, useMutations } from '../sync/hooks';
import { ConfirmDialog } from './ConfirmDialog';
import { withOutcome } from './outcome';

export interface Shareable {
  id: string;
  name: string;
  assigneeUserIds: string[];
  assigneeOrgIds: string[];
}

type Target = { kind: 'studies'; item: Shareable } | { kind: 'scan-groups'; item: Shareable };

export function ShareDialog({ target, onClose }: { target?: Target; onClose(): void }) {
  return (
    <Modal
      opened={!!target}
      onClose={onClose}
      size={600}
      title={target ? `Share ${target.kind === 'studies' ? 'study' : 'slide'} ${target.item.name}` : ''}
      centered
    >
      {target && <ShareBody target={target} onClose={onClose} />}
    </Modal>
  );
}

function ShareBody({ target, onClose }: { target: Target; onClose(): void }) {
  const mutations = useMutations();
  const users = useLocalQuery('users', ['share'], (db) => readRows<User>(db, 'users'));
  const orgs = useLocalQuery('organizations', ['share'], (db) => readRows<Organization>(db, 'organizations'));
  const [adding, setAdding] = useState(false);
  const [userIds, setUserIds] = useState<string[]>([]);
  const [orgIds, setOrgIds] = useState<string[]>([]);
  const [confirm, setConfirm] = useState<{ type: 'user' | 'org'; id: string }>();
  const { item, kind } = target;
  const userById = useMemo(() => new Map((users.data ?? []).map((u) => [u.id, u])), [users.data]);
  const orgById = useMemo(() => new Map((orgs.data ?? []).map((o) => [o.id, o])), [orgs.data]);
  const study = kind === 'studies';

  const share = async () => {
    const outcome = await withOutcome(
      study
        ? {
            pending: Toasts.sharingStudy,
            success: Toasts.studyShared,
            successText: Toasts.studySharedText(item.name),
            failure: Toasts.errorSharingStudy,
          }
        : { pending: Toasts.sharingImage, success: Toasts.imageShared, failure: Toasts.errorSharingImage },
      () => mutations.update(kind, item.id, { add: { assigneeUserIds: userIds, assigneeOrgIds: orgIds } }),
    );
    if (outcome !== 'failed') {
      setUserIds([]);
      setOrgIds([]);
      setAdding(false);
    }
  };

  const remove = async (type: 'user' | 'org', id: string) => {
    setConfirm(undefined);
    await withOutcome(
      type === 'user'
        ? {
            pending: Toasts.removingMember,
            success: Toasts.memberRemoved,
            failure: Toasts.errorRemovingMember,
          }
        : {
            pending: Toasts.removingOrganization,
            success: Toasts.organizationRemoved,
            failure: Toasts.errorRemovingOrganization,
          },
      () =>
        mutations.update(kind, item.id, {
          remove: type === 'user' ? { assigneeUserIds: [id] } : { assigneeOrgIds: [id] },
        }),
    );
  };

  if (adding) {
    const userOptions = (users.data ?? [])
      .filter((u) => !item.assigneeUserIds.includes(u.id))
      .map((u) => ({ value: u.id, label: u.name ? `${u.name} (${u.email})` : u.email }));
    const orgOptions = (orgs.data ?? [])
      .filter((o) => !item.assigneeOrgIds.includes(o.id))
      .map((o) => ({ value: o.id, label: o.name }));
    return (
      <Stack>
        <MultiSelect
          label="Members"
          placeholder="Choose members"
          data={userOptions}
          value={userIds}
          onChange={setUserIds}
          searchable
          nothingFoundMessage={Misc.noOptions}
          maxDropdownHeight={240}
          comboboxProps={{ withinPortal: true }}
        />
        <MultiSelect
          label="Organizations"
          placeholder={orgOptions.length ? 'Choose organizations' : Denied.noOrganizations}
          data={orgOptions}
          value={orgIds}
          onChange={setOrgIds}
          searchable
          nothingFoundMessage={Misc.noOptions}
          maxDropdownHeight={300}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setAdding(false)}>
            Back
          </Button>
          <Button disabled={userIds.length + orgIds.length === 0} onClick={() => void share()}>
            Share
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={5}>Members</Title>
        <Button size="xs" onClick={() => setAdding(true)}>
          Add
        </Button>
      </Group>
      <ScrollArea.Autosize mah={136} type="auto">
        <Stack gap={4} data-testid="share-members">
          {item.assigneeUserIds.length === 0 && (
            <Text size="sm" c="dimmed">
              {Misc.resultsNotFound}
            </Text>
          )}
          {item.assigneeUserIds.map((id) => {
            const u = userById.get(id);
            const label = u ? u.name || u.email : Misc.unavailableUser;
            return (
              <Group key={id} justify="space-between" wrap="nowrap">
                <Group gap="xs" wrap="nowrap">
                  <Avatar size="sm" radius="xl" color="tessera">
                    {initials(label)}
                  </Avatar>
                  <div>
                    <Text size="sm">{label}</Text>
                    {u?.email && u.name && (
                      <Text size="xs" c="dimmed">
                        {u.email}
                      </Text>
                    )}
                  </div>
                </Group>
                <Tooltip label="Remove member" openDelay={300}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove member ${label}`}
                    onClick={() => setConfirm({ type: 'user', id })}
                  >
                    ✕
                  </ActionIcon>
                </Tooltip>
              </Group>
            );
          })}
        </Stack>
      </ScrollArea.Autosize>
      <Title order={5}>Organizations</Title>
      <ScrollArea.Autosize mah={136} type="auto">
        <Stack gap={4} data-testid="share-organizations">
          {item.assigneeOrgIds.length === 0 && (
            <Text size="sm" c="dimmed">
              {Misc.resultsNotFound}
            </Text>
          )}
          {item.assigneeOrgIds.map((id) => {
            const label = orgById.get(id)?.name ?? Misc.unavailableOrganization;
            return (
              <Group key={id} justify="space-between" wrap="nowrap">
                <Group gap="xs">
                  <Avatar size="sm" radius="sm" color="grape">
                    {initials(label)}
                  </Avatar>
                  <Text size="sm">{label}</Text>
                </Group>
                <Tooltip label="Remove organization" openDelay={300}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove organization ${label}`}
                    onClick={() => setConfirm({ type: 'org', id })}
                  >
                    ✕
                  </ActionIcon>
                </Tooltip>
              </Group>
            );
          })}
        </Stack>
      </ScrollArea.Autosize>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
      </Group>
      <ConfirmDialog
        opened={!!confirm}
        title={confirm?.type === 'user' ? 'Remove Member' : 'Remove Organization'}
        message={confirm?.type === 'user' ? StudyText.removeUserConfirm : StudyText.removeOrgConfirm}
        confirmLabel="Remove"
        onCancel={() => setConfirm(undefined)}
        onConfirm={() => confirm && void remove(confirm.type, confirm.id)}
      />
    </Stack>
  );
}
