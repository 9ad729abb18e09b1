// The signed-in frame: top bar, the page, the footer; an offline banner when the network is gone, and
// 'Sign in again to sync' when the sign-in on this device has lapsed, the prompt to replace a generated
// password, and the notices of changes that replaced someone else's newer value.
// Drawn only while someone is signed in.
import { AppShell, Box } from '@mantine/core';
import { Outlet } from '@tanstack/react-router';
import { Footer } from './Footer';
import { TopBar } from './TopBar';
import { OfflineBanner } from './OfflineBanner';
import { QueryModals } from './QueryModals';
import { OverwriteNotices } from '../sync/OverwriteNotices';
import { SignInAgainBanner } from '../session/SignInAgainBanner';
import { PasswordPrompt } from '../setup/PasswordPrompt';
import { useSession } from '../session/session-context';

export function AppLayout() {
  const { state } = useSession();
  // Signing out renders once more before the router sends the user to /signin: nothing in the
  // signed-in frame may then ask for the signed-in user.
  if (state.status !== 'signedIn') return null;
  return (
    <AppShell header={{ height: 60 }} padding={0}>
      <AppShell.Header>
        <TopBar />
      </AppShell.Header>
      <AppShell.Main style={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
        <SignInAgainBanner />
        <OfflineBanner />
        <PasswordPrompt />
        <Box component="main" style={{ flex: 1 }} p="md">
          <Outlet />
        </Box>
        <Footer />
      </AppShell.Main>
      <QueryModals />
      <OverwriteNotices />
    </AppShell>
  );
}
