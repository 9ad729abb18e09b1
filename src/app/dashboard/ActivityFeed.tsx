// An activity feed of the dashboard (§2.2, GET /v2/activities): one's own (recent activity), the
// organization's, or collaborators' (others' actions on rows one can read). Each line names who did
// what to which thing, with names from the local mirror and a link to the thing where there is a page
// for it. 25 per page with 'Load more'. The feed is not mirrored: offline, the last answer (kept by
// the persisted query cache) shows with a note.
import { useMemo } from 'react';
import { Anchor, Avatar, Button, Card, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Activity, ScanGroup, Study } from '../../api/entities';
import type { ListResult } from '../../api/lists';
import { Misc, extractMessage } from '../../api/messages';
import type { User } from '../../api/users';
import { readRows, readRowsWhere } from '../../local/read';
import { api } from '../lib/api';
import { formatDate, initials } from '../lib/format';
import { useMe } from '../session/session-context';
import { useSync } from '../sync/context';
import { useObserved } from '../sync/hooks';

export type FeedKind = 'mine' | 'organization' | 'collaborator';
const PER_PAGE = 25;

const VERBS: Record<string, string> = {
  create: 'created',
  update: 'updated',
  delete: 'deleted',
  share: 'shared',
  archive: 'archived',
  reactivate: 'reactivated',
  upload: 'uploaded',
  review: 'reviewed',
  assignee: 'changed the assignees of',
};
const THINGS: Record<string, string> = {
  Study: 'study',
  ScanGroup: 'slide',
  Image: 'image',
  ScanOrder: 'order',
  ScanOrderList: 'order list',
  Review: 'review',
  Annotation: 'annotation',
  Organization: 'organization',
  User: 'user',
  Organ: 'organ',
  Pipeline: 'pipeline',
  Predictor: 'assay',
  AlignmentRigid: 'alignment',
  UserViewerSettings: 'viewer settings',
};

export const OfflineFeedText = 'You are offline: this is the activity last loaded.';

function feedPath(kind: FeedKind, me: ReturnType<typeof useMe>, page: number): string {
  const base = `/activities?limit=${PER_PAGE}&page=${page}&orderDirection=desc`;
  if (kind === 'mine') return `${base}&creatorUserId=${me.user.id}`;
  if (kind === 'organization') return `${base}&organizationId=${me.organization.id}`;
  return `${base}&collaborator=true`;
}

interface Names {
  users: Map<string, User>;
  studies: Map<string, Study>;
  slides: Map<string, ScanGroup>;
}

/** "{verb} the {thing} {name}" for one activity; a heart reads "added a heart to the slide X". */
function describe(a: Activity, names: Names): { verb: string; thing: string; name?: string; href?: string } {
  if (a.reference === 'Reaction') {
    const slideId = typeof a.diff.referenceId === 'string' ? a.diff.referenceId : '';
    const s = names.slides.get(slideId);
    return {
      verb: a.actionType === 'delete' ? 'removed a heart from' : 'added a heart to',
      thing: 'slide',
      name: s?.simpleId,
      href: s ? `/sgviewer/${slideId}` : undefined,
    };
  }
  return { verb: VERBS[a.actionType] ?? a.actionType, ...describeThing(a, names) };
}

function describeThing(a: Activity, names: Names): { thing: string; name?: string; href?: string } {
  const thing = THINGS[a.reference] ?? a.reference;
  const id = a.referenceId ?? '';
  const diffName = typeof a.diff.name === 'string' ? a.diff.name : undefined;
  if (a.reference === 'Study') {
    const s = names.studies.get(id);
    return {
      thing,
      name: s?.name ?? diffName,
      href: s && a.actionType !== 'delete' ? `/studies/${id}` : undefined,
    };
  }
  if (a.reference === 'ScanGroup') {
    const s = names.slides.get(id);
    return { thing, name: s?.simpleId, href: s ? `/sgviewer/${id}` : undefined };
  }
  if (a.reference === 'Image') return { thing, name: diffName, href: id ? `/image/${id}` : undefined };
  return { thing, name: diffName };
}

/** The ids of the studies and slides these activities name (a heart names its slide). */
function referenced(rows: readonly Activity[]): { studies: string[]; slides: string[]; key: string } {
  const studies = new Set<string>();
  const slides = new Set<string>();
  for (const a of rows) {
    if (a.reference === 'Study' && a.referenceId) studies.add(a.referenceId);
    if (a.reference === 'ScanGroup' && a.referenceId) slides.add(a.referenceId);
    if (a.reference === 'Reaction' && typeof a.diff.referenceId === 'string') slides.add(a.diff.referenceId);
  }
  const out = { studies: [...studies], slides: [...slides] };
  return { ...out, key: JSON.stringify(out) };
}

export function ActivityFeed({ kind }: { kind: FeedKind }) {
  const me = useMe();
  const { status } = useSync();
  const q = useInfiniteQuery({
    queryKey: ['activities', kind, me.user.id],
    queryFn: ({ pageParam }) => api<ListResult<Activity>>('GET', feedPath(kind, me, pageParam)),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page * last.limit < last.count ? last.page + 1 : undefined),
    refetchInterval: 30_000,
    staleTime: 10_000,
  });
  const rows = useMemo(() => q.data?.pages.flatMap((p) => p.result) ?? [], [q.data]);
  // Only the studies and slides the shown lines name, looked up by id: reading every mirrored slide
  // (10,000) held the page up, during the first sync after every stored page.
  const named = useMemo(() => referenced(rows), [rows]);
  const users = useObserved((db) => readRows<User>(db, 'users'), []);
  const studies = useObserved((db) => readRowsWhere<Study>(db, 'studies', 'id', named.studies), [named.key]);
  const slides = useObserved(
    (db) => readRowsWhere<ScanGroup>(db, 'scan-groups', 'id', named.slides),
    [named.key],
  );
  const names = useMemo<Names>(
    () => ({
      users: new Map((users ?? []).map((u) => [u.id, u])),
      studies: new Map((studies ?? []).map((s) => [s.id, s])),
      slides: new Map((slides ?? []).map((s) => [s.id, s])),
    }),
    [users, studies, slides],
  );
  return (
    <Card withBorder radius="md" padding="md" data-testid={`activity-${kind}`}>
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
      <Stack gap={10}>
        {rows.map((a) => {
          const who = a.creatorUserId ? names.users.get(a.creatorUserId) : undefined;
          const whoName =
            a.creatorUserId === me.user.id ? 'You' : who ? who.name || who.email : Misc.unavailableUser;
          const { verb, thing, name, href } = describe(a, names);
          return (
            <Group key={a.id} gap="sm" wrap="nowrap" align="flex-start" data-testid="activity-row">
              <Avatar size="sm" radius="xl" color="tessera">
                {initials(whoName)}
              </Avatar>
              <div style={{ minWidth: 0 }}>
                <Text size="sm">
                  <b>{whoName}</b> {verb} the {thing}{' '}
                  {name &&
                    (href ? (
                      <Anchor component={Link} to={href} size="sm">
                        {name}
                      </Anchor>
                    ) : (
                      <b>{name}</b>
                    ))}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatDate(a.date)}{' '}
                  {new Date(a.date).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
                </Text>
              </div>
            </Group>
          );
        })}
      </Stack>
      {q.hasNextPage && (
        <Center mt="md">
          <Button
            variant="light"
            size="xs"
            loading={q.isFetchingNextPage}
            onClick={() => void q.fetchNextPage()}
          >
            Load more
          </Button>
        </Center>
      )}
    </Card>
  );
}
