// /reports/label/{labelId} (§2.2, §2.10): the slide's details and its label as printed, for ordinary
// printers. `labelId` may also be several ids joined by commas: one sheet with every label (what
// 'Print labels' opens for a selection). The label picture is the server's rendering of the same
// layout as the ZPL (25 × 20 mm at 300 dpi), so what is printed decodes back to the simpleId.
// Labels not yet on the server have no final id: the page says printing waits for sync.
import { Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Session } from '../../../api/messages';
import { formatDate } from '../../lib/format';
import { useLocalQuery } from '../../sync/hooks';
import { useFresh } from '../fresh';
import { isProvisional, readLabel, shownId, type LabelRow } from '../orders-local';
import { OrdersText } from '../texts';
import { FactTable, PrintLayout } from './PrintLayout';

function LabelSheet({ row }: { row: LabelRow }) {
  const { label, organ, images } = row;
  const provisional = isProvisional(label);
  return (
    <Stack gap="sm" data-testid="label-sheet" style={{ breakInside: 'avoid' }}>
      <Group gap="md" align="flex-start" wrap="wrap">
        {provisional ? (
          <Text c="dimmed" w={250}>
            {OrdersText.waitsForSync}
          </Text>
        ) : (
          <img
            src={`/v2/scan-groups/${encodeURIComponent(label.id)}/label.png`}
            alt={`Label ${label.simpleId}`}
            style={{ width: '25mm', minWidth: 118, height: 'auto', border: '1px solid #ccc' }}
          />
        )}
        <div style={{ flex: 1, minWidth: 260 }}>
          <FactTable
            rows={[
              [
                'Slide ID',
                <Group gap={6} key="id">
                  <Text ff="monospace" fw={700}>
                    {shownId(label)}
                  </Text>
                  {provisional && (
                    <Badge color="yellow" variant="light" size="sm">
                      {OrdersText.pending}
                    </Badge>
                  )}
                </Group>,
              ],
              ['Animal', label.animal ?? '—'],
              ['Organ', organ?.name ?? '—'],
              ['Notes', label.notes || '—'],
              ['Status', label.status],
              ['Storage', label.storageStatus],
              ['Images', images.length],
              ['Created', formatDate(label.createdAt)],
            ]}
          />
        </div>
      </Group>
    </Stack>
  );
}

export function LabelReport({ labelId }: { labelId: string }) {
  const ids = [
    ...new Set(
      labelId
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  useFresh('organs', 'images');
  const q = useLocalQuery('scan-groups', ['label-report', ...ids], async (db) =>
    Promise.all(ids.map((id) => readLabel(db, id))),
  );
  if (!q.data) return <Text c="dimmed">{Session.loading}</Text>;
  const rows = q.data.filter((r): r is LabelRow => !!r);
  const missing = q.data.length - rows.length;
  const waiting = rows.some((r) => isProvisional(r.label));
  return (
    <PrintLayout
      title={rows.length > 1 ? 'Slide Labels' : 'Slide Label'}
      subtitle={rows.map((r) => shownId(r.label)).join(', ')}
      printable={rows.length > 0 && !waiting}
      blocked={waiting ? OrdersText.waitsForSync : undefined}
    >
      {missing > 0 && <Text c="red">{`${missing} label(s) not found`}</Text>}
      <SimpleGrid cols={1} spacing="lg">
        {rows.map((row) => (
          <LabelSheet key={row.label.id} row={row} />
        ))}
      </SimpleGrid>
    </PrintLayout>
  );
}
