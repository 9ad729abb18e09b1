// /signup: a registration request for an administrator to act on (accounts are created by invitation).
import { useState } from 'react';
import { Alert, Anchor, Button, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { api } from '../lib/api';
import { useSubmit } from './useSubmit';

export function SignUpPage() {
  const [form, setForm] = useState({ name: '', email: '', organizationName: '', message: '' });
  const { busy, error, done, run } = useSubmit();
  const set = (key: keyof typeof form) => (e: { currentTarget: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.currentTarget.value }));
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void run(() => api('POST', '/auth/register-request', { body: form, noRefresh: true }));
      }}
    >
      <Stack gap="md">
        <Title order={3}>Request access</Title>
        {done ? (
          <Alert color="green" variant="light">
            Thank you. An administrator will review your request and e-mail you an invitation.
          </Alert>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              Tessera accounts are created by your lab&apos;s administrator. Tell us who you are and we will
              pass it on.
            </Text>
            {error && (
              <Alert color="red" variant="light" role="alert">
                {error}
              </Alert>
            )}
            <TextInput label="Name" required value={form.name} onChange={set('name')} maxLength={100} />
            <TextInput label="E-mail" type="email" required value={form.email} onChange={set('email')} />
            <TextInput
              label="Organization"
              value={form.organizationName}
              onChange={set('organizationName')}
            />
            <Textarea
              label="Message"
              autosize
              minRows={2}
              maxLength={2000}
              value={form.message}
              onChange={set('message')}
            />
            <Button type="submit" loading={busy} disabled={!form.name || !form.email}>
              Send request
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
