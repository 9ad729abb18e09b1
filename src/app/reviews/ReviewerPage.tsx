// /review/{reviewGroupUUID}/{index} (§2.2): the reviewer steps through the group's images in the viewer
// with Previous / Next (buttons, arrow keys, a swipe on the header), reads and adds comments (comment
// reviews; one's own are editable), and acts with the verbs of the group's kind (§6.2): in a standard
// review the named reviewer completes their review, with a comment; in a QC check a QC reviewer
// (manageOrganizationQC) gives each image its result with one tap — Pass (accepted), Fail (rejected)
// or Flag (flagged) — with an optional reason. Pass/Fail/Flag never show on a standard review. Built
// for a 10-inch tablet at the bench: large targets, no hover needed. Everything goes through the
// outbox, so it works offline; the success toast waits for the server, and offline says the change
// is kept on this device. QC results are server-authoritative: a result someone else gave first wins,
// the local one is rolled back (src/local/replay.ts marks the entry failed and rebuilds the row) and
// the reviewer is told here, with the image it concerns.
import { useState } from 'react';
import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Chip,
  Group,
  Progress,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import type { Review } from '../../api/entities';
import type { ReviewStatus } from '../../api/enums';
import { Misc, ReviewQcText } from '../../api/messages';
import { REVIEW_COMMENT_MAX, reviewGroupProgress, reviewStatusText } from '../../api/reviews';
import type { User } from '../../api/users';
import type { OutboxEntry } from '../../local/db';
import { readRows } from '../../local/read';
import type { Local } from '../../local/restore';
import { EditableOwnText } from '../forms/EditableOwnText';
import { formatDate } from '../lib/format';
import { useMe } from '../session/session-context';
import { useLocalQuery, useMutations, useObserved, useOutbox } from '../sync/hooks';
import { withOutcome } from '../slides/outcome';
import { ImageCanvas, isViewable } from '../viewer/ViewerPage';
import { StepNav, SwipeArea } from '../viewer/StepNav';
import { AnnotationsPanel } from '../viewer/annotations/AnnotationsPanel';
import { GroupCounts } from './ActiveReviewsPage';
import { newReviewPreview } from './review-preview';
import { nameOf, readGroup, type GroupImage } from './reviews-local';

/** Quick reasons a QC reviewer taps instead of typing (our list; the spec names none). */
const QUICK_REASONS = ['Out of focus', 'Tissue fold', 'Staining issue', 'Artifact', 'Label mismatch'];

const DECISIONS: { status: ReviewStatus; label: string; color: string }[] = [
  { status: 'accepted', label: 'Pass', color: 'green' },
  { status: 'rejected', label: 'Fail', color: 'red' },
  { status: 'flagged', label: 'Flag', color: 'orange' },
];

const STATUS_COLOR: Record<ReviewStatus, string> = {
  pending: 'gray',
  accepted: 'green',
  rejected: 'red',
  flagged: 'orange',
  completed: 'blue',
};

const reviewIdOf = (entry: OutboxEntry) =>
  entry.target?.startsWith('reviews:') ? entry.target.slice('reviews:'.length) : undefined;

export function ReviewerPage({ reviewGroupUUID, index }: { reviewGroupUUID: string; index: number }) {
  const me = useMe();
  const navigate = useNavigate();
  const mutations = useMutations();
  const group = useLocalQuery('reviews', ['group', reviewGroupUUID], (db) =>
    readGroup(db, reviewGroupUUID),
  ).data;
  // Images and slides of the group come with their own kinds' pulls.
  useLocalQuery('images', ['review-images'], (db) => readRows(db, 'images', { limit: 1 }));
  const users = useObserved((db) => readRows<User>(db, 'users'), []) ?? [];
  const outbox = useOutbox();
  const isQcReviewer =
    me.effectivePolicies.includes('manageOrganizationQC') || me.effectivePolicies.includes('superAdmin');

  if (!group) return <Text c="dimmed">Loading...</Text>;
  if (group.images.length === 0)
    return (
      <Stack>
        <Title order={3}>Review</Title>
        <Text c="dimmed">{Misc.resultsNotFound}</Text>
      </Stack>
    );

  const count = group.images.length;
  const at = Math.max(0, Math.min(index, count - 1));
  const current = group.images[at];
  const go = (i: number) =>
    void navigate({
      to: '/review/$reviewGroupUUID/$index',
      params: { reviewGroupUUID, index: String(i) },
    });
  const stepper = { at, count, go };

  // Refused changes to this group's reviews: rolled back; the reviewer is told which image.
  const groupReviewIds = new Map<string, number>();
  group.images.forEach((g, i) => [...g.reviews, ...g.comments].forEach((r) => groupReviewIds.set(r.id, i)));
  const refused = (outbox?.failed ?? []).filter((e) => {
    const id = reviewIdOf(e);
    return id !== undefined && groupReviewIds.has(id);
  });

  const progress = reviewGroupProgress(group.counts);
  return (
    <Stack gap="sm">
      <SwipeArea stepper={stepper}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={0}>
            <Title order={3}>{group.kind === 'qc' ? 'Quality check' : 'Review'}</Title>
            <Text fw={500} data-testid="group-name">
              {group.name}
            </Text>
            <Text size="sm" c="dimmed">
              Image {at + 1} of {count}
              {current.slide ? ` · Slide ${current.slide.simpleId}` : ''}
              {current.image ? ` · ${current.image.name}` : ''}
            </Text>
          </Stack>
          <StepNav stepper={stepper} />
        </Group>
      </SwipeArea>
      <Progress value={progress.progress * 100} aria-label="Group progress" />
      <GroupCounts group={{ ...group.counts, kind: group.kind }} />
      {refused.map((entry) => (
        <Alert
          key={entry.id}
          color="red"
          title={ReviewQcText.decisionRolledBack}
          role="alert"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => void mutations.discard(entry.id)}
          data-testid="qc-conflict"
        >
          Image {(groupReviewIds.get(reviewIdOf(entry) ?? '') ?? 0) + 1}: {entry.error}
        </Alert>
      ))}
      <Box
        h={{ base: '45vh', md: '55vh' }}
        mih={320}
        style={{ borderRadius: 8, overflow: 'hidden' }}
        bd="1px solid var(--mantine-color-gray-3)"
      >
        {current.image && isViewable(current.image) ? (
          <ImageCanvas key={current.imageId} image={current.image} reviewId={current.reviews[0]?.id} />
        ) : (
          <Stack align="center" justify="center" h="100%">
            <Text c="dimmed">{current.image ? Misc.imageNotAvailable : 'Loading...'}</Text>
          </Stack>
        )}
      </Box>
      <Group align="flex-start" grow wrap="wrap" gap="sm" style={{ rowGap: 12 }}>
        <Stack gap="sm" miw={300}>
          <DecisionPanel
            key={current.imageId}
            item={current}
            groupId={reviewGroupUUID}
            kind={group.kind}
            qc={isQcReviewer}
            users={users}
            onDecided={() => {
              if (at < count - 1) go(at + 1);
            }}
          />
          {current.image && <AnnotationsPanel imageId={current.imageId} reviewId={current.reviews[0]?.id} />}
        </Stack>
        <Comments key={`c-${current.imageId}`} item={current} groupId={reviewGroupUUID} users={users} />
      </Group>
    </Stack>
  );
}

/** The review this user acts on for an image: their own of the group's kind, else the group's first. */
function actionable(item: GroupImage, userId: string, kind: 'qc' | 'review'): Local<Review> | undefined {
  const ofKind = item.reviews.filter((r) => r.type === (kind === 'qc' ? 'qc' : 'standard'));
  return ofKind.find((r) => r.reviewerId === userId) ?? ofKind[0];
}

/** The toast of a review change: a result once the server took it, else that it waits here. */
const savedToast = (entry: OutboxEntry, success: string, failure: string) =>
  void withOutcome(
    {
      pending: ReviewQcText.saving,
      success,
      successText: ReviewQcText.saved,
      failure,
      queuedText: ReviewQcText.savedOnDevice,
    },
    () => Promise.resolve(entry),
  );

function DecisionPanel({
  item,
  groupId,
  kind,
  qc,
  users,
  onDecided,
}: {
  item: GroupImage;
  groupId: string;
  kind: 'qc' | 'review';
  qc: boolean;
  users: readonly User[];
  onDecided(): void;
}) {
  const me = useMe();
  const mutations = useMutations();
  const [reason, setReason] = useState('');
  const review = actionable(item, me.user.id, kind);
  const reading = kind === 'qc' ? 'qc' : 'review';
  // §6.2: QC results are a QC reviewer's verbs in a QC check; completing is the named reviewer's.
  const qcVerbs = kind === 'qc' && qc;
  const canComplete =
    kind === 'review' &&
    review?.type === 'standard' &&
    review.reviewerId === me.user.id &&
    review.status === 'pending';

  const decide = async (status: ReviewStatus) => {
    const text = reason.trim();
    let entry: OutboxEntry;
    if (review) {
      const set: Record<string, unknown> = { status, updatedAt: review.updatedAt };
      if (text) set.comment = text;
      entry = await mutations.update('reviews', review.id, { set });
    } else {
      const now = new Date().toISOString();
      entry = (
        await mutations.create(
          'reviews',
          { reviewGroupUUID: groupId, imageId: item.imageId, type: 'qc', status, comment: text },
          newReviewPreview(me, now, { reviewerId: me.user.id, qc: true }),
        )
      ).entry;
    }
    savedToast(entry, reviewStatusText(status, 'qc'), ReviewQcText.decisionRolledBack);
    setReason('');
    onDecided();
  };

  const complete = async () => {
    if (!review) return;
    const text = reason.trim();
    const set: Record<string, unknown> = { status: 'completed' };
    if (text) set.comment = text;
    const entry = await mutations.update('reviews', review.id, { set });
    savedToast(entry, reviewStatusText('completed'), ReviewQcText.reviewNotSaved);
    setReason('');
  };

  return (
    <Card withBorder radius="md" p="md">
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>{reading === 'qc' ? 'QC result' : 'Review'}</Text>
          {review ? (
            <Group gap={6}>
              {(review.$pending ?? 0) > 0 && (
                <Badge color="yellow" variant="light">
                  Pending
                </Badge>
              )}
              <Badge color={STATUS_COLOR[review.status]} size="lg" data-testid="review-status">
                {reviewStatusText(review.status, reading)}
              </Badge>
            </Group>
          ) : (
            <Badge color="gray" size="lg" data-testid="review-status">
              {reviewStatusText('pending', reading)}
            </Badge>
          )}
        </Group>
        {review && (
          <Text size="sm" c="dimmed">
            Reviewer: {nameOf(users, review.reviewerId, Misc.unavailableUser)}
            {review.comment ? ` · ${reading === 'qc' ? 'Reason' : 'Comment'}: ${review.comment}` : ''}
          </Text>
        )}
        {qcVerbs ? (
          <>
            <Textarea
              label="Reason (optional)"
              placeholder="Why this result?"
              autosize
              minRows={1}
              maxRows={4}
              maxLength={REVIEW_COMMENT_MAX}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
            />
            <Chip.Group>
              <Group gap={6}>
                {QUICK_REASONS.map((r) => (
                  <Chip
                    key={r}
                    size="md"
                    checked={reason === r}
                    onChange={() => setReason(reason === r ? '' : r)}
                  >
                    {r}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
            <Group grow gap="sm">
              {DECISIONS.map((d) => (
                <Button
                  key={d.status}
                  size="lg"
                  h={64}
                  px="xs"
                  color={d.color}
                  variant={review?.status === d.status ? 'filled' : 'light'}
                  onClick={() => void decide(d.status)}
                  aria-pressed={review?.status === d.status}
                >
                  {d.label}
                </Button>
              ))}
            </Group>
          </>
        ) : (
          canComplete && (
            <>
              <Textarea
                label={ReviewQcText.reviewComment}
                placeholder="What did you find?"
                autosize
                minRows={2}
                maxRows={6}
                maxLength={REVIEW_COMMENT_MAX}
                value={reason}
                onChange={(e) => setReason(e.currentTarget.value)}
              />
              <Button size="lg" h={56} onClick={() => void complete()}>
                {ReviewQcText.completeReview}
              </Button>
            </>
          )
        )}
      </Stack>
    </Card>
  );
}

function Comments({ item, groupId, users }: { item: GroupImage; groupId: string; users: readonly User[] }) {
  const me = useMe();
  const mutations = useMutations();
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<string>();
  const add = async () => {
    const comment = text.trim();
    if (!comment) return;
    const now = new Date().toISOString();
    await mutations.create(
      'reviews',
      { reviewGroupUUID: groupId, imageId: item.imageId, type: 'comment', comment },
      newReviewPreview(me, now, { reviewerId: me.user.id, status: 'completed', qc: false }),
    );
    setText('');
  };
  return (
    <Card withBorder radius="md" p="md" miw={300}>
      <Stack gap="sm">
        <Text fw={600}>Comments ({item.comments.length})</Text>
        {item.comments.length === 0 && (
          <Text size="sm" c="dimmed">
            No comments yet.
          </Text>
        )}
        {item.comments.map((c) => (
          <Stack key={c.id} gap={2} data-testid="review-comment">
            <EditableOwnText
              header={
                <Text size="xs" c="dimmed">
                  {nameOf(users, c.creatorUserId, Misc.unavailableUser)} · {formatDate(c.createdAt)}
                  {(c.$pending ?? 0) > 0 ? ' · Pending' : ''}
                </Text>
              }
              text={c.comment}
              editable={c.creatorUserId === me.user.id}
              editing={editing === c.id}
              onEditingChange={(on) => setEditing(on ? c.id : undefined)}
              label="Edit comment"
              maxLength={REVIEW_COMMENT_MAX}
              onSave={(comment) => void mutations.update('reviews', c.id, { set: { comment } })}
            />
          </Stack>
        ))}
        <Textarea
          placeholder="Add a comment"
          aria-label="Add a comment"
          autosize
          minRows={2}
          maxLength={REVIEW_COMMENT_MAX}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button size="md" disabled={!text.trim()} onClick={() => void add()}>
            Add comment
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
