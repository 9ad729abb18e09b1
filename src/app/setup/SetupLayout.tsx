// /setup: the first-run flow a new organization's administrator is sent through (§2.2): the
// organization's details, which of its available policies it enables, its teams, and its first
// users. Each step is a route (organization-setup, policy-configuration, team-setup, invite-users)
// shown as a stepper; each control follows the abilities like the administrator pages.
import { Button, Group, Paper, Stack, Stepper, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Outlet, useLocation, useNavigate } from '@tanstack/react-router';
import { asSubject, canCreateTeam, canViewAdminArea } from '../../access';
import { useSessionFollowsMirror } from '../admin/admin-data';
import { NoAccess } from '../admin/AdminLayout';
import { OrganizationSelectionProvider } from '../admin/selection';
import { useAbility } from '../session/ability';
import { useMe } from '../session/session-context';

export const SETUP_STEPS: Array<[string, string, string]> = [
  ['organization-setup', 'Organization', 'Address and defaults'],
  ['policy-configuration', 'Policies', 'What your lab may do'],
  ['team-setup', 'Teams', 'Groups inside your lab'],
  ['invite-users', 'Invite users', 'Your colleagues'],
];

/** Whether the user can do any step: view the setup area, or change the organization, its teams or users. */
export function useCanSetUp(): boolean {
  const { ability } = useAbility();
  const me = useMe();
  return (
    canViewAdminArea(ability, 'setup') ||
    ability.can('update', asSubject('Organization', me.organization)) ||
    canCreateTeam(ability) ||
    ability.can('create', asSubject('User', { organizationId: me.organization.id }))
  );
}

export function SetupLayout() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const me = useMe();
  useSessionFollowsMirror();
  const allowed = useCanSetUp();
  // On a tablet the four steps fit on one line without their descriptions.
  const wide = useMediaQuery('(min-width: 75em)');
  const active = Math.max(
    0,
    SETUP_STEPS.findIndex(([key]) => pathname.startsWith(`/setup/${key}`)),
  );
  const go = (i: number) => void navigate({ to: `/setup/${SETUP_STEPS[i][0]}` });
  return (
    <OrganizationSelectionProvider>
      <Stack gap="md" maw={1100}>
        <div>
          <Title order={2}>Organization Setup</Title>
          <Text c="dimmed" size="sm">
            Set up {me.organization.name} in four steps. You can come back to any of them later from Account
            Administrator.
          </Text>
        </div>
        {!allowed ? (
          <NoAccess />
        ) : (
          <>
            <Paper withBorder p="md">
              <Stepper active={active} onStepClick={go} size="sm" allowNextStepsSelect>
                {SETUP_STEPS.map(([key, label, description]) => (
                  <Stepper.Step key={key} label={label} description={wide ? description : undefined} />
                ))}
              </Stepper>
            </Paper>
            <Outlet />
            <Group justify="space-between">
              <Button variant="default" disabled={active === 0} onClick={() => go(active - 1)}>
                Back
              </Button>
              {active < SETUP_STEPS.length - 1 ? (
                <Button onClick={() => go(active + 1)}>Next step</Button>
              ) : (
                <Button onClick={() => void navigate({ to: '/dashboard' })}>Finish setup</Button>
              )}
            </Group>
          </>
        )}
      </Stack>
    </OrganizationSelectionProvider>
  );
}
