// /rp?token=…: sets a new password with the e-mailed token.
import { Alert, Anchor, Stack, Title } from '@mantine/core';
import { Link, getRouteApi } from '@tanstack/react-router';
import { errorText } from '../../api/errors';
import { api } from '../lib/api';
import { NewPasswordForm } from './NewPasswordForm';
import { useSubmit } from './useSubmit';

const route = getRouteApi('/_public/rp');

export function ResetPasswordPage() {
  const { token } = route.useSearch();
  const { busy, error, done, run } = useSubmit();
  return (
    <Stack gap="md">
      <Title order={3}>Choose a new password</Title>
      {!token ? (
        <Alert color="red" variant="light">
          {errorText('INVALID_RESET_TOKEN')}
        </Alert>
      ) : done ? (
        <Alert color="green" variant="light">
          Your password has been changed. You can sign in with it now.
        </Alert>
      ) : (
        <NewPasswordForm
          submitLabel="Save password"
          busy={busy}
          error={error}
          onSubmit={(password) =>
            void run(() =>
              api('POST', '/auth/reset-password', { body: { token, password }, noRefresh: true }),
            )
          }
        />
      )}
      <Anchor component={Link} to="/signin" size="sm">
        Back to sign in
      </Anchor>
    </Stack>
  );
}
