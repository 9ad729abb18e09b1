// ?fixCreateUpload={fileId} (§2.3, §2.10, §5, §7): 'Create Slide Label ID' — animal first, then organ
// (disabled with 'Select an animal first'), notes; Submit creates the slide (scan group) and applies
// its new label to the uploaded image, then shows the new ID (to write or print on the glass slide).
// It names the file and the barcode read from it. The server's error shows in red.
import { useEffect, useState } from 'react';
import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { Organ, ScanGroup } from '../../api/entities';
import type { ListResult } from '../../api/lists';
import { extractMessage } from '../../api/messages';
import { UploadOwnText } from '../../api/uploads';
import { AnimalOrganPicker, NO_ANIMAL_ORGAN } from '../forms/AnimalOrganPicker';
import { FormError } from '../forms/FormError';
import { NotesField } from '../forms/NotesField';
import { useSubmit } from '../forms/use-submit';
import { api } from '../lib/api';
import { RepairTarget, useRepairTarget } from './RepairTarget';
import { reportPaths } from '../reports/paths';
import { currentClient } from './uploads-store';

/** The pickers' dropdowns open above this modal, which itself sits above the uploader. */
const ABOVE_MODALS = 500;

export function FixCreateUploadModal({
  fileId,
  onClose,
}: {
  fileId: string | undefined;
  onClose: () => void;
}) {
  const opened = fileId !== undefined;
  /** Undefined until the list is known: the picker tells an empty catalogue from one still loading. */
  const [organs, setOrgans] = useState<Organ[]>();
  const [choice, setChoice] = useState(NO_ANIMAL_ORGAN);
  const [notes, setNotes] = useState('');
  const [created, setCreated] = useState<ScanGroup>();
  const target = useRepairTarget(fileId);
  const { busy, error, setError, run } = useSubmit();
  const { animal, organId } = choice;

  useEffect(() => {
    if (!opened) return;
    let live = true;
    api<ListResult<Organ>>('GET', '/organs?limit=100')
      .then((r) => live && setOrgans(r.result))
      .catch((e: unknown) => live && setError(extractMessage(e)));
    return () => {
      live = false;
    };
  }, [opened, setError]);

  const close = () => {
    setChoice(NO_ANIMAL_ORGAN);
    setNotes('');
    setCreated(undefined);
    setError(undefined);
    onClose();
  };
  const submit = async () => {
    if (!fileId || !animal || !organId) return;
    await run(async () => {
      const created = await api<{ result: ScanGroup }>('POST', '/scan-groups', {
        body: { scanGroup: { animal, organId, notes } },
      });
      await api('POST', `/upload-groups/${fileId}/label`, { body: { scanGroupId: created.result.id } });
      await currentClient()?.refresh(fileId);
      setCreated(created.result);
    });
  };

  return (
    <Modal opened={opened} onClose={close} title="Create Slide Label ID" centered zIndex={400}>
      {created ? (
        <Stack>
          <Text data-testid="label-created">
            {UploadOwnText.labelCreated(created.simpleId, target.name ?? '')}
          </Text>
          <Group justify="flex-end">
            <Anchor href={reportPaths.label(created.id)} target="_blank" size="sm">
              Print Label
            </Anchor>
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <RepairTarget info={target} />
          <AnimalOrganPicker organs={organs} value={choice} onChange={setChoice} zIndex={ABOVE_MODALS} />
          <NotesField value={notes} onChange={setNotes} />
          <FormError error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button disabled={!animal || !organId} loading={busy} onClick={() => void submit()}>
              Submit
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
