// Generate Orders (/orders/new), §2.5, §4.1: one scan order per chosen slide, tied to a staining
// pipeline and a study, all gathered into an order list created active with an expiration. Everything
// goes through the outbox, so orders are placed offline too (pending until sent; orders of labels made
// offline wait for those labels).
import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Button,
  Group,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from '@tanstack/react-router';
import { canCreateScanOrder } from '../../access';
import type { ScanGroup } from '../../api/entities';
import { Denied, Misc } from '../../api/messages';
import { localDb } from '../../local/db';
import { whenSettled } from '../../local/outbox';
import { readRows } from '../../local/read';
import { EmptyPickerHint } from '../forms/EmptyPickerHint';
import { FormError } from '../forms/FormError';
import { NotesField } from '../forms/NotesField';
import { useSubmit } from '../forms/use-submit';
import { useAbility } from '../session/ability';
import { useMe } from '../session/session-context';
import { useLocalQuery, useMutations } from '../sync/hooks';
import { DeniedTooltip } from '../lib/DeniedTooltip';
import { preloadRouteCode } from '../router';
import { useFresh } from './fresh';
import { placeBlock, readStudySharers } from './place-gate';
import { newOrderListPreview, newOrderPreview, readCatalog, shownId } from './orders-local';
import { OrdersText } from './texts';

const ANSWER_WAIT_MS = 8_000;
/** When the organization sets no default active expiry (§3 scanGroupSettings). */
const FALLBACK_EXPIRY_DAYS = 30;
const DAY_MS = 86_400_000;

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

export function OrdersNewPage() {
  const { ability, me: accessMe } = useAbility();
  const me = useMe();
  const navigate = useNavigate();
  // Placing orders ends on Pending Orders, offline too: its code comes to the device with this page's.
  useEffect(() => preloadRouteCode('/orders/pending'), []);
  const mutations = useMutations();
  const allowed = canCreateScanOrder(ability, accessMe);
  useFresh('pipelines', 'studies');
  const slides = useLocalQuery('scan-groups', ['order-slides'], (db) =>
    readRows<ScanGroup>(db, 'scan-groups', {
      orderBy: 'createdAt',
      reverse: true,
      where: (r) => r.storageStatus === 'active',
      limit: 500,
    }),
  );
  const catalog = useLocalQuery('organs', ['order-catalog'], readCatalog);
  const settings = me.organization.scanGroupSettings;
  const expiryDays = settings.defaultActiveExpiryDays ?? FALLBACK_EXPIRY_DAYS;
  const maxDays = settings.maxDefaultActiveExpiryDays;

  const [slideIds, setSlideIds] = useState<string[]>([]);
  const [pipelineId, setPipelineId] = useState<string | null>(null);
  const [studyId, setStudyId] = useState<string | null>(null);
  const [notes, setNotes] = useState('');
  const [expiration, setExpiration] = useState(() => isoDay(new Date(Date.now() + expiryDays * DAY_MS)));
  const { busy, error, run } = useSubmit();

  const slideOptions = useMemo(
    () =>
      (slides.data ?? []).map((s) => ({
        value: s.id,
        label: [shownId(s), s.animal].filter(Boolean).join(' · '),
      })),
    [slides.data],
  );
  const expiresAt = new Date(`${expiration}T23:59:59`);
  const today = isoDay(new Date());
  const latest = maxDays ? isoDay(new Date(Date.now() + maxDays * DAY_MS)) : undefined;
  const expiryOk =
    !Number.isNaN(expiresAt.getTime()) && expiration >= today && (!latest || expiration <= latest);
  const sharers = useLocalQuery('users', ['study-sharers', me.user.id], (db) =>
    readStudySharers(db, me.user.id),
  );
  const block = placeBlock({
    allowed,
    // Until the local store has answered, nothing is said to be missing.
    studies: catalog.data?.studies.length ?? 1,
    pipelines: catalog.data?.pipelines.length ?? 1,
    slidesChosen: slideIds.length > 0,
    pipelineChosen: !!pipelineId,
    studyChosen: !!studyId,
    expiryOk,
    sharers: sharers.data ?? [],
  });
  const ready = !block && !!catalog.data;

  const place = async () => {
    if (!ready || !pipelineId || !studyId) return;
    await run(async () => {
      const entries: string[] = [];
      const orderIds: string[] = [];
      for (const scanGroupId of slideIds) {
        const { id, entry } = await mutations.create(
          'scan-orders',
          { pipelineId, scanGroupId, studyIds: [studyId], notes },
          { ...newOrderPreview(me), pipelineId, scanGroupId, studyIds: [studyId], notes },
        );
        orderIds.push(id);
        entries.push(entry.id);
      }
      const list = await mutations.create(
        'scan-order-lists',
        { status: 'active', scanOrderIds: orderIds, expiration: expiresAt.toISOString() },
        { ...newOrderListPreview(me), scanOrderIds: orderIds, expiration: expiresAt.toISOString() },
      );
      entries.push(list.entry.id);
      const outcomes = navigator.onLine
        ? await Promise.all(entries.map((e) => whenSettled(localDb(), e, ANSWER_WAIT_MS)))
        : [];
      const refused = outcomes.find((o) => o.state === 'failed');
      if (refused?.state === 'failed') {
        for (const [i, o] of outcomes.entries()) if (o.state !== 'sent') await mutations.discard(entries[i]);
        throw new Error(refused.message);
      }
      const queued = outcomes.length === 0 || outcomes.some((o) => o.state === 'pending');
      notifications.show({
        color: 'green',
        title: OrdersText.ordersPlaced(orderIds.length),
        message: queued ? 'Saved on this device. The orders are sent when you are back online.' : '',
        autoClose: 5000,
      });
      setSlideIds([]);
      setNotes('');
      void navigate({ to: '/orders/pending' });
    });
  };

  return (
    <Stack gap="md" maw={880}>
      <div>
        <Title order={3}>Generate Orders</Title>
        <Text c="dimmed" size="sm">
          One scan order per slide, for a staining pipeline and a study, gathered into one order list.
        </Text>
      </div>
      {!allowed && (
        <Alert color="yellow" role="alert">
          {Denied.noOrderPermission}
        </Alert>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void place();
        }}
      >
        <Stack>
          <MultiSelect
            label="Slides"
            placeholder={slideIds.length ? undefined : 'Choose slides by their ID'}
            data={slideOptions}
            value={slideIds}
            onChange={setSlideIds}
            searchable
            nothingFoundMessage={Misc.noOptions}
            disabled={!allowed}
            required
            maxDropdownHeight={300}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label="Staining pipeline"
              placeholder="Choose a pipeline"
              data={(catalog.data?.pipelines ?? []).map((p) => ({ value: p.id, label: p.name }))}
              value={pipelineId}
              onChange={setPipelineId}
              searchable
              nothingFoundMessage={Misc.noOptions}
              disabled={!allowed}
              required
            />
            <Select
              label="Study"
              placeholder="Choose a study"
              data={(catalog.data?.studies ?? []).map((s) => ({ value: s.id, label: s.name }))}
              value={studyId}
              onChange={setStudyId}
              searchable
              nothingFoundMessage={Misc.noOptions}
              disabled={!allowed}
              required
            />
          </SimpleGrid>
          <EmptyPickerHint kind="pipelines" empty={catalog.data?.pipelines.length === 0} />
          {/* Said on the page as well as on the button's tooltip: a tablet has no hover. */}
          {allowed && catalog.data && catalog.data.studies.length === 0 && (
            <Text size="sm" c="dimmed" data-testid="no-study">
              {OrdersText.noStudy} {OrdersText.askForStudy(sharers.data ?? [])}
            </Text>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              type="date"
              label="Order list expires"
              value={expiration}
              min={today}
              max={latest}
              onChange={(e) => setExpiration(e.currentTarget.value)}
              error={expiryOk ? undefined : latest ? `Between today and ${latest}` : 'Today or later'}
              disabled={!allowed}
            />
          </SimpleGrid>
          <NotesField value={notes} onChange={setNotes} disabled={!allowed} />
          <FormError error={error} />
          <Group justify="flex-end">
            <DeniedTooltip reason={block?.reason} hint={block?.hint}>
              <Button type="submit" disabled={!ready} loading={busy}>
                {OrdersText.placeOrders}
              </Button>
            </DeniedTooltip>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
