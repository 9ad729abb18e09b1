// ?fixCreateUpload={fileId} (§2.3, §2.10, §5, §7): 'Create Slide Label ID' — animal first, then organ
// (disabled with 'Select an animal first'), notes; Submit creates the slide (scan group) and applies
// its new label to the uploaded image. The server's error shows in red.
import { useEffect, useMemo, useState } from 'react';
import { Button, Group, Modal, Select, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import type { Organ, ScanGroup } from '../../api/entities';
import type { ListResult } from '../../api/lists';
import { extractMessage, Misc } from '../../api/messages';
import { api } from '../lib/api';
import { currentClient } from './uploads-store';

/** The pickers' dropdowns open above this modal, which itself sits above the uploader. */
const ABOVE_MODALS = { zIndex: 500 };

export function FixCreateUploadModal({
  fileId,
  onClose,
}: {
  fileId: string | undefined;
  onClose: () => void;
}) {
  const opened = fileId !== undefined;
  const [organs, setOrgans] = useState<Organ[]>([]);
  const [animal, setAnimal] = useState<string | null>(null);
  const [organId, setOrganId] = useState<string | null>(null);
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!opened) return;
    let live = true;
    api<ListResult<Organ>>('GET', '/organs?limit=100')
      .then((r) => live && setOrgans(r.result))
      .catch((e: unknown) => live && setError(extractMessage(e)));
    return () => {
      live = false;
    };
  }, [opened]);

  const animals = useMemo(() => [...new Set(organs.map((o) => o.animal))].sort(), [organs]);
  const organOptions = organs.filter((o) => o.animal === animal).map((o) => ({ value: o.id, label: o.name }));

  const close = () => {
    setAnimal(null);
    setOrganId(null);
    setNotes('');
    setError(undefined);
    onClose();
  };
  const submit = async () => {
    if (!fileId || !animal || !organId) return;
    setBusy(true);
    setError(undefined);
    try {
      const created = await api<{ result: ScanGroup }>('POST', '/scan-groups', {
        body: { scanGroup: { animal, organId, notes } },
      });
      await api('POST', `/upload-groups/${fileId}/label`, { body: { scanGroupId: created.result.id } });
      await currentClient()?.refresh(fileId);
      close();
    } catch (e) {
      setError(extractMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Create Slide Label ID" centered zIndex={400}>
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
          comboboxProps={ABOVE_MODALS}
          required
        />
        <Tooltip label={Misc.selectAnimalFirst} disabled={!!animal} zIndex={500}>
          <div>
            <Select
              label="Organ"
              placeholder={animal ? 'Choose an organ' : Misc.selectAnimalFirst}
              data={organOptions}
              value={organId}
              onChange={setOrganId}
              disabled={!animal}
              nothingFoundMessage={Misc.noOptions}
              comboboxProps={ABOVE_MODALS}
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
        {error && (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button disabled={!animal || !organId} loading={busy} onClick={() => void submit()}>
            Submit
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
