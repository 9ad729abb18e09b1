// The account's password change: the current and the new password, the server's answer in place.
import { useState } from 'react';
import { Alert, Button, Card, Group, PasswordInput, Stack, Title } from '@mantine/core';
import { PASSWORD_MIN } from '../../api/auth';
import { AdminText, extractMessage } from '../../api/messages';
import { api } from '../lib/api';
import { useSession } from '../session/session-context';

export function ChangePasswordCard() {
  const session = useSession();
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');
  const [state, setState] = useState<{ ok?: boolean; error?: string; busy?: boolean }>({});
  const change = async () => {
    setState({ busy: true });
    try {
      await api('POST', '/auth/change-password', { body: { oldPassword, newPassword } });
      setState({ ok: true });
      setOld('');
      setNew('');
      // The prompt to replace a generated password goes away with the user's fresh details.
      await session.reloadMe().catch(() => undefined);
    } catch (e) {
      setState({ error: extractMessage(e) });
    }
  };
  return (
    <Card withBorder h="100%">
      <Title order={4} mb="sm">
        Change password
      </Title>
      <Stack gap="sm">
        {state.ok && <Alert color="green">{AdminText.passwordChanged}</Alert>}
        {state.error && (
          <Alert color="red" role="alert">
            {state.error}
          </Alert>
        )}
        <PasswordInput
          label="Current password"
          value={oldPassword}
          onChange={(e) => setOld(e.currentTarget.value)}
        />
        <PasswordInput
          label="New password"
          description={`At least ${PASSWORD_MIN} characters`}
          value={newPassword}
          onChange={(e) => setNew(e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button
            onClick={() => void change()}
            loading={state.busy}
            disabled={!oldPassword || newPassword.length < PASSWORD_MIN}
          >
            Change password
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
