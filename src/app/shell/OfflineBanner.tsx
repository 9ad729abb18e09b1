// Tells the user they are working offline and that their changes are kept on this device. When they
// must sign in again first, 'Sign in again to sync' says it all (nothing is sent on reconnecting).
import { Alert } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { useSession } from '../session/session-context';

export function OfflineBanner() {
  const { online } = useNetwork();
  const { state } = useSession();
  if (online || (state.status === 'signedIn' && state.signInNeeded)) return null;
  return (
    <Alert color="yellow" variant="light" radius={0} role="status" title="You are offline">
      Tessera keeps working from this device. Changes you make are saved here and sent when you are back
      online.
    </Alert>
  );
}
