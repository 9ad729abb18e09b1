// Choose-a-password form for /rp (reset) and /register (activation): two fields that must match.
import { useState } from 'react';
import { Alert, Button, PasswordInput, Stack } from '@mantine/core';
import { PASSWORD_MIN } from '../../api/auth';

export function NewPasswordForm(props: {
  submitLabel: string;
  busy: boolean;
  error?: string;
  onSubmit(p: string): void;
}) {
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const tooShort = password.length > 0 && password.length < PASSWORD_MIN;
  const mismatch = again.length > 0 && again !== password;
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit(password);
      }}
    >
      <Stack gap="md">
        {props.error && (
          <Alert color="red" variant="light" role="alert">
            {props.error}
          </Alert>
        )}
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          description={`At least ${PASSWORD_MIN} characters`}
          error={tooShort ? `The password must be at least ${PASSWORD_MIN} characters long` : undefined}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        <PasswordInput
          label="Repeat the password"
          autoComplete="new-password"
          error={mismatch ? 'The passwords do not match' : undefined}
          value={again}
          onChange={(e) => setAgain(e.currentTarget.value)}
        />
        <Button
          type="submit"
          loading={props.busy}
          disabled={password.length < PASSWORD_MIN || password !== again}
        >
          {props.submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
