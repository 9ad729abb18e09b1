// Scan orders as a table (Pending Orders, Order History): slide, pipeline, studies, status, the list's
// expiration, a link to the printable order report, and 'Set active' where §4.5 allows a change by
// hand (only to active, only for orders of the user's own organization).
import { Anchor, Badge, Button, Group, ScrollArea, Table, Text } from '@mantine/core';
import { asSubject } from '../../access';
import type { ScanOrderStatus } from '../../api/enums';
import { formatDate } from '../lib/format';
import { useAbility } from '../session/ability';
import { useMutations } from '../sync/hooks';
import { failureReason } from './failure-reason';
import { shownId, shownStatus, type OrderRow } from './orders-local';
import { EmptyRows, SyncBadges } from './SyncBadges';
import { FULL_BADGE, ORDER_STATUS_COLOR, ORDER_STATUS_LABEL, OrdersText } from './texts';

export function OrderStatusBadge({ status }: { status: ScanOrderStatus }) {
  return (
    <Badge styles={FULL_BADGE} color={ORDER_STATUS_COLOR[status]} variant="light" data-testid="order-status">
      {ORDER_STATUS_LABEL[status]}
    </Badge>
  );
}

export function OrderTable({ rows, empty }: { rows: OrderRow[]; empty: string }) {
  const { ability } = useAbility();
  const mutations = useMutations();
  if (rows.length === 0) return <EmptyRows text={empty} />;
  return (
    <ScrollArea>
      <Table striped highlightOnHover verticalSpacing="xs" miw={760}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Slide ID</Table.Th>
            <Table.Th>Pipeline</Table.Th>
            <Table.Th>Studies</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Ordered</Table.Th>
            <Table.Th>Expires</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map(({ order, slide, pipeline, studies, list, images }) => {
            const status = shownStatus(order, list);
            const mayActivate =
              status !== 'active' &&
              status !== 'processing' &&
              ability.can(
                'update',
                asSubject('ScanOrder', { ...order, status, next: { status: 'active' } }),
                'status',
              );
            const slideId = slide ? shownId(slide) : '—';
            return (
              <Table.Tr key={order.id} data-testid="order-row" aria-label={`Order ${slideId}`}>
                <Table.Td>
                  <Text ff="monospace" fw={600}>
                    {slideId}
                  </Text>
                </Table.Td>
                <Table.Td>{pipeline?.name ?? '—'}</Table.Td>
                <Table.Td>{studies.map((s) => s.name).join(', ') || '—'}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <OrderStatusBadge status={status} />
                    <SyncBadges row={order} variant="outline" />
                  </Group>
                  {status === 'failed' && (
                    <Text size="xs" c="red.8" maw={260} mt={2} data-testid="order-failure">
                      {failureReason(images)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{formatDate(order.createdAt)}</Table.Td>
                <Table.Td>{list?.expiration ? formatDate(list.expiration) : '—'}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap" justify="flex-end">
                    {mayActivate && (
                      <Button
                        size="compact-sm"
                        variant="light"
                        onClick={() =>
                          void mutations.update('scan-orders', order.id, { set: { status: 'active' } })
                        }
                      >
                        {OrdersText.setActive}
                      </Button>
                    )}
                    <Anchor href={`/reports/orders/${order.id}`} target="_blank" rel="noopener" size="sm">
                      {OrdersText.report}
                    </Anchor>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
