// /signin: e-mail and password (with the bot check when configured), and Google sign-in when set up.
import { useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Divider,
  Group,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { safeContinue } from '../lib/continue';
import { extractMessage, Session } from '../../api/messages';
import { useSession } from '../session/session-context';
import { GoogleSignIn } from './GoogleSignIn';
import { authOptionsQuery } from './queries';

const route = getRouteApi('/_public/signin');

export function SignInPage() {
  const search = route.useSearch();
  const session = useSession();
  const navigate = useNavigate();
  // Signing in again after a lapse: the e-mail is the one of the user whose local data is waiting,
  // and their data stays one click away.
  const lapsed = session.state.status === 'signedIn' && session.state.signInNeeded;
  const [email, setEmail] = useState(session.state.status === 'signedIn' ? session.state.me.user.email : '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>(
    session.state.status === 'signedOut' ? session.state.loginError : undefined,
  );
  const [busy, setBusy] = useState(false);
  const options = useQuery(authOptionsQuery);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await session.signIn(email, password);
      const back = safeContinue(search.continue);
      await (back ? navigate({ href: back }) : navigate({ to: '/dashboard' }));
    } catch (e) {
      setError(extractMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Title order={3}>Sign in</Title>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="username"
          required
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        <Group justify="space-between">
          <Anchor component={Link} to="/fp" size="sm">
            Forgot password?
          </Anchor>
          {lapsed && (
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => void navigate({ href: safeContinue(search.continue) ?? '/dashboard' })}
            >
              {Session.keepWorkingHere}
            </Anchor>
          )}
        </Group>
        <Button type="submit" loading={busy} disabled={!email || !password} fullWidth size="md">
          Sign in
        </Button>
        {options.data?.googleClientId && (
          <>
            <Divider label="or" labelPosition="center" />
            <GoogleSignIn clientId={options.data.googleClientId} onError={setError} />
          </>
        )}
        <Text size="sm" c="dimmed" ta="center">
          No account yet?{' '}
          <Anchor component={Link} to="/signup">
            Request access
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
