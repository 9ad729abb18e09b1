// The labels of the order pages as a table: pick one or many, then download their ZPL (Zebra printers)
// or open their printable layout (ordinary printers). A label still on this device only (provisional
// id, pending) cannot be printed: the printed id must be the final one, so printing waits for sync
// and says so.
import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Checkbox, Group, ScrollArea, Stack, Table, Text } from '@mantine/core';
import type { ScanOrderStatus } from '../../api/enums';
import { FormError } from '../forms/FormError';
import { useSubmit } from '../forms/use-submit';
import { formatDate } from '../lib/format';
import { isProvisional, shownId, type LabelRow } from './orders-local';
import { EmptyRows, SyncBadges } from './SyncBadges';
import { FULL_BADGE, ORDER_STATUS_COLOR, ORDER_STATUS_LABEL, OrdersText } from './texts';
import { downloadZpl, labelReportPath } from './zpl';

function IdCell({ row }: { row: LabelRow }) {
  const { label } = row;
  const provisional = isProvisional(label);
  return (
    <Group gap={6} wrap="nowrap">
      <Text
        ff="monospace"
        fw={600}
        c={provisional ? 'dimmed' : undefined}
        data-testid="label-id"
        title={provisional ? OrdersText.provisional : undefined}
      >
        {shownId(label)}
      </Text>
      <SyncBadges row={label} variant="light" pendingHint={OrdersText.waitsForSync} />
    </Group>
  );
}

function ImagesCell({ row }: { row: LabelRow }) {
  if (row.images.length === 0) return <Text c="dimmed">—</Text>;
  const done = row.images.filter((i) => i.status === 'completed').length;
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm">
        {done}/{row.images.length} completed
      </Text>
      {done > 0 && (
        <Anchor href={`/sgviewer/${row.label.id}`} size="sm">
          Open
        </Anchor>
      )}
    </Group>
  );
}

function OrdersCell({ row }: { row: LabelRow }) {
  if (row.orders.length === 0) return <Text c="dimmed">—</Text>;
  return (
    <Group gap={4}>
      {row.orders.map((o) => (
        <Badge
          styles={FULL_BADGE}
          key={o.id}
          color={ORDER_STATUS_COLOR[o.status as ScanOrderStatus]}
          variant="light"
          size="sm"
          component="a"
          href={`/reports/orders/${o.id}`}
          style={{ cursor: 'pointer' }}
        >
          {ORDER_STATUS_LABEL[o.status as ScanOrderStatus]}
        </Badge>
      ))}
    </Group>
  );
}

export function LabelTable({ rows, empty }: { rows: LabelRow[]; empty: string }) {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const { busy, error, run } = useSubmit();
  const chosen = rows.filter((r) => selected.has(r.label.id));
  const waiting = chosen.some((r) => isProvisional(r.label));
  const printable = chosen.map((r) => ({ id: r.label.id, simpleId: r.label.simpleId }));
  const allChosen = rows.length > 0 && chosen.length === rows.length;

  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const download = () => run(() => downloadZpl(printable));

  if (rows.length === 0) return <EmptyRows text={empty} />;

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed">
          {chosen.length === 0 ? OrdersText.selectLabels : `${chosen.length} selected`}
        </Text>
        <Group gap="xs">
          <Button
            variant="default"
            disabled={chosen.length === 0 || waiting}
            loading={busy}
            onClick={() => void download()}
          >
            {OrdersText.downloadZpl}
          </Button>
          <Button
            component="a"
            href={chosen.length === 0 || waiting ? undefined : labelReportPath(printable)}
            target="_blank"
            rel="noopener"
            disabled={chosen.length === 0 || waiting}
          >
            {OrdersText.printLabels}
          </Button>
        </Group>
      </Group>
      {waiting && (
        <Alert color="yellow" role="status">
          {OrdersText.waitsForSync}
        </Alert>
      )}
      <FormError error={error} />
      <ScrollArea>
        <Table striped highlightOnHover verticalSpacing="xs" miw={760}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={36}>
                <Checkbox
                  aria-label="Select all labels"
                  checked={allChosen}
                  indeterminate={chosen.length > 0 && !allChosen}
                  onChange={(e) =>
                    setSelected(e.currentTarget.checked ? new Set(rows.map((r) => r.label.id)) : new Set())
                  }
                />
              </Table.Th>
              <Table.Th>Slide ID</Table.Th>
              <Table.Th>Animal · Organ</Table.Th>
              <Table.Th>Notes</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Images</Table.Th>
              <Table.Th>Orders</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.label.id} data-testid="label-row" aria-label={`Label ${shownId(row.label)}`}>
                <Table.Td>
                  <Checkbox
                    aria-label={`Select ${shownId(row.label)}`}
                    checked={selected.has(row.label.id)}
                    onChange={(e) => toggle(row.label.id, e.currentTarget.checked)}
                  />
                </Table.Td>
                <Table.Td>
                  <IdCell row={row} />
                </Table.Td>
                <Table.Td>{[row.label.animal, row.organ?.name].filter(Boolean).join(' · ') || '—'}</Table.Td>
                <Table.Td maw={220}>
                  <Text size="sm" truncate="end" title={row.label.notes}>
                    {row.label.notes || '—'}
                  </Text>
                </Table.Td>
                <Table.Td>{formatDate(row.label.createdAt)}</Table.Td>
                <Table.Td>
                  <Badge styles={FULL_BADGE} variant="outline" size="sm" color="gray">
                    {row.label.status}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <ImagesCell row={row} />
                </Table.Td>
                <Table.Td>
                  <OrdersCell row={row} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Stack>
  );
}
