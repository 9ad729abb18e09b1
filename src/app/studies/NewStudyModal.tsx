// 'Create New Study' (?new-study, spec §2.3, §2.10, §5, §8): a name of 1–100 characters; Create is
// disabled while it is empty. The study goes through the outbox, so it is created offline too: online,
// the dialog waits (briefly) for the server's answer and shows its error in a red box; offline, the
// study is kept on this device and shows as pending until it is sent.
import { useState } from 'react';
import { Alert, Button, Group, Modal, TextInput } from '@mantine/core';
import { STUDY_NAME_MAX } from '../../api/constants';
import { StudyText, extractMessage } from '../../api/messages';
import { StudyRuleText } from '../../api/studies';
import { localDb } from '../../local/db';
import { whenSettled } from '../../local/outbox';
import { useSubmit } from '../forms/use-submit';
import { settleToast, showProgressToast } from '../lib/toast';
import { useMe } from '../session/session-context';
import { useMutations } from '../sync/hooks';
import { newStudyPreview } from './studies-local';

export const NEW_STUDY_TITLE = 'Create New Study';
/** Our words for the offline case (the spec's toasts assume a network). */
export const SAVED_OFFLINE = 'Saved on this device. It will be sent when you are back online.';
/** How long the dialog waits for the server before treating the study as queued. */
const ANSWER_WAIT_MS = 8_000;

export function NewStudyModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const me = useMe();
  const mutations = useMutations();
  const [name, setName] = useState('');
  const { busy, error, setError, run } = useSubmit();
  const trimmed = name.trim();
  const tooLong = trimmed.length > STUDY_NAME_MAX;

  const close = () => {
    setName('');
    setError(undefined);
    onClose();
  };

  const create = () =>
    run(async () => {
      const toast = showProgressToast(StudyText.creating, trimmed);
      try {
        const { entry } = await mutations.create('studies', { name: trimmed }, newStudyPreview(me));
        const outcome = navigator.onLine ? await whenSettled(localDb(), entry.id, ANSWER_WAIT_MS) : undefined;
        if (outcome?.state === 'failed') {
          // The form still holds the name: the user fixes it here rather than in the sync list.
          await mutations.discard(entry.id);
          throw new Error(outcome.message);
        }
        settleToast(toast, 'green', StudyText.created, outcome?.state === 'sent' ? trimmed : SAVED_OFFLINE);
        close();
      } catch (err) {
        settleToast(toast, 'red', StudyText.createError, extractMessage(err));
        throw err;
      }
    });

  return (
    <Modal opened={opened} onClose={close} title={NEW_STUDY_TITLE} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (trimmed && !tooLong && !busy) void create();
        }}
      >
        <TextInput
          label="Study name"
          placeholder="Enter a name for the study"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={tooLong ? StudyRuleText.nameTooLong : undefined}
          required
          data-autofocus
        />
        {error && (
          <Alert color="red" variant="filled" mt="sm" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={!trimmed || tooLong} loading={busy}>
            Create
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
