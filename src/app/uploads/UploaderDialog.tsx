// The uploader of spec §2.6: a full-screen dialog that collapses to a small panel, with the drop zone
// and pickers, the estimate line with the slow-speed warning (§9), the current uploads and a preview
// panel of the chosen one.
import { useEffect, useState } from 'react';
import {
  ActionIcon,
  Affix,
  Button,
  Grid,
  Group,
  Image,
  Modal,
  Paper,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { UploadText } from '../../api/messages';
import {
  UploadOwnText,
  displayUploadStatus,
  formatBytes,
  isSending,
  formatSpeed,
  formatTimeLeft,
  isClearable,
  isInFlight,
  isSlowSpeed,
  needsLabel,
} from '../../api/uploads';
import type { UploadView } from '../../workers/uploads';
import { api } from '../lib/api';
import { useMe } from '../session/session-context';
import { DropZone } from './DropZone';
import { UploadRow } from './UploadRow';
import {
  currentClient,
  setUploaderDialog,
  uploadsClient,
  useUploadViews,
  useUploaderDialog,
} from './uploads-store';

/** Time left and speed over everything being sent, and the warning when the line is slow. */
export function EstimateLine({ views }: { views: UploadView[] }) {
  const sending = views.filter((v) => isSendingNow(v));
  if (sending.length === 0) return null;
  const remaining = sending.reduce((n, v) => n + (v.size - v.transferred), 0);
  const known = sending.filter((v) => v.speed !== undefined);
  const speed = known.length ? known.reduce((n, v) => n + (v.speed ?? 0), 0) : undefined;
  return (
    <Stack gap={2} data-testid="upload-estimate">
      <Text size="sm">
        {formatTimeLeft(remaining, speed)}
        {speed !== undefined && ` · ${formatSpeed(speed)}`}
      </Text>
      {isSlowSpeed(speed) && (
        <Text size="sm" c="orange.8" role="alert">
          {UploadText.slowSpeed}
        </Text>
      )}
    </Stack>
  );
}

const isSendingNow = (v: UploadView) => isSending(v.status) && !v.needsFile;

function Preview({ view }: { view: UploadView | undefined }) {
  const [label, setLabel] = useState<string>();
  useEffect(() => {
    setLabel(undefined);
    if (!view?.imageId || view.status === 'waiting_for_processing') return;
    let live = true;
    api<{ url: string }>('GET', `/images/${view.imageId}/labels/download-url`)
      .then((r) => live && setLabel(r.url))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [view?.imageId, view?.status]);
  if (!view)
    return (
      <Text size="sm" c="dimmed">
        Choose an upload to see it here.
      </Text>
    );
  const d = displayUploadStatus(view);
  return (
    <Stack gap="xs" data-testid="upload-preview">
      <Title order={5} style={{ wordBreak: 'break-all' }}>
        {view.name}
      </Title>
      <Text size="sm">
        {d.text}
        {d.detail ? ` — ${d.detail}` : ''}
      </Text>
      <Text size="sm" c="dimmed">
        {formatBytes(view.transferred)} of {formatBytes(view.size)}
      </Text>
      {view.parts.length > 1 && (
        <Stack gap={0}>
          {view.parts.map((p) => (
            <Text key={p.relativePath} size="xs" c="dimmed">
              {p.relativePath} · {formatBytes(p.size)}
            </Text>
          ))}
        </Stack>
      )}
      {label && (
        <Image src={label} alt="Slide label" radius="sm" maw={320} onError={() => setLabel(undefined)} />
      )}
    </Stack>
  );
}

export function UploaderDialog() {
  const me = useMe();
  const dialog = useUploaderDialog();
  const views = useUploadViews();
  const [selected, setSelected] = useState<string>();
  const add = (files: Parameters<ReturnType<typeof uploadsClient>['add']>[0]) => {
    if (!files.length) return;
    // Nothing a user picked may vanish silently: a failure to record the files is said.
    uploadsClient(me.user.id)
      .add(files)
      .catch(() =>
        notifications.show({
          color: 'red',
          title: UploadText.invalidFile,
          message: UploadOwnText.notStarted,
        }),
      );
  };
  // The bar counts what is still under way: finished and failed rows are in the list, not in the count.
  const inFlight = views.filter((v) => isInFlight(v.status)).length;
  const labelsWanted = views.filter((v) => needsLabel(v.status)).length;
  // Rows waiting for a label stay: clearing them in bulk would lose the way to link their image.
  const finished = views.filter((v) => isClearable(v) && !needsLabel(v.status)).map((v) => v.id);

  if (dialog === 'collapsed')
    return (
      <Affix position={{ bottom: 16, right: 16 }} zIndex={300}>
        <Paper withBorder shadow="md" p="sm" radius="md" w={320} data-testid="uploader-collapsed">
          <Group justify="space-between" wrap="nowrap">
            <Stack gap={0}>
              <Text size="sm" fw={600} data-testid="uploads-in-flight">
                {UploadOwnText.inFlight(inFlight)}
              </Text>
              {labelsWanted > 0 && (
                <Text size="xs" c="red">
                  {UploadOwnText.needLabel(labelsWanted)}
                </Text>
              )}
            </Stack>
            <Group gap={4} wrap="nowrap">
              <Button size="xs" variant="light" onClick={() => setUploaderDialog('open')}>
                Expand
              </Button>
              <Tooltip label="Close">
                <ActionIcon
                  variant="subtle"
                  aria-label="Close uploader"
                  onClick={() => setUploaderDialog('closed')}
                >
                  ×
                </ActionIcon>
              </Tooltip>
            </Group>
          </Group>
          <EstimateLine views={views} />
        </Paper>
      </Affix>
    );

  return (
    <Modal
      opened={dialog === 'open'}
      onClose={() => setUploaderDialog('closed')}
      fullScreen
      title={<Title order={3}>Upload Images</Title>}
      zIndex={300}
    >
      <Group justify="flex-end" mt={-8} mb="xs">
        <Button size="xs" variant="subtle" onClick={() => setUploaderDialog('collapsed')}>
          Collapse
        </Button>
      </Group>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="md">
            <DropZone onFiles={add} />
            <EstimateLine views={views} />
            <Group justify="space-between">
              <Title order={5}>Current Uploads</Title>
              {finished.length > 0 && (
                <Button size="xs" variant="subtle" onClick={() => void currentClient()?.clear(finished)}>
                  {UploadOwnText.clearFinished}
                </Button>
              )}
            </Group>
            {views.length === 0 ? (
              <Text size="sm" c="dimmed">
                No uploads yet.
              </Text>
            ) : (
              views.map((v) => (
                <UploadRow
                  key={v.id}
                  view={v}
                  selected={v.id === selected}
                  onSelect={() => setSelected(v.id)}
                  clearable
                />
              ))
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Paper withBorder p="md" radius="md">
            <Preview view={views.find((v) => v.id === selected) ?? views[0]} />
          </Paper>
        </Grid.Col>
      </Grid>
    </Modal>
  );
}
