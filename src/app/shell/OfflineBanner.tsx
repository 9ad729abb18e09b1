// Tells the user they are working offline and that their changes are kept on this device. It says the
// whole app works offline only once that is true (the service worker controls the page, its precache
// of every page's code installed: lib/service-worker.ts); before, on a first visit, it says that pages
// not opened yet may not open. When they must sign in again first, 'Sign in again to sync' says it all
// (nothing is sent on reconnecting), so this banner stays away.
import { Alert } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { useOfflineReadiness } from '../lib/service-worker';
import { useSession } from '../session/session-context';

export const OfflineText = {
  title: 'You are offline',
  ready:
    'Tessera keeps working from this device. Changes you make are saved here and sent when you are back online.',
  notReady:
    'Tessera was still getting ready to work offline on this device: pages you have not opened yet may not open until you are back online. Changes you make are saved here and sent when you are back online.',
} as const;

export function OfflineBanner() {
  const { online } = useNetwork();
  const readiness = useOfflineReadiness();
  const { state } = useSession();
  if (online || (state.status === 'signedIn' && state.signInNeeded)) return null;
  return (
    <Alert color="yellow" variant="light" radius={0} role="status" title={OfflineText.title}>
      {readiness === 'preparing' ? OfflineText.notReady : OfflineText.ready}
    </Alert>
  );
}
