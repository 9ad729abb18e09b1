// The label creation dialog (§2.10, §5): animal first, then organ (disabled with 'Select an animal
// first'), notes as free text, Submit disabled until both are chosen; several labels at once. Each
// label goes through the outbox, so it is made offline too (a provisional id, pending). Online, the
// dialog waits briefly for the server and shows its error text in red (§8), keeping the form.
import { useState } from 'react';
import { Button, Group, Modal, NumberInput, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Organ } from '../../api/entities';
import { localDb } from '../../local/db';
import { whenSettled } from '../../local/outbox';
import { pulledOnce, readRows } from '../../local/read';
import { AnimalOrganPicker, NO_ANIMAL_ORGAN } from '../forms/AnimalOrganPicker';
import { FormError } from '../forms/FormError';
import { NotesField } from '../forms/NotesField';
import { useSubmit } from '../forms/use-submit';
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
  const organs = useLocalQuery('organs', ['label-dialog'], async (db) => {
    const rows = await readRows<Organ>(db, 'organs', { orderBy: 'name' });
    // Not known yet (undefined) until the first pull: the picker then does not call it empty.
    return rows.length > 0 || (await pulledOnce(db, 'organs')) ? rows : undefined;
  });
  const [choice, setChoice] = useState(NO_ANIMAL_ORGAN);
  const [notes, setNotes] = useState('');
  const [count, setCount] = useState<number | string>(1);
  const { busy, error, setError, run } = useSubmit();
  const { animal, organId } = choice;
  const n = typeof count === 'number' ? count : Number.parseInt(count, 10);
  const countOk = Number.isInteger(n) && n >= 1 && n <= MAX_LABELS_AT_ONCE;

  const close = () => {
    setChoice(NO_ANIMAL_ORGAN);
    setNotes('');
    setCount(1);
    setError(undefined);
    onClose();
  };

  const submit = async () => {
    if (!animal || !organId || !countOk) return;
    await run(async () => {
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
    });
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
          <AnimalOrganPicker
            organs={organs.data}
            value={choice}
            onChange={setChoice}
            searchable
            autoFocus
            tooltipOpenDelay={300}
          />
          <NotesField value={notes} onChange={setNotes} />
          <NumberInput
            label={OrdersText.labelCount}
            value={count}
            onChange={setCount}
            min={1}
            max={MAX_LABELS_AT_ONCE}
            allowDecimal={false}
            error={countOk ? undefined : `1 to ${MAX_LABELS_AT_ONCE}`}
          />
          <FormError error={error} />
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
