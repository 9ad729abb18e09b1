// The activity feed (§3 Activity, GET /v2/activities), one component for every place that shows
// one: the dashboard's recent, organization and collaborator tabs, /activity, /administrator/activity
// and /account-settings/user-activity. The scope says whose actions it lists; `filters` adds the bar
// to narrow them by kind, action, date and person. Rows read as sentences (sentence.ts), grouped by
// action and by day, each with its time of day; names come from the local mirror in one batched read
// (feed-names.ts). Activities are not mirrored (a log the server writes): offline, the last answer
// (kept by the persisted query cache) shows with a note. 25 per page with 'Load more'.
import { useMemo, useState } from 'react';
import { Anchor, Avatar, Button, Card, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Activity } from '../../api/entities';
import type { ListResult } from '../../api/lists';
import { Misc, extractMessage } from '../../api/messages';
import type { SyncKind } from '../../api/sync';
import { nameOfRow } from '../../local/describe';
import { api } from '../lib/api';
import { formatDate, initials } from '../lib/format';
import { useMe } from '../session/session-context';
import { useSync } from '../sync/context';
import { useObserved } from '../sync/hooks';
import { ActivityFilterBar, NO_FILTERS, filterParams, type ActivityFilters } from './ActivityFilterBar';
import { namedIds, readFeedRows } from './feed-names';
import { actorName, describeGroup, groupActivities, type FeedLookup } from './sentence';

/** Whose actions a feed lists: one's own, an organization's (and given teams'), or collaborators'. */
export type ActivityScope = 'mine' | 'organization' | 'collaborator';

const PER_PAGE = 25;
export const OfflineFeedText = 'You are offline: this is the activity last loaded.';

const timeOfDay = (iso: string) =>
  new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** 'Today', 'Yesterday', else the date (MM/dd/yyyy, §9). */
function dayOf(iso: string, now = new Date()): string {
  const day = new Date(iso);
  const start = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((start(now) - start(day)) / 86_400_000);
  return days === 0 ? 'Today' : days === 1 ? 'Yesterday' : formatDate(iso);
}

export function ActivityFeed({
  scope,
  organizationIds,
  filters: withFilters = false,
}: {
  scope: ActivityScope;
  /** The organizations an 'organization' feed covers (default: the user's own). */
  organizationIds?: readonly string[];
  /** Show the filter bar (the full pages; the dashboard tabs list everything). */
  filters?: boolean;
}) {
  const me = useMe();
  const { status } = useSync();
  const [filters, setFilters] = useState<ActivityFilters>(NO_FILTERS);
  const orgIds = scope === 'organization' ? (organizationIds ?? [me.organization.id]) : [];
  const params = new URLSearchParams({ limit: String(PER_PAGE), orderDirection: 'desc' });
  if (scope === 'mine') params.set('creatorUserId', me.user.id);
  if (scope === 'collaborator') params.set('collaborator', 'true');
  for (const id of orgIds) params.append('organizationId', id);
  filterParams(filters, params);
  const q = useInfiniteQuery({
    queryKey: ['activities', scope, me.user.id, params.toString()],
    queryFn: ({ pageParam }) =>
      api<ListResult<Activity>>('GET', `/activities?${params.toString()}&page=${pageParam}`),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page * last.limit < last.count ? last.page + 1 : undefined),
    refetchInterval: 30_000,
    staleTime: 10_000,
  });
  const rows = useMemo(() => q.data?.pages.flatMap((p) => p.result) ?? [], [q.data]);
  const named = useMemo(() => namedIds(rows), [rows]);
  const found = useObserved((db) => readFeedRows(db, named.wanted), [named.key]);
  const lookup = useMemo<FeedLookup>(
    () => ({ meId: me.user.id, row: (kind: SyncKind, id: string) => found?.get(`${kind}:${id}`) }),
    [found, me.user.id],
  );
  const days = useMemo(() => {
    const out: Array<{ day: string; groups: Activity[][] }> = [];
    for (const group of groupActivities(rows)) {
      const day = dayOf(group[0].date);
      if (out[out.length - 1]?.day !== day) out.push({ day, groups: [] });
      out[out.length - 1].groups.push(group);
    }
    return out;
  }, [rows]);
  const count = q.data?.pages[0]?.count ?? 0;
  // An organization feed over several organizations says whose each action was.
  const orgOf = (a: Activity) =>
    orgIds.length > 1 && a.organizationId
      ? nameOfRow('organizations', lookup.row('organizations', a.organizationId))
      : undefined;

  return (
    <Stack gap="md">
      {withFilters && (
        <ActivityFilterBar
          value={filters}
          onChange={setFilters}
          people={scope === 'mine' ? undefined : orgIds}
        />
      )}
      <Card withBorder radius="md" padding="md" data-testid={`activity-${scope}`}>
        {!status.online && q.data && (
          <Text size="xs" c="orange" mb="xs">
            {OfflineFeedText}
          </Text>
        )}
        {q.isPending && q.fetchStatus !== 'idle' && (
          <Center py="md">
            <Loader size="sm" />
          </Center>
        )}
        {q.isError && !q.data && (
          <Text c="red" size="sm">
            {extractMessage(q.error)}
          </Text>
        )}
        {q.data && rows.length === 0 && (
          <Text c="dimmed" ta="center" py="md">
            {Misc.resultsNotFound}
          </Text>
        )}
        <Stack gap="sm" role="list" aria-label="Activity">
          {days.map(({ day, groups }) => (
            <Stack key={day} gap={10}>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase">
                {day}
              </Text>
              {groups.map((group) => (
                <FeedRow key={group[0].id} group={group} lookup={lookup} organization={orgOf(group[0])} />
              ))}
            </Stack>
          ))}
        </Stack>
        {q.data && rows.length > 0 && (
          <Group justify="space-between" mt="md">
            <Text size="xs" c="dimmed">
              {rows.length} of {count}
            </Text>
            {q.hasNextPage && (
              <Button
                variant="light"
                size="xs"
                loading={q.isFetchingNextPage}
                onClick={() => void q.fetchNextPage()}
              >
                Load more
              </Button>
            )}
          </Group>
        )}
      </Card>
    </Stack>
  );
}

function FeedRow({
  group,
  lookup,
  organization,
}: {
  group: Activity[];
  lookup: FeedLookup;
  organization?: string;
}) {
  const who = actorName(group[0], lookup);
  // The avatar shows the person's own initials, also on one's own rows ('You').
  const id = group[0].creatorUserId;
  const person = (id && nameOfRow('users', lookup.row('users', id))) || who;
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start" role="listitem" data-testid="activity-row">
      <Avatar size="sm" radius="xl" color="tessera">
        {initials(person)}
      </Avatar>
      <Text size="sm" style={{ flex: 1, minWidth: 0 }}>
        <b>{who}</b>{' '}
        {describeGroup(group, lookup).map((p, i) =>
          typeof p === 'string' ? (
            p
          ) : p.href ? (
            <Anchor key={i} component={Link} to={p.href} size="sm">
              {p.text}
            </Anchor>
          ) : (
            <b key={i}>{p.text}</b>
          ),
        )}
      </Text>
      <Text size="xs" c="dimmed" ta="right" style={{ whiteSpace: 'nowrap' }}>
        {timeOfDay(group[0].date)}
        {organization && (
          <>
            <br />
            {organization}
          </>
        )}
      </Text>
    </Group>
  );
}
