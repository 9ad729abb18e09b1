// /account-settings/basic-information (§2.2): the user's name (editable), e-mail and organization, a
// request for a change to the administrators (§7 request-change), and the password change.
import { useState } from 'react';
import { Button, Card, Grid, Group, Stack, TextInput, Title } from '@mantine/core';
import { asSubject, denialMessage } from '../../access';
import { NameField } from '../admin/NameField';
import { saveEdit } from '../admin/save';
import { useAbility } from '../session/ability';
import { useMe, useSession } from '../session/session-context';
import { useMutations } from '../sync/hooks';
import { ChangePasswordCard } from './ChangePasswordCard';
import { RequestChangeDialog } from './RequestChangeDialog';

export function BasicInformationPage() {
  const me = useMe();
  const session = useSession();
  const { ability } = useAbility();
  const { update } = useMutations();
  const [name, setName] = useState<string | null>(null);
  const [requesting, setRequesting] = useState(false);
  const nameNow = name ?? me.user.name;
  const nameDenied = denialMessage(ability, 'update', asSubject('User', me.user), 'name');
  const saveName = async () => {
    if (await saveEdit(update, 'users', me.user.id, { set: { name: nameNow.trim() } })) {
      setName(null);
      await session.reloadMe().catch(() => undefined);
    }
  };
  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Card withBorder h="100%">
          <Title order={4} mb="sm">
            Basic information
          </Title>
          <Stack gap="sm">
            <NameField value={nameNow} onChange={setName} deniedReason={nameDenied} />
            <TextInput label="E-mail" value={me.user.email} readOnly disabled />
            <TextInput label="Organization" value={me.organization.name} readOnly disabled />
            <Group justify="space-between">
              <Button variant="subtle" onClick={() => setRequesting(true)}>
                Request a change
              </Button>
              <Button
                disabled={!nameNow.trim() || nameNow.trim() === me.user.name}
                onClick={() => void saveName()}
              >
                Save name
              </Button>
            </Group>
          </Stack>
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <ChangePasswordCard />
      </Grid.Col>
      <RequestChangeDialog opened={requesting} onClose={() => setRequesting(false)} />
    </Grid>
  );
}
