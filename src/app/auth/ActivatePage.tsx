// /register?token=…: an invited user activates their account by choosing a password, then is signed in;
// the administrator of a new organization goes on to /setup, everyone else to the dashboard.
import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AuthResult, Me } from '../../api/auth';
import { errorText } from '../../api/errors';
import { api } from '../lib/api';
import { useSession } from '../session/session-context';
import { NewPasswordForm } from './NewPasswordForm';
import { useSubmit } from './useSubmit';

const route = getRouteApi('/_public/register');

export function ActivatePage() {
  const { token } = route.useSearch();
  const session = useSession();
  const navigate = useNavigate();
  const { busy, error, run } = useSubmit();
  return (
    <Stack gap="md">
      <Title order={3}>Activate your account</Title>
      {!token ? (
        <Alert color="red" variant="light">
          {errorText('INVALID_ACTIVATION_TOKEN')}
        </Alert>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            Welcome to Tessera. Choose the password you will sign in with.
          </Text>
          <NewPasswordForm
            submitLabel="Activate account"
            busy={busy}
            error={error}
            onSubmit={(password) =>
              void run(async () => {
                const result = await api<AuthResult>('POST', '/auth/activate-user', {
                  body: { token, password },
                  noRefresh: true,
                });
                await session.adopt(result);
                // A new organization's administrator is sent through the first-run setup (§2.2).
                const me = await api<Me>('GET', '/auth/me').catch(() => undefined);
                const admin = me && me.organization.adminUserId === me.user.id;
                await navigate({ to: admin ? '/setup/organization-setup' : '/dashboard' });
              })
            }
          />
        </>
      )}
      <Anchor component={Link} to="/signin" size="sm">
        Back to sign in
      </Anchor>
    </Stack>
  );
}
