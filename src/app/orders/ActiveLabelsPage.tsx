// Active Labels (/orders/slides/active), §2.5: the user's slides in active storage, from the local
// store, with the status of their images and orders.
import { Stack, Text, Title } from '@mantine/core';
import { Session } from '../../api/messages';
import { useAbility } from '../session/ability';
import { useLocalQuery } from '../sync/hooks';
import { useFresh } from './fresh';
import { LabelTable } from './LabelTable';
import { readMyLabels } from './orders-local';
import { OrdersText } from './texts';

export function ActiveLabelsPage() {
  const { me } = useAbility();
  useFresh('organs', 'images', 'scan-orders');
  const labels = useLocalQuery('scan-groups', ['active-labels', me.userId], (db) =>
    readMyLabels(db, me.userId, { activeOnly: true }),
  );
  return (
    <Stack gap="md">
      <div>
        <Title order={3}>Active Labels</Title>
        <Text c="dimmed" size="sm">
          Your slides in active storage, with the status of their images and orders.
        </Text>
      </div>
      {labels.data ? (
        <LabelTable rows={labels.data} empty={OrdersText.noActiveLabels} />
      ) : (
        <Text c="dimmed">{Session.loading}</Text>
      )}
    </Stack>
  );
}
