// /fp: asks for a reset link by e-mail; the answer never tells whether the account exists.
import { useState } from 'react';
import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { AuthText } from '../../api/messages';
import { api } from '../lib/api';
import { useSubmit } from './useSubmit';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const { busy, error, done, run } = useSubmit();
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void run(() => api('POST', '/auth/forgot-password', { body: { email }, noRefresh: true }));
      }}
    >
      <Stack gap="md">
        <Title order={3}>Forgot password</Title>
        {done ? (
          <Alert color="green" variant="light">
            {AuthText.resetSent}
          </Alert>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              Enter the e-mail you sign in with and we will send you a link to choose a new password.
            </Text>
            {error && (
              <Alert color="red" variant="light" role="alert">
                {error}
              </Alert>
            )}
            <TextInput
              label="E-mail"
              type="email"
              autoComplete="username"
              autoFocus
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
            />
            <Button type="submit" loading={busy} disabled={!email}>
              Send reset link
            </Button>
          </>
        )}
        <Anchor component={Link} to="/signin" size="sm">
          Back to sign in
        </Anchor>
      </Stack>
    </form>
  );
}
