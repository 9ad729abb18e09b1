// /account-settings (§2.2): basic information (name, e-mail, change password), permissions (the
// effective policies and where each comes from: user ∩ organization ∩ available, §6), and the user's
// own activity; a request for a change goes to the administrators (§7 request-change).
import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  PasswordInput,
  ScrollArea,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { POLICIES, asSubject, denialMessage } from '../../access';
import { PASSWORD_MIN } from '../../api/auth';
import { AdminText, extractMessage } from '../../api/messages';
import { ActivityFeed } from '../activity/ActivityFeed';
import { NameField } from '../admin/NameField';
import { POLICY_GROUPS, policyLabel } from '../admin/policies';
import { saveEdit } from '../admin/save';
import { api } from '../lib/api';
import { TabsLayout } from '../pages/TabsLayout';
import { useAbility } from '../session/ability';
import { useMe, useSession } from '../session/session-context';
import { useMutations } from '../sync/hooks';
import { RequestChangeDialog } from './RequestChangeDialog';

export const AccountLayout = () => (
  <TabsLayout
    title="Account Settings"
    base="/account-settings"
    tabs={[
      ['basic-information', 'Basic Information'],
      ['permissions', 'Permissions'],
      ['user-activity', 'User Activity'],
    ]}
  />
);

export function BasicInformationPage() {
  const me = useMe();
  const session = useSession();
  const { ability } = useAbility();
  const { update } = useMutations();
  const [name, setName] = useState<string | null>(null);
  const [requesting, setRequesting] = useState(false);
  const nameNow = name ?? me.user.name;
  const nameDenied = denialMessage(ability, 'update', asSubject('User', me.user), 'name');
  const saveName = async () => {
    if (await saveEdit(update, 'users', me.user.id, { set: { name: nameNow.trim() } })) {
      setName(null);
      await session.reloadMe().catch(() => undefined);
    }
  };
  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Card withBorder h="100%">
          <Title order={4} mb="sm">
            Basic information
          </Title>
          <Stack gap="sm">
            <NameField value={nameNow} onChange={setName} deniedReason={nameDenied} />
            <TextInput label="E-mail" value={me.user.email} readOnly disabled />
            <TextInput label="Organization" value={me.organization.name} readOnly disabled />
            <Group justify="space-between">
              <Button variant="subtle" onClick={() => setRequesting(true)}>
                Request a change
              </Button>
              <Button
                disabled={!nameNow.trim() || nameNow.trim() === me.user.name}
                onClick={() => void saveName()}
              >
                Save name
              </Button>
            </Group>
          </Stack>
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <ChangePasswordCard />
      </Grid.Col>
      <RequestChangeDialog opened={requesting} onClose={() => setRequesting(false)} />
    </Grid>
  );
}

function ChangePasswordCard() {
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');
  const [state, setState] = useState<{ ok?: boolean; error?: string; busy?: boolean }>({});
  const change = async () => {
    setState({ busy: true });
    try {
      await api('POST', '/auth/change-password', { body: { oldPassword, newPassword } });
      setState({ ok: true });
      setOld('');
      setNew('');
    } catch (e) {
      setState({ error: extractMessage(e) });
    }
  };
  return (
    <Card withBorder h="100%">
      <Title order={4} mb="sm">
        Change password
      </Title>
      <Stack gap="sm">
        {state.ok && <Alert color="green">{AdminText.passwordChanged}</Alert>}
        {state.error && (
          <Alert color="red" role="alert">
            {state.error}
          </Alert>
        )}
        <PasswordInput
          label="Current password"
          value={oldPassword}
          onChange={(e) => setOld(e.currentTarget.value)}
        />
        <PasswordInput
          label="New password"
          description={`At least ${PASSWORD_MIN} characters`}
          value={newPassword}
          onChange={(e) => setNew(e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button
            onClick={() => void change()}
            loading={state.busy}
            disabled={!oldPassword || newPassword.length < PASSWORD_MIN}
          >
            Change password
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

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

export function UserActivityPage() {
  const me = useMe();
  return <ActivityFeed creatorUserId={me.user.id} showPerson={false} />;
}
