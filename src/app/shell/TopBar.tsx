// The top bar (spec §2.4): logo to /, 'Return to Dashboard', and the settings menu (with Organization
// Setup for whoever can set up).
import {
  ActionIcon,
  Anchor,
  Avatar,
  Button,
  Group,
  Image,
  Menu,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { canCreateTeam, canOpenAdministrator, canUploadImages, denialMessage } from '../../access';
import { AdminText } from '../../api/messages';
import { DeniedTooltip } from '../lib/DeniedTooltip';
import { useAbility } from '../session/ability';
import { OrderMenu } from './OrderMenu';
import { DownloadsPopup } from './DownloadsPopup';
import { SyncStatus } from '../sync/SyncStatus';
import { useSync } from '../sync/context';
import { Link, useNavigate } from '@tanstack/react-router';
import { useMe, useSession } from '../session/session-context';
import { initials } from '../lib/format';
import { UploadsRuntime } from '../uploads/UploadsRuntime';
import { FirstRunText } from '../../api/first-run';
import { useCanSetUp } from '../setup/SetupLayout';
import { setUploaderDialog } from '../uploads/uploads-store';

/** Sign-out waits at most this long for the sync requests in flight. */
const SIGN_OUT_SYNC_WAIT_MS = 5_000;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function TopBar() {
  const me = useMe();
  const session = useSession();
  const { engine } = useSync();
  const navigate = useNavigate();
  const { ability, me: who } = useAbility();
  const mayCreateTeam = canCreateTeam(ability);
  const mayAdminister = canOpenAdministrator(ability);
  const maySetUp = useCanSetUp();
  const openBugReport = () => {
    const url = new URL(window.location.href);
    url.searchParams.set('bugreport', '');
    void navigate({ href: `${url.pathname}${url.search}` });
  };
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="lg" wrap="nowrap">
        <Anchor component={Link} to="/" aria-label="Tessera home" underline="never">
          <Group gap={8} wrap="nowrap">
            <Image src="/icons/logo.svg" w={32} h={32} alt="" />
            <Text fw={700} size="lg" c="tessera.8" visibleFrom="md">
              Tessera
            </Text>
          </Group>
        </Anchor>
        <Anchor component={Link} to="/dashboard" size="sm" style={{ whiteSpace: 'nowrap' }}>
          Return to Dashboard
        </Anchor>
      </Group>
      <Group gap="xs" wrap="nowrap">
        {canUploadImages(ability, who) && (
          <Button onClick={() => setUploaderDialog('open')} visibleFrom="sm">
            Upload Images
          </Button>
        )}
        <OrderMenu />
        <DownloadsPopup />
        <Tooltip label="Help: report an issue">
          <ActionIcon variant="subtle" size="lg" aria-label="Help" onClick={openBugReport}>
            <Text fw={700}>?</Text>
          </ActionIcon>
        </Tooltip>
        <SyncStatus />
        <Menu position="bottom-end" width={240} withinPortal>
          <Menu.Target>
            <Tooltip label="Settings">
              <UnstyledButton aria-label="Settings">
                <Group gap={8} wrap="nowrap">
                  <Avatar color="tessera" radius="xl" size="md">
                    {initials(me.user.name || me.user.email)}
                  </Avatar>
                  <div style={{ lineHeight: 1.1 }} className="tessera-user-name">
                    {/* On a tablet in portrait the bar is full: the avatar stands for the user. */}
                    <Text size="sm" fw={600} visibleFrom="md">
                      {me.user.name || me.user.email}
                    </Text>
                    <Text size="xs" c="dimmed" visibleFrom="md">
                      {me.organization.name}
                    </Text>
                  </div>
                </Group>
              </UnstyledButton>
            </Tooltip>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>{me.user.email}</Menu.Label>
            <Menu.Item onClick={() => void navigate({ to: '/account-settings/basic-information' })}>
              Account Settings
            </Menu.Item>
            <DeniedTooltip reason={mayAdminister ? undefined : AdminText.noAccess} block>
              <Menu.Item
                disabled={!mayAdminister}
                onClick={() => void navigate({ to: '/administrator/organization' })}
              >
                Account Administrator
              </Menu.Item>
            </DeniedTooltip>
            {/* §2.4: dimmed and not clickable without the permission to create an organization. */}
            <DeniedTooltip
              reason={mayCreateTeam ? undefined : denialMessage(ability, 'create', 'Organization')}
              block
            >
              <Menu.Item
                disabled={!mayCreateTeam}
                onClick={() => void navigate({ to: '/administrator/teams/create' })}
              >
                Create New Team
              </Menu.Item>
            </DeniedTooltip>
            {maySetUp && (
              <Menu.Item onClick={() => void navigate({ to: '/setup' })}>
                {FirstRunText.organizationSetup}
              </Menu.Item>
            )}
            <Menu.Divider />
            <Menu.Item
              color="red"
              onClick={async () => {
                // Syncing stops first and what it already sent is answered (for a few seconds at
                // most): after sign-out those requests would be refused.
                await Promise.race([engine?.halt(), wait(SIGN_OUT_SYNC_WAIT_MS)]);
                await session.signOut();
                await navigate({ to: '/signin' });
              }}
            >
              Log Out
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
      <UploadsRuntime />
    </Group>
  );
}
