// /all-recent-uploads (§2.2): the user's uploads with their §4.3 statuses, from the local
// store first (also offline), live numbers from the upload worker, and — when online — uploads this
// browser does not know (made on another device) from /v2/upload-groups.
import { useEffect, useMemo, useState } from 'react';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Misc } from '../../api/messages';
import { statusFromGroup, type UploadGroup } from '../../api/uploads';
import { watchRecords, type UploadRecord } from '../../local/uploads';
import type { UploadView } from '../../workers/uploads';
import { useMe } from '../session/session-context';
import { uploadGroupsQuery } from './queries';
import { UploadRow } from './UploadRow';
import { setUploaderDialog, useUploadViews } from './uploads-store';

/** A server group this browser has no record of, shown read-only. */
function fromServer(g: UploadGroup, userId: string): UploadView {
  const mapped = statusFromGroup(g);
  const size = g.parts.reduce((n, p) => n + p.size, 0);
  return {
    id: g.id,
    userId,
    name: g.name || g.parts[0]?.relativePath || 'Upload',
    size,
    transferred: g.status === 'uploading' ? 0 : size,
    progress: g.status === 'uploading' ? 0 : 1,
    status: mapped?.status ?? 'waiting_for_upload',
    error: mapped?.error ?? null,
    scanGroupId: g.image?.scanGroupId ?? null,
    imageId: g.image?.id ?? null,
    labelUrl: null,
    parts: g.parts.map((p) => ({
      relativePath: p.relativePath,
      name: p.relativePath.split('/').pop() ?? p.relativePath,
      size: p.size,
      lastModified: 0,
      fingerprint: '',
      offset: p.status === 'complete' ? p.size : 0,
      done: p.status === 'complete',
      kept: 'none',
    })),
    createdAt: g.createdAt,
    updatedAt: g.updatedAt,
    sentBytes: 0,
    sending: false,
  };
}

export function RecentUploadsPage() {
  const me = useMe();
  const userId = me.user.id;
  const live = useUploadViews();
  const [stored, setStored] = useState<UploadRecord[]>();
  useEffect(() => watchRecords(userId, setStored), [userId]);
  const server = useQuery(uploadGroupsQuery(userId));

  const rows = useMemo(() => {
    const byId = new Map<string, UploadView>();
    for (const r of stored ?? []) byId.set(r.id, { ...r, sentBytes: 0, sending: false });
    for (const v of live) byId.set(v.id, v);
    for (const g of server.data?.result ?? []) if (!byId.has(g.id)) byId.set(g.id, fromServer(g, userId));
    return [...byId.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }, [stored, live, server.data, userId]);

  return (
    <Stack gap="md" maw={900}>
      <Group justify="space-between">
        <Title order={2}>All Recent Uploads</Title>
        <Button onClick={() => setUploaderDialog('open')}>Upload Images</Button>
      </Group>
      {stored === undefined ? (
        <Text c="dimmed">Loading...</Text>
      ) : rows.length === 0 ? (
        <Text c="dimmed">{Misc.resultsNotFound}</Text>
      ) : (
        rows.map((v) => <UploadRow key={v.id} view={v} />)
      )}
    </Stack>
  );
}
