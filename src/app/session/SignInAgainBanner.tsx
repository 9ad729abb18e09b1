// 'Sign in again to sync': shown over every signed-in page once the refresh token has lapsed. The
// local data stays on screen and editable; the button opens the sign-in form (which keeps the local
// store) and brings the user back to the page they were on.
import { Alert, Button, Group, Text } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { useLocation, useNavigate } from '@tanstack/react-router';
import { Session } from '../../api/messages';
import { CONTINUE_PARAM, continueSearch } from '../lib/continue';
import { useSession } from './session-context';

export function SignInAgainBanner() {
  const { state } = useSession();
  const { online } = useNetwork();
  const location = useLocation();
  const navigate = useNavigate();
  if (state.status !== 'signedIn' || !state.signInNeeded) return null;
  return (
    <Alert color="orange" variant="light" radius={0} role="status" title={Session.signInToSync}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm">
          {Session.signInToSyncDetail} {online ? '' : Session.signInToSyncOffline}
        </Text>
        {online && (
          <Button
            size="xs"
            onClick={() =>
              void navigate({ to: '/signin', search: { continue: continueSearch(location)[CONTINUE_PARAM] } })
            }
          >
            {Session.signInAgain}
          </Button>
        )}
      </Group>
    </Alert>
  );
}
