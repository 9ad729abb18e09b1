// Request Review (?request-review, spec §2.3, §2.10, §5, §7, §8): pick slides — optionally narrowed to
// one study (studies without slides disabled with 'Study has not avaliable slide (image)') — and fill
// reviewer slots, each holding one distinct colleague who can act on the request (src/access
// canActOnRequest: anyone who can complete a review; for a QC check, a QC reviewer) and never the
// requester. One review per selected image per reviewer is created, all sharing a generated
// reviewGroupUUID and naming the chosen study; a QC request creates QC reviews that wait for the
// reviewer's result. Every review goes through the outbox, so a request made offline is kept and sent
// later. Without permission the request button is disabled with the spec's two tooltip lines.
import { useEffect, useMemo, useState } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Modal,
  MultiSelect,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { defineAbilityFor } from '../../access';
import { canRequestReview } from '../../access/menu';
import { canActOnRequest } from '../../access/reviewers';
import { Denied, Misc, ReviewQcText, StudyText, Toasts, extractMessage } from '../../api/messages';
import { localDb } from '../../local/db';
import { whenSettled } from '../../local/outbox';
import { useSubmit } from '../forms/use-submit';
import { settleToast, showProgressToast } from '../lib/toast';
import { useAbility } from '../session/ability';
import { useMe } from '../session/session-context';
import { useMutations, useObserved } from '../sync/hooks';
import { newReviewPreview } from './review-preview';
import { nameOf, readRequestSource } from './reviews-local';

export const REQUEST_REVIEW_TITLE = 'Request Review';
const ANSWER_WAIT_MS = 10_000;

export function RequestReviewModal({
  opened,
  onClose,
  studyId,
}: {
  opened: boolean;
  onClose(): void;
  /** A study to start from (`?request-review={studyId}`). */
  studyId?: string;
}) {
  const me = useMe();
  const { ability, me: accessMe } = useAbility();
  const mutations = useMutations();
  // Closed, it reads nothing: the shell mounts it on every page, and every study, slide, image and user
  // re-read after each mirror write would slow the whole app (bench/README.md, offline).
  const source = useObserved((db) => (opened ? readRequestSource(db) : Promise.resolve(undefined)), [opened]);
  const [study, setStudy] = useState<string | null>(studyId ?? null);
  const [slideIds, setSlideIds] = useState<string[]>([]);
  const [slots, setSlots] = useState<(string | null)[]>([null]);
  const [kind, setKind] = useState<'standard' | 'qc'>('standard');
  const { busy, error, setError, run } = useSubmit();
  const allowed = canRequestReview(ability, accessMe);
  useEffect(() => {
    if (opened) setStudy(studyId ?? null);
  }, [opened, studyId]);

  const reset = () => {
    setSlideIds([]);
    setSlots([null]);
    setError(undefined);
    setStudy(studyId ?? null);
  };
  const close = () => {
    reset();
    onClose();
  };

  const studies = source?.studies ?? [];
  const chosenStudy = studies.find((s) => s.id === study);
  const withImages = (source?.slides ?? []).filter((s) => (source?.images[s.id]?.length ?? 0) > 0);
  const slides = chosenStudy ? withImages.filter((s) => chosenStudy.scanGroupIds.includes(s.id)) : withImages;
  const users = source?.users ?? [];
  // Who can act on a request of this kind, by their own abilities (the server asks the same).
  const reviewers = useMemo(
    () =>
      (source?.users ?? []).filter((u) => {
        const organization = source?.organizations.get(u.organizationId);
        return (
          !!organization &&
          canActOnRequest(defineAbilityFor({ user: u, organization }), {
            kind,
            reviewerId: u.id,
            requesterId: me.user.id,
            organizationId: me.organization.id,
          })
        );
      }),
    [source, kind, me],
  );
  const filled = slots.filter((s): s is string => !!s);
  const imageIds = slideIds.flatMap((id) => (source?.images[id] ?? []).map((i) => i.id));
  const missing =
    slideIds.length === 0
      ? ReviewQcText.selectSlides
      : filled.length < slots.length
        ? ReviewQcText.fillReviewers
        : undefined;

  const submit = () =>
    run(async () => {
      const toast = showProgressToast(Toasts.requestingReview);
      try {
        const group = crypto.randomUUID();
        const now = new Date().toISOString();
        const entries = [];
        for (const imageId of imageIds)
          for (const reviewerId of filled) {
            const fields: Record<string, unknown> = {
              reviewGroupUUID: group,
              imageId,
              reviewerId,
              type: kind,
            };
            if (study) fields.studyId = study;
            const preview = newReviewPreview(me, now, {
              status: 'pending',
              comment: '',
              qc: kind === 'qc',
              studyId: study,
            });
            entries.push((await mutations.create('reviews', fields, preview)).entry);
          }
        if (navigator.onLine) {
          const outcomes = await Promise.all(
            entries.map((e) => whenSettled(localDb(), e.id, ANSWER_WAIT_MS)),
          );
          const failed = outcomes.find((o) => o.state === 'failed');
          if (failed && failed.state === 'failed') {
            // The request is one act: what the server refused is not left queued.
            for (const [i, o] of outcomes.entries())
              if (o.state === 'failed') await mutations.discard(entries[i].id);
            throw new Error(failed.message);
          }
          const queued = outcomes.some((o) => o.state === 'pending');
          finish(toast, queued);
        } else finish(toast, true);
        close();
      } catch (err) {
        settleToast(toast, 'red', Toasts.error, extractMessage(err));
        throw err;
      }
    });

  const finish = (toast: string, queued: boolean) => {
    const names = filled.map((id) => nameOf(users, id, Misc.unavailableUser)).join(', ');
    settleToast(
      toast,
      'green',
      Toasts.reviewRequested,
      queued
        ? `${Toasts.reviewRequestedText(names)} ${ReviewQcText.savedOnDevice}`
        : Toasts.reviewRequestedText(names),
    );
  };

  const denied = (
    <Stack gap={2}>
      <Text size="sm">{Denied.noReviewPermission}</Text>
      <Text size="sm">{Denied.contactAdmin}</Text>
    </Stack>
  );

  return (
    <Modal opened={opened} onClose={close} title={REQUEST_REVIEW_TITLE} size="lg" centered>
      <Stack>
        <SegmentedControl
          value={kind}
          onChange={(v) => {
            setKind(v === 'qc' ? 'qc' : 'standard');
            // Whoever was chosen for the other kind may not be able to act on this one.
            setSlots(slots.map(() => null));
          }}
          data={[
            { value: 'standard', label: 'Review' },
            { value: 'qc', label: 'Quality check (QC)' },
          ]}
          aria-label="Kind of review"
        />
        <Select
          label="Study"
          placeholder="All slides"
          clearable
          searchable
          value={study}
          onChange={(v) => {
            setStudy(v);
            setSlideIds([]);
          }}
          nothingFoundMessage={Misc.noOptions}
          comboboxProps={{ withinPortal: true }}
          maxDropdownHeight={220}
          data={studies.map((s) => ({
            value: s.id,
            label: s.scanGroupIds.some((id) => withImages.some((w) => w.id === id))
              ? s.name
              : `${s.name} — ${StudyText.noAvailableSlide}`,
            disabled: !s.scanGroupIds.some((id) => withImages.some((w) => w.id === id)),
          }))}
        />
        <MultiSelect
          label="Slides"
          placeholder={slideIds.length ? undefined : 'Choose slides'}
          searchable
          value={slideIds}
          onChange={setSlideIds}
          nothingFoundMessage={Misc.noOptions}
          maxDropdownHeight={300}
          data={slides.map((s) => ({
            value: s.id,
            label: `${s.simpleId} (${source?.images[s.id]?.length ?? 0} ${source?.images[s.id]?.length === 1 ? 'image' : 'images'})`,
          }))}
        />
        <Stack gap="xs">
          <Text size="sm" fw={500}>
            Reviewers
          </Text>
          {slots.map((value, i) => (
            <Group key={i} gap="xs" wrap="nowrap">
              <Select
                style={{ flex: 1 }}
                aria-label={`Reviewer ${i + 1}`}
                placeholder="Choose a reviewer"
                searchable
                value={value}
                onChange={(v) => setSlots(slots.map((s, j) => (j === i ? v : s)))}
                nothingFoundMessage={Misc.noOptions}
                maxDropdownHeight={240}
                data={reviewers
                  .filter((u) => u.id === value || !filled.includes(u.id))
                  .map((u) => ({ value: u.id, label: u.name ? `${u.name} (${u.email})` : u.email }))}
              />
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                aria-label={`Remove reviewer ${i + 1}`}
                disabled={slots.length === 1}
                onClick={() => setSlots(slots.filter((_, j) => j !== i))}
              >
                ×
              </ActionIcon>
            </Group>
          ))}
          <Group>
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={() => setSlots([...slots, null])}
              disabled={slots.length >= reviewers.length}
            >
              Add reviewer
            </Button>
          </Group>
        </Stack>
        {imageIds.length > 0 && filled.length > 0 && (
          <Text size="sm" c="dimmed">
            {imageIds.length * filled.length} {imageIds.length * filled.length === 1 ? 'review' : 'reviews'}{' '}
            will be requested.
          </Text>
        )}
        {error && (
          <Alert color="red" variant="filled" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Tooltip
            label={allowed ? missing : denied}
            disabled={allowed && !missing}
            openDelay={300}
            multiline
            w={280}
          >
            <span>
              <Button onClick={() => void submit()} disabled={!allowed || !!missing} loading={busy}>
                Request Review
              </Button>
            </span>
          </Tooltip>
        </Group>
      </Stack>
    </Modal>
  );
}
