// /administrator/teams/create (and /setup/team-setup/create): a new team under one of the
// organizations the user administers, its policies within the parent's (createTeams, §6.2). Sent to
// the server at once: a team is only useful once it exists there (it gets users and policies).
import { useState } from 'react';
import { Alert, Button, Card, Group, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from '@tanstack/react-router';
import { asSubject, denialMessage } from '../../access';
import { AdminText, extractMessage } from '../../api/messages';
import type { Organization } from '../../api/users';
import { api } from '../lib/api';
import { useAbility } from '../session/ability';
import { useRefreshAdmin } from './admin-data';
import { TOAST_MS } from './constants';
import { NoAccess } from './AdminLayout';
import { OrganizationFields, changesOf, valuesOf, type OrganizationValues } from './OrganizationFields';
import { PolicyChecklist } from './PolicyChecklist';
import { inOrder } from './policies';
import { OrganizationSelect, useSelection } from './selection';

export function TeamCreatePage({ backTo = '/administrator/teams' }: { backTo?: string }) {
  const { ability } = useAbility();
  const { organizations, selected } = useSelection();
  const navigate = useNavigate();
  const refresh = useRefreshAdmin();
  const [parentId, setParentId] = useState<string | null>(null);
  const [values, setValues] = useState<OrganizationValues>(() => valuesOf());
  const [available, setAvailable] = useState<string[] | null>(null);
  const [enabled, setEnabled] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  if (!organizations) return null;
  // A parent is offered when a team placed under it may be created (createTeams: under the own root).
  const parents = organizations.filter((o) =>
    ability.can(
      'create',
      asSubject('Organization', { rootId: o.rootId, parentId: o.id, parentIds: [...o.parentIds, o.id] }),
    ),
  );
  if (parents.length === 0 && !ability.can('create', 'Organization')) return <NoAccess />;
  const parent = parents.find((o) => o.id === (parentId ?? selected?.id)) ?? parents[0];
  const availableNow = inOrder(available ?? parent?.availablePolicies ?? []);
  const enabledNow = inOrder(enabled ?? parent?.enabledPolicies ?? []).filter((p) =>
    availableNow.includes(p),
  );
  // A new row: judge each field as createTeams would (no field limits on create).
  const deny = (): string | undefined => undefined;

  const create = async () => {
    if (!parent) return;
    setBusy(true);
    setError(undefined);
    try {
      const fields = changesOf(values);
      const { result } = await api<{ result: Organization }>('POST', '/organizations', {
        body: {
          organization: {
            ...fields,
            parentId: parent.id,
            availablePolicies: availableNow,
            enabledPolicies: enabledNow,
          },
        },
      });
      void refresh();
      notifications.show({
        color: 'green',
        message: AdminText.teamCreated(result.name),
        autoClose: TOAST_MS,
      });
      await navigate({ to: backTo });
    } catch (e) {
      setError(extractMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder maw={900}>
      <Stack gap="md">
        <Title order={3}>Create New Team</Title>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <OrganizationSelect
          organizations={parents}
          value={parent?.id ?? null}
          onChange={(id) => {
            setParentId(id);
            setAvailable(null);
            setEnabled(null);
          }}
          label="Parent organization"
        />
        <OrganizationFields values={values} onChange={setValues} deny={deny} />
        {parent && (
          <>
            <PolicyChecklist
              label="Available policies"
              value={availableNow}
              onChange={setAvailable}
              selectable={parent.availablePolicies}
              unavailableReason={AdminText.notInParent}
            />
            <PolicyChecklist
              label="Enabled policies"
              value={enabledNow}
              onChange={setEnabled}
              selectable={availableNow}
              deniedReason={denialMessage(ability, 'create', 'Organization')}
            />
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => void navigate({ to: backTo })}>
            Cancel
          </Button>
          <Button loading={busy} disabled={!parent || !values.name.trim()} onClick={() => void create()}>
            Create team
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
