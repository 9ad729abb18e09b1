// One upload in the uploader's list (§2.6, §4.3): name, the status text of the table, a progress bar
// while bytes move, and the row's actions — Cancel, Open Image, the two label repairs, and choosing
// the file again when the browser kept no copy; in the uploader, Clear for a row that has ended.
import { useRef, useState } from 'react';
import { Button, Group, Paper, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { ACCEPT_ATTRIBUTE } from '../../api/slide-formats';
import { UploadOwnText, displayUploadStatus, formatBytes, isClearable } from '../../api/uploads';
import type { UploadView } from '../../workers/uploads';
import { AppLink } from '../lib/AppLink';
import { truncateName } from '../lib/format';
import { CancelUploadDialog } from './CancelUploadDialog';
import { currentClient, setUploaderDialog } from './uploads-store';

const TONE = { neutral: 'dimmed', progress: 'blue', success: 'green', error: 'red' } as const;

export function UploadRow({
  view,
  selected,
  onSelect,
  clearable = false,
}: {
  view: UploadView;
  selected?: boolean;
  onSelect?: () => void;
  /** Offer Clear once the row has ended (the uploader's list; /all-recent-uploads keeps its history). */
  clearable?: boolean;
}) {
  const d = displayUploadStatus(view);
  const navigate = useNavigate();
  const [confirm, setConfirm] = useState(false);
  const [repickError, setRepickError] = useState<string>();
  const picker = useRef<HTMLInputElement>(null);
  const openModal = (key: 'fixUpload' | 'fixCreateUpload') => {
    const url = new URL(window.location.href);
    url.searchParams.set(key, view.id);
    void navigate({ href: `${url.pathname}${url.search}` });
  };
  const repick = async (files: FileList | null) => {
    if (!files?.length) return;
    setRepickError(await currentClient()?.provideFiles(view.id, [...files]));
  };

  return (
    <Paper
      withBorder
      p="sm"
      radius="sm"
      data-testid="upload-row"
      // Read by the end-to-end tests: the record's id, status and the bytes really sent (resends included).
      data-upload-id={view.id}
      data-status={view.status}
      data-progress={view.progress}
      data-sent={view.sentBytes}
      aria-label={`Upload ${view.name}`}
      bg={selected ? 'gray.0' : undefined}
      onClick={onSelect}
      style={{ cursor: onSelect ? 'pointer' : undefined }}
    >
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} size="sm" title={view.name}>
            {truncateName(view.name)}
          </Text>
          <Text size="xs" c="dimmed">
            {view.parts.length > 1 ? `${view.parts.length} files · ` : ''}
            {formatBytes(view.size)}
          </Text>
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Tooltip label={d.hover} disabled={!d.hover}>
            <Text size="sm" c={TONE[d.tone]} data-testid="upload-status">
              {d.text}
            </Text>
          </Tooltip>
          {d.detail && (
            <Text size="sm" c={d.tone === 'error' ? 'red' : 'dimmed'} data-testid="upload-detail">
              {d.detail}
            </Text>
          )}
        </Group>
        {d.percent !== undefined && (
          // No width animation: the bar moves several times a second, and each move animated for
          // 100 ms kept the page drawing frames for the whole upload (bench/README.md, uploads).
          <Progress value={d.percent} size="sm" transitionDuration={0} aria-label={`${view.name} progress`} />
        )}
        {view.needsFile && (
          <Group gap="xs">
            <Button size="xs" variant="light" onClick={() => picker.current?.click()}>
              Choose the file again
            </Button>
            <input
              ref={picker}
              type="file"
              hidden
              multiple
              accept={view.parts.length > 1 ? undefined : ACCEPT_ATTRIBUTE}
              data-testid="repick-input"
              onChange={(e) => void repick(e.currentTarget.files)}
            />
            {repickError && (
              <Text size="xs" c="red">
                {repickError}
              </Text>
            )}
          </Group>
        )}
        <Group gap="xs" onClick={(e) => e.stopPropagation()}>
          {d.actions.includes('cancel') && (
            <Button size="xs" variant="subtle" color="red" onClick={() => setConfirm(true)}>
              Cancel upload
            </Button>
          )}
          {d.actions.includes('openImage') && view.scanGroupId && (
            // Opening the viewer folds the uploader away, so the slide is seen at once.
            <span onClickCapture={() => setUploaderDialog('collapsed')}>
              <AppLink href={`/sgviewer/${view.scanGroupId}`}>Open Image</AppLink>
            </span>
          )}
          {d.actions.includes('fixLabel') && (
            <>
              <Button size="xs" variant="light" onClick={() => openModal('fixUpload')}>
                Enter Slide Label ID
              </Button>
              <Button size="xs" variant="light" onClick={() => openModal('fixCreateUpload')}>
                Create Slide Label ID
              </Button>
            </>
          )}
          {clearable && isClearable(view) && (
            <Button
              size="xs"
              variant="subtle"
              color="gray"
              ml="auto"
              aria-label={`Clear ${view.name}`}
              onClick={() => void currentClient()?.clear([view.id])}
            >
              {UploadOwnText.clearRow}
            </Button>
          )}
        </Group>
      </Stack>
      <CancelUploadDialog
        opened={confirm}
        onContinue={() => setConfirm(false)}
        onCancelUpload={() => {
          setConfirm(false);
          void currentClient()?.cancel(view.id);
        }}
      />
    </Paper>
  );
}
