// /reports/orders/{orderId} (§2.2): the printable order report — the order, its slide, pipeline,
// studies and list, and its history (created, placed, processing, fulfilled or failed) from the
// activity feed. Read from the local store (works offline); the history needs the server.
import { useQuery } from '@tanstack/react-query';
import { Group, Table, Text, Title } from '@mantine/core';
import type { Activity } from '../../../api/entities';
import type { ScanOrderStatus } from '../../../api/enums';
import { Session } from '../../../api/messages';
import { formatDate } from '../../lib/format';
import { useLocalQuery } from '../../sync/hooks';
import { useFresh } from '../fresh';
import { OrderStatusBadge } from '../OrderTable';
import { failureReason } from '../failure-reason';
import { readOrder, shownId, shownStatus } from '../orders-local';
import { orderHistoryQuery } from '../queries';
import { ORDER_STATUS_LABEL, OrdersText } from '../texts';
import { FactTable, PrintLayout } from './PrintLayout';

const when = (iso: string) => `${formatDate(iso)} ${new Date(iso).toLocaleTimeString()}`;

function describe(a: Activity): string {
  if (a.actionType === 'create') return 'Created';
  const status = a.diff.status as ScanOrderStatus | undefined;
  if (status && status in ORDER_STATUS_LABEL) return ORDER_STATUS_LABEL[status];
  return `Updated: ${Object.keys(a.diff).join(', ')}`;
}

function OrderHistory({ orderId }: { orderId: string }) {
  const history = useQuery(orderHistoryQuery(orderId));
  if (history.isError) return <Text c="dimmed">History is shown when you are online.</Text>;
  if (!history.data) return <Text c="dimmed">{Session.loading}</Text>;
  const steps = [...history.data.result].sort((a, b) => a.date.localeCompare(b.date));
  return (
    <Table withTableBorder data-testid="order-history">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>When</Table.Th>
          <Table.Th>What</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {steps.map((a) => (
          <Table.Tr key={a.id}>
            <Table.Td>{when(a.date)}</Table.Td>
            <Table.Td>{describe(a)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function OrderReport({ orderId }: { orderId: string }) {
  useFresh('scan-groups', 'pipelines', 'studies', 'scan-order-lists');
  const q = useLocalQuery('scan-orders', ['order-report', orderId], (db) => readOrder(db, orderId));
  if (q.data === undefined && q.isPending) return <Text c="dimmed">{Session.loading}</Text>;
  const row = q.data;
  if (!row) return <Text c="red">Order not found</Text>;
  const { order, slide, pipeline, studies, list, images } = row;
  const status = shownStatus(order, list);
  const pending = (order.$pending ?? 0) > 0;
  return (
    <PrintLayout
      title="Order Report"
      subtitle={slide ? `Slide ${shownId(slide)}` : undefined}
      printable={!pending}
      blocked={pending ? OrdersText.waitsForSync : undefined}
    >
      <FactTable
        rows={[
          [
            'Status',
            <Group gap={6} key="s">
              <OrderStatusBadge status={status} />
              {status === 'failed' && <Text size="sm">{failureReason(images)}</Text>}
            </Group>,
          ],
          ['Slide ID', slide ? shownId(slide) : '—'],
          ['Animal', slide?.animal ?? '—'],
          ['Staining pipeline', pipeline?.name ?? '—'],
          ['Studies', studies.map((s) => s.name).join(', ') || '—'],
          ['Notes', order.notes || '—'],
          ['Ordered', formatDate(order.createdAt)],
          ['Order list', list ? ORDER_STATUS_LABEL[list.status as ScanOrderStatus] : '—'],
          ['Expires', list?.expiration ? formatDate(list.expiration) : '—'],
        ]}
      />
      <Title order={4}>{OrdersText.history}</Title>
      {pending ? <Text c="dimmed">{OrdersText.pending}</Text> : <OrderHistory orderId={order.id} />}
    </PrintLayout>
  );
}
