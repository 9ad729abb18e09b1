// Generate Slide Labels (/orders/slides/new), §2.5: the label dialog (or the spec's warning without the
// permission to create a slide label) and the user's latest labels, from the local store, ready to
// download as ZPL or print.
import { useState } from 'react';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { canCreateScanGroup } from '../../access';
import { Denied, Session } from '../../api/messages';
import { DeniedTooltip } from '../lib/DeniedTooltip';
import { useAbility } from '../session/ability';
import { useLocalQuery } from '../sync/hooks';
import { useFresh } from './fresh';
import { LabelDialog } from './LabelDialog';
import { LabelTable } from './LabelTable';
import { readMyLabels } from './orders-local';
import { OrdersText } from './texts';

const RECENT_LABELS = 50;

export function LabelsNewPage() {
  const { ability, me } = useAbility();
  const allowed = canCreateScanGroup(ability, me);
  const [open, setOpen] = useState(false);
  useFresh('organs', 'images', 'scan-orders');
  const labels = useLocalQuery('scan-groups', ['my-labels', me.userId], (db) =>
    readMyLabels(db, me.userId, { limit: RECENT_LABELS }),
  );
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={3}>Generate Slide Labels</Title>
          <Text c="dimmed" size="sm">
            Each label gets a short slide ID, printed as a DataMatrix code the uploader reads back.
          </Text>
        </div>
        <DeniedTooltip reason={allowed ? undefined : Denied.noLabelPermission}>
          <Button onClick={() => setOpen(true)} disabled={!allowed}>
            {OrdersText.newLabels}
          </Button>
        </DeniedTooltip>
      </Group>
      {!allowed && (
        <Alert color="yellow" role="alert">
          {Denied.noLabelPermission}
        </Alert>
      )}
      <Title order={4}>Your labels</Title>
      {labels.data ? (
        <LabelTable rows={labels.data} empty={OrdersText.noLabels} />
      ) : (
        <Text c="dimmed">{Session.loading}</Text>
      )}
      {allowed && <LabelDialog opened={open} onClose={() => setOpen(false)} />}
    </Stack>
  );
}
