// ?fixUpload={fileId} (§2.3, §5): 'Enter Slide Label ID' for an uploaded image whose label was not
// recognized. The search (at most 100 characters) must match a slide by its simpleId before Submit
// applies that label; the server's error shows in red.
import { useEffect, useState } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { FIX_UPLOAD_SEARCH_MAX } from '../../api/constants';
import type { ScanGroup } from '../../api/entities';
import type { ListResult } from '../../api/lists';
import { Misc } from '../../api/messages';
import { normalizeSimpleId } from '../../api/scan-groups';
import { FormError } from '../forms/FormError';
import { useSubmit } from '../forms/use-submit';
import { api } from '../lib/api';
import { currentClient } from './uploads-store';

export function FixUploadModal({ fileId, onClose }: { fileId: string | undefined; onClose: () => void }) {
  const [search, setSearch] = useState('');
  const [match, setMatch] = useState<ScanGroup | null>();
  const { busy, error, setError, run } = useSubmit();

  useEffect(() => {
    setMatch(undefined);
    const simpleId = normalizeSimpleId(search);
    if (!simpleId) return;
    let live = true;
    const timer = setTimeout(() => {
      api<ListResult<ScanGroup>>('GET', `/scan-groups?simpleId=${encodeURIComponent(simpleId)}&limit=1`)
        .then((r) => live && setMatch(r.result.find((g) => g.simpleId === simpleId) ?? null))
        .catch(() => live && setMatch(null));
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
    if (!fileId || !match) return;
    await run(async () => {
      await api('POST', `/upload-groups/${fileId}/label`, { body: { scanGroupId: match.id } });
      await currentClient()?.refresh(fileId);
      close();
    });
  };

  return (
    <Modal opened={fileId !== undefined} onClose={close} title="Enter Slide Label ID" centered zIndex={400}>
      <Stack>
        <TextInput
          label="Slide Label ID"
          placeholder="Search by slide label ID"
          maxLength={FIX_UPLOAD_SEARCH_MAX}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          data-autofocus
        />
        {match && (
          <Text size="sm" c="green.8" data-testid="label-match">
            Slide {match.simpleId}
            {match.name ? ` · ${match.name}` : ''}
          </Text>
        )}
        {match === null && (
          <Text size="sm" c="dimmed">
            {Misc.resultsNotFound}
          </Text>
        )}
        <FormError error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button disabled={!match} loading={busy} onClick={() => void submit()}>
            Submit
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
