// The sync status control of the top bar: online or offline, how many changes wait to be sent, the
// changes the server refused (each named by its value and its study or slide, with the server's
// message, Retry and Discard), when the data was last synced, and whether the device is ready to
// work offline.
import { Badge, Box, Button, Group, Popover, Stack, Text, UnstyledButton } from '@mantine/core';
import type { OutboxEntry } from '../../local/db';
import { STORAGE_FULL } from '../../local/quota';
import { useOfflineReadiness } from '../lib/service-worker';
import { useSync } from './context';
import { describeFailure } from '../../local/describe';
import { useEntryLines, useLastSynced, useMutations, useOutbox } from './hooks';
import { SyncText } from './texts';

const NONE: readonly OutboxEntry[] = [];

function Dot({ color }: { color: string }) {
  return <Box w={10} h={10} style={{ borderRadius: '50%', background: `var(--mantine-color-${color}-6)` }} />;
}

export function SyncStatus() {
  const { status, engine } = useSync();
  const outbox = useOutbox();
  const last = useLastSynced();
  const mutations = useMutations();
  const readiness = useOfflineReadiness();
  const online = status.online && (typeof navigator === 'undefined' || navigator.onLine);
  const pending = outbox?.pending ?? 0;
  const failed = outbox?.failed ?? NONE;
  const lines = useEntryLines(failed);
  const color = !online ? 'gray' : failed.length ? 'red' : pending ? 'yellow' : 'green';
  return (
    <Popover position="bottom-end" width={360} withinPortal shadow="md" trapFocus returnFocus>
      <Popover.Target>
        <UnstyledButton aria-label="Sync status" px={6} py={4}>
          <Group gap={6} wrap="nowrap">
            <Dot color={color} />
            <Text size="sm" visibleFrom="sm">
              {online ? SyncText.online : SyncText.offline}
            </Text>
            {pending > 0 && (
              <Badge size="sm" color="yellow" variant="filled" aria-label={`${pending} pending`}>
                {pending}
              </Badge>
            )}
            {failed.length > 0 && (
              <Badge size="sm" color="red" variant="filled" aria-label={`${failed.length} failed`}>
                {failed.length}
              </Badge>
            )}
          </Group>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <Group gap={8}>
            <Dot color={color} />
            <Text fw={600}>{online ? SyncText.online : SyncText.offline}</Text>
          </Group>
          <Text size="sm" data-testid="sync-pending">
            {/* 'All on the server' only when nothing was refused either. */}
            {pending
              ? SyncText.waiting(pending)
              : failed.length
                ? SyncText.notSaved(failed.length)
                : SyncText.allSent}
          </Text>
          {!online && pending > 0 && (
            <Text size="xs" c="dimmed">
              {SyncText.offlineHint}
            </Text>
          )}
          {status.signInNeeded && (
            <Text size="sm" c="red">
              {SyncText.signInNeeded}
            </Text>
          )}
          {status.storageFull && (
            <Text size="sm" c="red">
              {STORAGE_FULL}
            </Text>
          )}
          <Text size="xs" c="dimmed" data-testid="sync-last">
            {last ? SyncText.lastSynced(new Date(last).toLocaleString()) : SyncText.neverSynced}
          </Text>
          {readiness !== 'unsupported' && (
            <Text size="xs" c="dimmed" data-testid="offline-readiness">
              {readiness === 'ready' ? SyncText.offlineReady : SyncText.offlinePreparing}
            </Text>
          )}
          {failed.length > 0 && (
            <Stack gap={6} mah={260} style={{ overflowY: 'auto' }}>
              <Text size="sm" fw={600} c="red">
                {SyncText.failedTitle}
              </Text>
              {failed.map((entry) => (
                <Box
                  key={entry.id}
                  p={6}
                  style={{ border: '1px solid var(--mantine-color-red-3)', borderRadius: 4 }}
                  data-testid="sync-failed"
                >
                  {/* Which value of which study or slide, then the server's message (src/local/describe.ts);
                      until the names are read, the entry's own words. */}
                  <Text size="sm">{lines?.get(entry.id) ?? describeFailure(entry, () => undefined)}</Text>
                  <Group gap={6} mt={4}>
                    <Button size="compact-xs" variant="light" onClick={() => void mutations.retry(entry.id)}>
                      {SyncText.retry}
                    </Button>
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      color="red"
                      onClick={() => void mutations.discard(entry.id)}
                    >
                      {SyncText.discard}
                    </Button>
                  </Group>
                </Box>
              ))}
            </Stack>
          )}
          <Button
            size="xs"
            variant="light"
            disabled={!online || !engine}
            onClick={() => {
              void engine?.kick();
              // Fresh: a pull already running may have started before what the user wants to see.
              void engine?.pull(undefined, true);
            }}
          >
            {SyncText.syncNow}
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
