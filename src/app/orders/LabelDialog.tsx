// The label creation dialog (§2.10, §5): animal first, then organ (disabled with 'Select an animal
// first'), notes as free text, Submit disabled until both are chosen; several labels at once. Each
// label goes through the outbox, so it is made offline too (a provisional id, pending). Online, the
// dialog waits briefly for the server and shows its error text in red (§8), keeping the form.
import { useMemo, useState } from 'react';
import { Button, Group, Modal, NumberInput, Select, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Organ } from '../../api/entities';
import { extractMessage, Misc } from '../../api/messages';
import { localDb } from '../../local/db';
import { whenSettled } from '../../local/outbox';
import { readRows } from '../../local/read';
import { useMe } from '../session/session-context';
import { useLocalQuery, useMutations } from '../sync/hooks';
import { newLabelPreview } from './orders-local';
import { OrdersText } from './texts';

export const LABEL_DIALOG_TITLE = 'Generate Slide Labels';
export const MAX_LABELS_AT_ONCE = 50;
const ANSWER_WAIT_MS = 8_000;

export function LabelDialog({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose(): void;
  /** The local ids of the labels made (provisional until sent). */
  onCreated?(ids: string[]): void;
}) {
  const me = useMe();
  const mutations = useMutations();
  const organs = useLocalQuery('organs', ['label-dialog'], (db) =>
    readRows<Organ>(db, 'organs', { orderBy: 'name' }),
  );
  const [animal, setAnimal] = useState<string | null>(null);
  const [organId, setOrganId] = useState<string | null>(null);
  const [notes, setNotes] = useState('');
  const [count, setCount] = useState<number | string>(1);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const animals = useMemo(() => [...new Set((organs.data ?? []).map((o) => o.animal))].sort(), [organs.data]);
  const organOptions = (organs.data ?? [])
    .filter((o) => o.animal === animal)
    .map((o) => ({ value: o.id, label: o.name }));
  const n = typeof count === 'number' ? count : Number.parseInt(count, 10);
  const countOk = Number.isInteger(n) && n >= 1 && n <= MAX_LABELS_AT_ONCE;

  const close = () => {
    setAnimal(null);
    setOrganId(null);
    setNotes('');
    setCount(1);
    setError(undefined);
    onClose();
  };

  const submit = async () => {
    if (!animal || !organId || !countOk) return;
    setBusy(true);
    setError(undefined);
    try {
      const made: { id: string; entryId: string }[] = [];
      for (let i = 0; i < n; i++) {
        const { id, entry } = await mutations.create(
          'scan-groups',
          { animal, organId, notes },
          newLabelPreview(me),
        );
        made.push({ id, entryId: entry.id });
      }
      const outcomes = navigator.onLine
        ? await Promise.all(made.map((m) => whenSettled(localDb(), m.entryId, ANSWER_WAIT_MS)))
        : [];
      const refused = outcomes.find((o) => o.state === 'failed');
      if (refused?.state === 'failed') {
        // The form keeps what was typed: the user fixes it here rather than in the sync list.
        for (const [i, o] of outcomes.entries())
          if (o.state === 'failed') await mutations.discard(made[i].entryId);
        throw new Error(refused.message);
      }
      const queued = outcomes.length === 0 || outcomes.some((o) => o.state === 'pending');
      notifications.show({
        color: 'green',
        title: OrdersText.labelsCreated(n),
        message: queued ? OrdersText.savedOffline : '',
        autoClose: 5000,
      });
      onCreated?.(made.map((m) => m.id));
      close();
    } catch (err) {
      setError(extractMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={LABEL_DIALOG_TITLE} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <Select
            label="Animal"
            placeholder="Choose an animal"
            data={animals}
            value={animal}
            onChange={(v) => {
              setAnimal(v);
              setOrganId(null);
            }}
            nothingFoundMessage={Misc.noOptions}
            searchable
            required
            data-autofocus
          />
          <Tooltip label={Misc.selectAnimalFirst} disabled={!!animal} openDelay={300}>
            <div>
              <Select
                label="Organ"
                placeholder={animal ? 'Choose an organ' : Misc.selectAnimalFirst}
                data={organOptions}
                value={organId}
                onChange={setOrganId}
                disabled={!animal}
                nothingFoundMessage={Misc.noOptions}
                searchable
                required
              />
            </div>
          </Tooltip>
          <Textarea
            label="Notes"
            value={notes}
            onChange={(e) => setNotes(e.currentTarget.value)}
            maxLength={2000}
            autosize
            minRows={2}
          />
          <NumberInput
            label={OrdersText.labelCount}
            value={count}
            onChange={setCount}
            min={1}
            max={MAX_LABELS_AT_ONCE}
            allowDecimal={false}
            error={countOk ? undefined : `1 to ${MAX_LABELS_AT_ONCE}`}
          />
          {error && (
            <Text size="sm" c="red" role="alert">
              {error}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={!animal || !organId || !countOk} loading={busy}>
              Submit
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
