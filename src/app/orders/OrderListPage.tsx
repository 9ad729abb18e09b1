// A list of the user's scan orders in some statuses, from the local store: the body of Pending Orders
// and Order History (§2.5).
import { Stack, Text, Title } from '@mantine/core';
import type { ScanOrderStatus } from '../../api/enums';
import { Session } from '../../api/messages';
import { useLocalQuery } from '../sync/hooks';
import { useFresh } from './fresh';
import { OrderTable } from './OrderTable';
import { readOrders } from './orders-local';
import { OrdersText } from './texts';

export function OrderListPage({
  title,
  subtitle,
  statuses,
}: {
  title: string;
  subtitle: string;
  statuses: readonly ScanOrderStatus[];
}) {
  // Images: a failed order says why from its slide's image.
  useFresh('scan-groups', 'pipelines', 'studies', 'scan-order-lists', 'images');
  const orders = useLocalQuery('scan-orders', ['orders', ...statuses], (db) => readOrders(db, statuses));
  return (
    <Stack gap="md">
      <div>
        <Title order={3}>{title}</Title>
        <Text c="dimmed" size="sm">
          {subtitle}
        </Text>
      </div>
      {orders.data ? (
        <OrderTable rows={orders.data} empty={OrdersText.noOrders} />
      ) : (
        <Text c="dimmed">{Session.loading}</Text>
      )}
    </Stack>
  );
}
