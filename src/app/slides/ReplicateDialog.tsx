// Replicate to study (§2.3, §5, §8): one study, chosen among those the user may update the slides of
// (§6.2 menu check); a study that already holds the slide gives 'The study already has this scan
// group.' The change is an `add` of the slide to the study's scanGroupIds, through the outbox.
import { useMemo, useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { canReplicateToStudy } from '../../access';
import type { ScanGroup, Study } from '../../api/entities';
import { errorText } from '../../api/errors';
import { Misc, Toasts } from '../../api/messages';
import { readRows } from '../../local/read';
import { EmptyPickerHint } from '../forms/EmptyPickerHint';
import { useAbility } from '../session/ability';
import { useLocalQuery, useMutations } from '../sync/hooks';
import { withOutcome } from './outcome';

/** Our pending text: the spec gives only the success and failure toasts of a replicate. */
export const REPLICATING = 'Replicating slide...';

export function ReplicateDialog({ slide, onClose }: { slide?: ScanGroup; onClose(): void }) {
  return (
    <Modal opened={!!slide} onClose={onClose} title="Replicate to Study" centered>
      {slide && <ReplicateBody slide={slide} onClose={onClose} />}
    </Modal>
  );
}

function ReplicateBody({ slide, onClose }: { slide: ScanGroup; onClose(): void }) {
  const { ability } = useAbility();
  const mutations = useMutations();
  const studies = useLocalQuery('studies', ['replicate'], (db) =>
    readRows<Study>(db, 'studies', { orderBy: 'updatedAt', reverse: true }),
  );
  const allowed = useMemo(
    () => (studies.data ?? []).filter((s) => canReplicateToStudy(ability, s)),
    [studies.data, ability],
  );
  const [studyId, setStudyId] = useState<string | null>(null);
  const [error, setError] = useState<string>();
  const study = allowed.find((s) => s.id === studyId);

  const replicate = async () => {
    if (!study) return;
    if (study.scanGroupIds.includes(slide.id)) return setError(errorText('SCAN_GROUP_IN_STUDY'));
    const outcome = await withOutcome(
      { pending: REPLICATING, success: Toasts.imagesReplicated, failure: Toasts.failedReplicate },
      () => mutations.update('studies', study.id, { add: { scanGroupIds: [slide.id] } }),
    );
    if (outcome !== 'failed') onClose();
  };

  return (
    <Stack>
      <Text size="sm">
        Add slide <b>{slide.simpleId}</b> to one study.
      </Text>
      <Select
        label="Study"
        placeholder="Choose a study"
        data={allowed.map((s) => ({ value: s.id, label: s.name }))}
        value={studyId}
        onChange={(v) => {
          setStudyId(v);
          setError(undefined);
        }}
        searchable
        nothingFoundMessage={Misc.noOptions}
        maxDropdownHeight={220}
      />
      <EmptyPickerHint kind="studies" empty={studies.data !== undefined && allowed.length === 0} />
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button disabled={!study} onClick={() => void replicate()}>
          Replicate
        </Button>
      </Group>
    </Stack>
  );
}
