// /dashboard/reviews-and-qc, the Active Reviews page (§2.9): a Request Review tile, a card per review
// group still in progress (progress = actioned share of total, §4.4), then a Completed Reviews strip
// and a Completed QC strip. Read from the local store, so it works offline and shows decisions made
// here before they reach the server.
import { Badge, Card, Group, Progress, ScrollArea, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { canRequestReview } from '../../access/menu';
import { Denied, Misc } from '../../api/messages';
import { qcCountRows, qcPercentage, reviewStatusText, type ReviewGroupCounts } from '../../api/reviews';
import type { User } from '../../api/users';
import { readRows } from '../../local/read';
import { formatDate } from '../lib/format';
import { ModalTile } from '../shell/ModalTile';
import { TOUCH_TARGET } from '../theme';
import { useAbility } from '../session/ability';
import { useLocalQuery, useObserved } from '../sync/hooks';
import { REQUEST_REVIEW_TITLE } from './RequestReviewModal';
import { nameOf, readGroups, type GroupSummary } from './reviews-local';

/** Review cards shown per strip before 'more' (§9: reviews 10, QC list 5). */
const COMPLETED_REVIEWS = 10;
const COMPLETED_QC = 5;

function RequestTile() {
  const { ability, me } = useAbility();
  return (
    <ModalTile
      title={REQUEST_REVIEW_TITLE}
      param="request-review"
      allowed={canRequestReview(ability, me)}
      deniedLabel={
        <Stack gap={2}>
          <Text size="sm">{Denied.noReviewPermission}</Text>
          <Text size="sm">{Denied.contactAdmin}</Text>
        </Stack>
      }
      minHeight={120}
    />
  );
}

/**
 * The counts line of a group: a QC check in the words and order of every QC summary (qcCountRows);
 * a standard review has only waiting and completed reviews (§4.4 review reading).
 */
export function GroupCounts({ group }: { group: ReviewGroupCounts & { kind: 'qc' | 'review' } }) {
  const color: Record<string, string> = {
    pending: 'gray',
    accepted: 'green',
    rejected: 'red',
    flagged: 'orange',
    completed: 'blue',
  };
  const parts: [string, number, string][] =
    group.kind === 'qc'
      ? qcCountRows(group).map((r) => [r.label, r.value, color[r.key]])
      : [
          [reviewStatusText('pending'), group.pending, color.pending],
          [reviewStatusText('completed'), group.completed, color.completed],
        ];
  return (
    <Group gap={6} data-testid="group-counts">
      {parts.map(([label, n, color]) => (
        <Badge key={label} variant="light" color={color} size="sm">
          {label}: {n}
        </Badge>
      ))}
    </Group>
  );
}

export function ReviewGroupCard({ group, users }: { group: GroupSummary; users: readonly User[] }) {
  const { actioned, total, progress } = group.progress;
  const reviewers = group.reviewerIds.map((id) => nameOf(users, id, Misc.unavailableUser)).join(', ');
  return (
    <Card withBorder radius="md" data-testid="review-card" data-group={group.id}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} lineClamp={2} data-testid="group-name">
            {group.name}
          </Text>
          {group.pendingChanges && (
            <Badge color="yellow" variant="light" size="sm">
              Pending
            </Badge>
          )}
        </Group>
        <Text size="sm" lineClamp={1}>
          {group.kind === 'qc' ? 'Quality check' : 'Review'} · {group.imageIds.length}{' '}
          {group.imageIds.length === 1 ? 'image' : 'images'}
        </Text>
        <Text size="sm" c="dimmed" lineClamp={1}>
          Requested by {nameOf(users, group.creatorUserId, Misc.unavailableUser)} on{' '}
          {formatDate(group.createdAt)}
        </Text>
        <Text size="sm" lineClamp={1}>
          Reviewers: {reviewers || Misc.unavailableUser}
        </Text>
        <Progress value={progress * 100} aria-label="Progress" />
        <Group justify="space-between">
          <Text size="sm">
            {actioned} of {total} done
          </Text>
          {group.kind === 'qc' && (
            <Text size="sm" c="dimmed">
              QC {qcPercentage(group)}%
            </Text>
          )}
        </Group>
        <GroupCounts group={group} />
        <Group gap="xs">
          <Link
            to="/review/$reviewGroupUUID/$index"
            params={{ reviewGroupUUID: group.id, index: '0' }}
            className={TOUCH_TARGET}
          >
            Open
          </Link>
          {group.kind === 'qc' && (
            <Link
              to="/reports/quality-check/$reviewGroupId"
              params={{ reviewGroupId: group.id }}
              target="_blank"
              className={TOUCH_TARGET}
            >
              QC report
            </Link>
          )}
        </Group>
      </Stack>
    </Card>
  );
}

function Strip({ title, groups, users }: { title: string; groups: GroupSummary[]; users: readonly User[] }) {
  return (
    <Stack gap="xs">
      <Title order={4}>{title}</Title>
      {groups.length === 0 ? (
        <Text c="dimmed" size="sm">
          {Misc.resultsNotFound}
        </Text>
      ) : (
        <ScrollArea type="auto" offsetScrollbars>
          <Group wrap="nowrap" align="stretch" gap="md">
            {groups.map((g) => (
              <div key={g.id} style={{ width: 300, flex: '0 0 auto' }}>
                <ReviewGroupCard group={g} users={users} />
              </div>
            ))}
          </Group>
        </ScrollArea>
      )}
    </Stack>
  );
}

export function ActiveReviewsPage() {
  const groups = useLocalQuery('reviews', ['groups'], readGroups).data;
  // The server's group counts are pulled too (the cards count from the reviews held here).
  useLocalQuery('review-groups', ['all'], (db) => readRows(db, 'review-groups', { limit: 1 }));
  const users = useObserved((db) => readRows<User>(db, 'users'), []) ?? [];
  const active = (groups ?? []).filter((g) => !g.progress.complete);
  const done = (groups ?? []).filter((g) => g.progress.complete);
  return (
    <Stack gap="lg">
      <Title order={3}>Active Reviews</Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        <RequestTile />
        {active.map((g) => (
          <ReviewGroupCard key={g.id} group={g} users={users} />
        ))}
      </SimpleGrid>
      {groups && active.length === 0 && (
        <Text c="dimmed" size="sm">
          No reviews in progress.
        </Text>
      )}
      <Strip
        title="Completed Reviews"
        groups={done.filter((g) => g.kind === 'review').slice(0, COMPLETED_REVIEWS)}
        users={users}
      />
      <Strip
        title="Completed QC"
        groups={done.filter((g) => g.kind === 'qc').slice(0, COMPLETED_QC)}
        users={users}
      />
    </Stack>
  );
}
