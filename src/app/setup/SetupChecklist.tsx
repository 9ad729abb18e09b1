// The first-run checklist: a button beside the dashboard's title that opens what a new lab still
// needs (organs, pipelines, teams, colleagues, one's own password), each linked to where it is done.
// It lists only what the signed-in user may do, and the button shows only while one of those is left.
// It stands out of the flow beside the title, so appearing once the local store has answered moves
// nothing on the page.
// A super administrator also finds here the button that loads the demo lab into the running server.
import { useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Divider,
  Group,
  Popover,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { asSubject, canCreateTeam } from '../../access';
import { DEMO_ORGANIZATION, FirstRunText, type DemoLabResult } from '../../api/first-run';
import { extractMessage } from '../../api/messages';
import { countRows } from '../../local/read';
import { useOrganizations } from '../admin/admin-data';
import { api } from '../lib/api';
import { useAbility } from '../session/ability';
import { useMe } from '../session/session-context';
import { useSync } from '../sync/context';
import { useLocalQuery } from '../sync/hooks';
import { useCanSetUp } from './SetupLayout';

interface Step {
  label: string;
  done: boolean;
  href: string;
}

/** The steps the user may act on; undefined until the local store has answered. */
function useSteps(): Step[] | undefined {
  const me = useMe();
  const { ability } = useAbility();
  const organs = useLocalQuery('organs', ['setup-count'], (db) => countRows(db, 'organs')).data;
  const pipelines = useLocalQuery('pipelines', ['setup-count'], (db) => countRows(db, 'pipelines')).data;
  const users = useLocalQuery('users', ['setup-count'], (db) => countRows(db, 'users')).data;
  const organizations = useOrganizations();
  if (organs === undefined || pipelines === undefined || users === undefined || !organizations)
    return undefined;
  const steps: Array<Step & { may: boolean }> = [
    {
      label: FirstRunText.passwordStep,
      may: !!me.passwordChangeAdvised,
      done: false,
      href: '/account-settings/basic-information',
    },
    {
      label: FirstRunText.organsStep,
      may: ability.can('create', 'Organ'),
      done: organs > 0,
      href: '/administrator/organs',
    },
    {
      label: FirstRunText.pipelinesStep,
      may: ability.can('create', 'Pipeline'),
      done: pipelines > 0,
      href: '/administrator/pipelines',
    },
    {
      label: FirstRunText.teamsStep,
      may: canCreateTeam(ability),
      done: organizations.some((o) => o.id !== me.organization.id),
      href: '/setup/team-setup',
    },
    {
      label: FirstRunText.usersStep,
      may: ability.can('create', asSubject('User', { organizationId: me.organization.id })),
      done: users > 1,
      href: '/setup/invite-users',
    },
  ];
  return steps.filter((s) => s.may);
}

export function SetupChecklist() {
  const steps = useSteps();
  const [opened, setOpened] = useState(false);
  if (!steps || steps.length === 0 || steps.every((s) => s.done)) return null;
  const done = steps.filter((s) => s.done).length;
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={360} withinPortal shadow="md">
      <Popover.Target>
        <Button
          size="compact-sm"
          variant="light"
          color="yellow"
          aria-label={FirstRunText.checklist}
          onClick={() => setOpened((o) => !o)}
          style={{ flexShrink: 0 }}
        >
          Setup {done}/{steps.length}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <ChecklistBody steps={steps} onGo={() => setOpened(false)} />
      </Popover.Dropdown>
    </Popover>
  );
}

function ChecklistBody({ steps, onGo }: { steps: Step[]; onGo(): void }) {
  const navigate = useNavigate();
  const canSetUp = useCanSetUp();
  const go = (href: string) => {
    onGo();
    void navigate({ href });
  };
  return (
    <Stack gap="sm" data-testid="setup-checklist">
      <div>
        <Title order={5}>{FirstRunText.checklist}</Title>
        <Text size="xs" c="dimmed">
          {FirstRunText.checklistIntro}
        </Text>
      </div>
      <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {steps.map((s) => (
          <Group key={s.label} component="li" gap="xs" wrap="nowrap">
            <ThemeIcon
              size="sm"
              radius="xl"
              color={s.done ? 'green' : 'gray'}
              variant={s.done ? 'filled' : 'light'}
            >
              <Text size="xs" fw={700} aria-hidden>
                {s.done ? '✓' : '·'}
              </Text>
            </ThemeIcon>
            <Anchor
              href={s.href}
              size="sm"
              td={s.done ? 'line-through' : undefined}
              c={s.done ? 'dimmed' : undefined}
              aria-label={`${s.label}${s.done ? ' (done)' : ''}`}
              onClick={(e) => {
                e.preventDefault();
                go(s.href);
              }}
            >
              {s.label}
            </Anchor>
          </Group>
        ))}
      </Stack>
      {canSetUp && (
        <Anchor
          href="/setup"
          size="sm"
          onClick={(e) => {
            e.preventDefault();
            go('/setup');
          }}
        >
          {FirstRunText.organizationSetup} →
        </Anchor>
      )}
      <DemoLab />
    </Stack>
  );
}

/** The super administrator's button that loads the demo lab, until the demo lab is there. */
function DemoLab() {
  const me = useMe();
  const organizations = useOrganizations();
  const { engine } = useSync();
  const [state, setState] = useState<{ busy?: boolean; error?: string; result?: DemoLabResult }>({});
  if (!me.effectivePolicies.includes('superAdmin')) return null;
  if (!state.result && organizations?.some((o) => o.name === DEMO_ORGANIZATION)) return null;
  const load = async () => {
    setState({ busy: true });
    try {
      const result = await api<DemoLabResult>('POST', '/demo-lab', { body: {} });
      setState({ result });
      void engine?.pull(undefined, true);
    } catch (e) {
      setState({ error: extractMessage(e) });
    }
  };
  return (
    <>
      <Divider />
      {state.result ? (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {FirstRunText.demoLoaded}
          </Text>
          <Table fz="xs" verticalSpacing={2}>
            <Table.Tbody>
              {state.result.users.map((u) => (
                <Table.Tr key={u.email}>
                  <Table.Td>{u.role}</Table.Td>
                  <Table.Td>{u.email}</Table.Td>
                  <Table.Td ff="monospace">{u.password}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      ) : (
        <Button variant="default" size="xs" loading={state.busy} onClick={() => void load()}>
          {FirstRunText.loadDemo}
        </Button>
      )}
      {state.error && (
        <Alert color="red" p="xs" role="alert">
          {state.error}
        </Alert>
      )}
    </>
  );
}
