// ?fixUpload={fileId} (§2.3, §5): 'Enter Slide Label ID' for an uploaded image whose label was not
// recognized. It names the file and the barcode read from it; the search (at most 100 characters)
// lists the slides whose simpleId starts with what was typed, and Submit applies the chosen one's
// label. The server's error shows in red.
import { useEffect, useState } from 'react';
import { Button, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import { FIX_UPLOAD_SEARCH_MAX } from '../../api/constants';
import type { ScanGroup } from '../../api/entities';
import type { ListResult } from '../../api/lists';
import { Misc } from '../../api/messages';
import { normalizeSimpleId } from '../../api/scan-groups';
import { FormError } from '../forms/FormError';
import { useSubmit } from '../forms/use-submit';
import { api } from '../lib/api';
import { RepairTarget, useRepairTarget } from './RepairTarget';
import { currentClient } from './uploads-store';

/** Slides listed for a typed beginning: enough to pick from, few enough to read at a glance. */
const MATCHES_SHOWN = 6;

export function FixUploadModal({ fileId, onClose }: { fileId: string | undefined; onClose: () => void }) {
  const [search, setSearch] = useState('');
  const [matches, setMatches] = useState<ScanGroup[] | null>();
  const [chosen, setChosen] = useState<string | null>(null);
  const target = useRepairTarget(fileId);
  const { busy, error, setError, run } = useSubmit();

  useEffect(() => {
    setMatches(undefined);
    setChosen(null);
    const prefix = normalizeSimpleId(search);
    if (!prefix) return;
    let live = true;
    const timer = setTimeout(() => {
      const query = `simpleIdPrefix=${encodeURIComponent(prefix)}&orderBy=simpleId&orderDirection=asc`;
      api<ListResult<ScanGroup>>('GET', `/scan-groups?${query}&limit=${MATCHES_SHOWN}`)
        .then((r) => {
          if (!live) return;
          setMatches(r.result);
          // The whole ID typed, or only one slide left: that one is chosen.
          const exact =
            r.result.find((g) => g.simpleId === prefix) ?? (r.count === 1 ? r.result[0] : undefined);
          setChosen(exact?.id ?? null);
        })
        .catch(() => live && setMatches(null));
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [search]);

  const close = () => {
    setSearch('');
    setError(undefined);
    onClose();
  };
  const submit = async () => {
    if (!fileId || !chosen) return;
    await run(async () => {
      await api('POST', `/upload-groups/${fileId}/label`, { body: { scanGroupId: chosen } });
      await currentClient()?.refresh(fileId);
      close();
    });
  };

  return (
    <Modal opened={fileId !== undefined} onClose={close} title="Enter Slide Label ID" centered zIndex={400}>
      <Stack>
        <RepairTarget info={target} />
        <TextInput
          label="Slide Label ID"
          placeholder="Type the beginning of the slide label ID"
          maxLength={FIX_UPLOAD_SEARCH_MAX}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          data-autofocus
        />
        {matches && matches.length > 0 && (
          <Radio.Group
            value={chosen}
            onChange={setChosen}
            aria-label="Matching slides"
            data-testid="label-matches"
          >
            <Stack gap={6}>
              {matches.map((g) => (
                <Radio key={g.id} value={g.id} label={`Slide ${g.simpleId}${g.name ? ` · ${g.name}` : ''}`} />
              ))}
            </Stack>
          </Radio.Group>
        )}
        {matches !== undefined && !matches?.length && (
          <Text size="sm" c="dimmed">
            {Misc.resultsNotFound}
          </Text>
        )}
        <FormError error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button disabled={!chosen} loading={busy} onClick={() => void submit()}>
            Submit
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
