// The activity feed (§3 Activity; /activity, /administrator/activity, /account-settings/user-activity):
// who did what to which kind of thing and when, newest first, 25 per page with Load more, filtered
// by kind, action, date range (§2.7 options) and person. Activities are not mirrored (they are a log
// the server writes), so the feed asks the server and keeps the last answer in the query cache.
import { useState } from 'react';
import { Alert, Button, Card, Group, ScrollArea, Select, Stack, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { Activity } from '../../api/entities';
import type { ListResult } from '../../api/lists';
import { Misc, Session, extractMessage } from '../../api/messages';
import { DATE_RANGES, DATE_RANGE_LABELS, dateRangeStart, type DateRange } from '../filters/filter-state';
import { api } from '../lib/api';
import { formatDate } from '../lib/format';
import { useOrganizations, useUsers } from '../admin/admin-data';
import { PICKER_MAX_HEIGHT, USER_DROPDOWN_MAX_HEIGHT } from '../admin/constants';

const PER_PAGE = 25;

const KINDS: Array<[string, string]> = [
  ['Study', 'Studies'],
  ['ScanGroup', 'Slides'],
  ['Image', 'Images'],
  ['ScanOrder', 'Scan orders'],
  ['Review', 'Reviews'],
  ['Organization', 'Organizations'],
  ['User', 'Users'],
  ['Organ', 'Organs'],
  ['Pipeline', 'Pipelines'],
  ['Predictor', 'Predictors'],
];
const ACTIONS = ['create', 'update', 'delete', 'share', 'upload', 'archive', 'reactivate'];

/** A short reading of what changed: the changed field names, or the name the row carried. */
function describe(a: Activity): string {
  const diff = a.diff ?? {};
  const name = typeof diff.name === 'string' ? diff.name : typeof diff.email === 'string' ? diff.email : '';
  const fields = Object.keys(diff).filter((k) => k !== 'name' || a.actionType !== 'create');
  if (a.actionType === 'create' || a.actionType === 'delete') return name || '—';
  return fields.length
    ? fields.slice(0, 4).join(', ') + (fields.length > 4 ? ` +${fields.length - 4}` : '')
    : '—';
}

export function ActivityFeed({
  organizationIds,
  creatorUserId,
  showPerson = true,
}: {
  /** Limit to these organizations (an administrator's organization and its teams). */
  organizationIds?: readonly string[];
  /** Only what this user did (their own activity). */
  creatorUserId?: string;
  showPerson?: boolean;
}) {
  const [kind, setKind] = useState<string | null>(null);
  const [action, setAction] = useState<string | null>(null);
  const [range, setRange] = useState<DateRange | null>(null);
  const [person, setPerson] = useState<string | null>(null);
  const users = useUsers(organizationIds ? [...organizationIds] : undefined);
  const orgs = useOrganizations();
  const params = new URLSearchParams({ limit: String(PER_PAGE) });
  for (const id of organizationIds ?? []) params.append('organizationId', id);
  const who = creatorUserId ?? person;
  if (who) params.set('creatorUserId', who);
  if (kind) params.set('reference', kind);
  if (action) params.set('actionType', action);
  const start = dateRangeStart(range);
  if (start !== undefined) params.set('dateStart', new Date(start).toISOString());
  const query = useInfiniteQuery({
    queryKey: ['activities', params.toString()],
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      api<ListResult<Activity>>('GET', `/activities?${params.toString()}&page=${pageParam}`),
    getNextPageParam: (last) => (last.page * last.limit < last.count ? last.page + 1 : undefined),
    refetchInterval: 30_000,
  });
  const rows = query.data?.pages.flatMap((p) => p.result) ?? [];
  const count = query.data?.pages[0]?.count ?? 0;
  const userName = (id: string | null) =>
    id ? (users?.find((u) => u.id === id)?.name ?? Misc.unavailableUser) : '—';
  const orgName = (id: string | null) => (id ? (orgs?.find((o) => o.id === id)?.name ?? '—') : '—');

  return (
    <Stack gap="md">
      <Group gap="sm" wrap="wrap" align="flex-end">
        <Select
          label="What"
          placeholder="Everything"
          data={KINDS.map(([value, label]) => ({ value, label }))}
          value={kind}
          onChange={setKind}
          clearable
          w={180}
          maxDropdownHeight={PICKER_MAX_HEIGHT}
        />
        <Select
          label="Action"
          placeholder="Any action"
          data={ACTIONS}
          value={action}
          onChange={setAction}
          clearable
          w={160}
        />
        <Select
          label="Date"
          placeholder="Any time"
          data={DATE_RANGES.map((r) => ({ value: r, label: DATE_RANGE_LABELS[r] }))}
          value={range}
          onChange={(v) => setRange(v as DateRange | null)}
          clearable
          w={160}
        />
        {showPerson && !creatorUserId && (
          <Select
            label="Person"
            placeholder="Anyone"
            data={(users ?? []).map((u) => ({ value: u.id, label: u.name }))}
            value={person}
            onChange={setPerson}
            clearable
            searchable
            nothingFoundMessage={Misc.noOptions}
            maxDropdownHeight={USER_DROPDOWN_MAX_HEIGHT}
            w={220}
          />
        )}
      </Group>
      {query.isError ? (
        <Alert color="red" variant="light">
          {extractMessage(query.error)}
        </Alert>
      ) : query.isPending ? (
        <Text c="dimmed" size="sm">
          {Session.loading}
        </Text>
      ) : rows.length === 0 ? (
        <Card withBorder>
          <Text c="dimmed" ta="center">
            {Misc.resultsNotFound}
          </Text>
        </Card>
      ) : (
        <Card withBorder p={0}>
          <ScrollArea>
            <Table striped miw={640} aria-label="Activity">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Date</Table.Th>
                  {showPerson && <Table.Th>Who</Table.Th>}
                  <Table.Th>Action</Table.Th>
                  <Table.Th>What</Table.Th>
                  <Table.Th>Details</Table.Th>
                  <Table.Th>Organization</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((a) => (
                  <Table.Tr key={a.id}>
                    <Table.Td>
                      <Text size="sm" title={new Date(a.date).toLocaleString()}>
                        {formatDate(a.date)}
                      </Text>
                    </Table.Td>
                    {showPerson && <Table.Td>{userName(a.creatorUserId)}</Table.Td>}
                    <Table.Td>{a.actionType}</Table.Td>
                    <Table.Td>{KINDS.find(([k]) => k === a.reference)?.[1] ?? a.reference}</Table.Td>
                    <Table.Td>
                      <Text size="sm" lineClamp={1} maw={280}>
                        {describe(a)}
                      </Text>
                    </Table.Td>
                    <Table.Td>{orgName(a.organizationId)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
          <Group justify="space-between" p="xs">
            <Text size="xs" c="dimmed">
              {rows.length} of {count}
            </Text>
            {query.hasNextPage && (
              <Button
                size="xs"
                variant="subtle"
                loading={query.isFetchingNextPage}
                onClick={() => void query.fetchNextPage()}
              >
                Load more
              </Button>
            )}
          </Group>
        </Card>
      )}
    </Stack>
  );
}
