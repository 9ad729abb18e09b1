// /new-organization: a platform administrator creates an organization (a root) and invites its
// administrator, who gets every policy the organization enables and is sent through /setup after
// activating. Three calls, in an order that leaves nothing half-made on the usual failures: the
// address is checked first; the organization, the invitation, then the organization's adminUserId.
import { useState } from 'react';
import { Alert, Button, Card, Grid, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from '@tanstack/react-router';
import { errorText } from '../../api/errors';
import { AdminText, extractMessage } from '../../api/messages';
import type { Organization, User } from '../../api/users';
import { api } from '../lib/api';
import { PageFrame } from '../shell/data-view';
import { useAbility } from '../session/ability';
import { useMe } from '../session/session-context';
import { useRefreshAdmin } from './admin-data';
import { NoAccess } from './AdminLayout';
import { TOAST_MS } from './constants';
import { OrganizationFields, changesOf, valuesOf, type OrganizationValues } from './OrganizationFields';
import { PolicyChecklist } from './PolicyChecklist';
import { ADMIN_POLICIES, inOrder } from './policies';
import { POLICIES, asSubject } from '../../access';

export function NewOrganizationPage() {
  const { ability } = useAbility();
  const me = useMe();
  const navigate = useNavigate();
  const refresh = useRefreshAdmin();
  const [values, setValues] = useState<OrganizationValues>(() => valuesOf());
  const [available, setAvailable] = useState<string[]>(() => [...ADMIN_POLICIES]);
  const [adminEmail, setAdminEmail] = useState('');
  const [adminName, setAdminName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // A root has no parent: only platform organization managers and super admins create one.
  const root = { id: 'new', rootId: 'new', parentId: null, parentIds: [] };
  if (
    !ability.can('create', asSubject('Organization', root)) ||
    !ability.can('create', asSubject('User', { organizationId: 'new' }))
  )
    return <NoAccess />;
  // Only a super admin may make superAdmin available (the server refuses it to anyone else).
  const superAdmin = me.effectivePolicies.includes('superAdmin');
  const selectable = superAdmin ? POLICIES : ADMIN_POLICIES;

  const create = async () => {
    setBusy(true);
    setError(undefined);
    const email = adminEmail.trim().toLowerCase();
    try {
      const check = await api<{ isEmailAvailable: boolean }>(
        'GET',
        `/users/check-email?email=${encodeURIComponent(email)}`,
      );
      if (!check.isEmailAvailable) throw new Error(errorText('EMAIL_TAKEN'));
      const policies = inOrder(available);
      const { result: org } = await api<{ result: Organization }>('POST', '/organizations', {
        body: {
          organization: {
            ...changesOf(values),
            parentId: null,
            availablePolicies: policies,
            enabledPolicies: policies,
          },
        },
      });
      const { result: admin } = await api<{ result: User }>('POST', '/users', {
        body: {
          user: {
            email,
            ...(adminName.trim() ? { name: adminName.trim() } : {}),
            organizationId: org.id,
            enabledPolicies: policies,
          },
        },
      });
      await api('PATCH', `/organizations/${org.id}`, {
        body: { organization: { adminUserId: admin.id, info: { ...org.info, adminUsers: [admin.email] } } },
      });
      void refresh();
      notifications.show({
        color: 'green',
        message: AdminText.organizationCreated(org.name),
        autoClose: TOAST_MS,
      });
      await navigate({ to: '/administrator/pictor-admin' });
    } catch (e) {
      setError(extractMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const emailOk = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail.trim());
  return (
    <PageFrame title="New Organization" subtitle="An organization at provider level, and its administrator">
      <Card withBorder maw={900}>
        <Stack gap="md">
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <OrganizationFields values={values} onChange={setValues} deny={() => undefined} />
          <div>
            <Title order={5}>Administrator</Title>
            <Text size="xs" c="dimmed">
              They receive an e-mail with an activation link, then set up the organization.
            </Text>
          </div>
          <Grid gap="sm">
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label="Administrator e-mail"
                type="email"
                required
                value={adminEmail}
                maxLength={254}
                onChange={(e) => setAdminEmail(e.currentTarget.value)}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label="Administrator name"
                value={adminName}
                maxLength={100}
                onChange={(e) => setAdminName(e.currentTarget.value)}
              />
            </Grid.Col>
          </Grid>
          <PolicyChecklist
            label="Available policies"
            value={available}
            onChange={setAvailable}
            selectable={selectable}
            hideEmptyGroups={false}
            unavailableReason={AdminText.superAdminOnly}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => void navigate({ to: '/administrator/pictor-admin' })}>
              Cancel
            </Button>
            <Button loading={busy} disabled={!values.name.trim() || !emailOk} onClick={() => void create()}>
              Create organization
            </Button>
          </Group>
        </Stack>
      </Card>
    </PageFrame>
  );
}
