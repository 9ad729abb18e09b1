// An image's annotations in the viewer (§3 Annotation, §6.2, issue 9): the list with its count, adding
// one (a name and a note), and editing the content of one's own. Annotations are not a mirrored kind:
// the list comes from GET /v2/annotations?imageId= (kept in the persisted query cache, so it shows
// offline), and changes go through the outbox like every mutation, shown here as Pending until sent.
import { useEffect, useState } from 'react';
import { Badge, Button, Card, Group, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ANNOTATION_NAME_MAX } from '../../../api/annotations';
import type { Annotation } from '../../../api/entities';
import type { ListResult } from '../../../api/lists';
import { extractMessage } from '../../../api/messages';
import type { OutboxEntry } from '../../../local/db';
import { api } from '../../lib/api';
import { EditableOwnText } from '../../forms/EditableOwnText';
import { formatDate } from '../../lib/format';
import { useMe } from '../../session/session-context';
import { useMutations, useObserved } from '../../sync/hooks';

/** Our note format inside an annotation's free JSON content (docs/decisions.md). */
interface NoteContent {
  text: string;
}

export function annotationText(content: unknown): string {
  if (content && typeof content === 'object' && typeof (content as NoteContent).text === 'string')
    return (content as NoteContent).text;
  if (typeof content === 'string') return content;
  const json = JSON.stringify(content ?? null);
  return json.length > 200 ? `${json.slice(0, 200)}…` : json;
}

interface Queued {
  id: string;
  method: string;
  annotationId?: string;
  name?: string;
  content?: unknown;
  error?: string;
}

/** The outbox entries about this image's annotations (creates) or any annotation (edits). */
function queuedOf(entries: readonly OutboxEntry[], imageId: string): Queued[] {
  const out: Queued[] = [];
  for (const e of entries) {
    if (!e.path.startsWith('/annotations')) continue;
    const body = (
      e.body as { annotation?: { imageId?: string; name?: string; content?: unknown } } | undefined
    )?.annotation;
    const annotationId = e.path.split('/')[2];
    if (e.method === 'POST' && body?.imageId !== imageId) continue;
    out.push({
      id: e.id,
      method: e.method,
      annotationId,
      name: body?.name,
      content: body?.content,
      error: e.error,
    });
  }
  return out;
}

export function AnnotationsPanel({ imageId, reviewId }: { imageId: string; reviewId?: string }) {
  const me = useMe();
  const mutations = useMutations();
  const path = `/annotations?imageId=${encodeURIComponent(imageId)}&limit=100`;
  const list = useQuery({
    queryKey: ['v2', path],
    queryFn: () => api<ListResult<Annotation>>('GET', path),
    refetchInterval: 30_000,
  });
  const entries = useObserved((db) => db.outbox.orderBy('seq').toArray(), []) ?? [];
  const queued = queuedOf(entries, imageId);
  const pendingCount = queued.length;
  const { refetch } = list;
  // When queued changes have been sent, read the list again.
  useEffect(() => {
    void refetch();
  }, [pendingCount, refetch]);
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<string>();

  const rows = list.data?.result ?? [];
  const edits = new Map(queued.filter((q) => q.method === 'PATCH').map((q) => [q.annotationId, q]));
  const creates = queued.filter((q) => q.method === 'POST');
  const total = rows.length + creates.filter((c) => !c.error).length;

  const add = async () => {
    const note = text.trim();
    if (!note) return;
    await mutations.enqueue({
      method: 'POST',
      path: '/annotations',
      body: {
        annotation: {
          imageId,
          name: name.trim(),
          content: { text: note } satisfies NoteContent,
          ...(reviewId ? { reviewId } : {}),
        },
      },
    });
    setName('');
    setText('');
  };

  return (
    <Card withBorder radius="md" p="md">
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>Annotations</Text>
          <Badge variant="light" data-testid="annotation-count">
            {total}
          </Badge>
        </Group>
        {list.isError && !list.data && (
          <Text size="sm" c="red">
            {extractMessage(list.error)}
          </Text>
        )}
        {rows.map((a) => {
          const edit = edits.get(a.id);
          const shown = edit?.content !== undefined && !edit.error ? edit.content : a.content;
          return (
            <Stack key={a.id} gap={2} data-testid="annotation">
              <EditableOwnText
                header={
                  <Text size="sm" fw={500}>
                    {a.name || 'Note'}
                    <Text span size="xs" c="dimmed">
                      {' '}
                      · {formatDate(a.createdAt)}
                      {edit && !edit.error ? ' · Pending' : ''}
                    </Text>
                  </Text>
                }
                text={annotationText(shown)}
                editable={a.creatorUserId === me.user.id}
                editing={editing === a.id}
                onEditingChange={(on) => setEditing(on ? a.id : undefined)}
                label="Edit annotation"
                onSave={(note) =>
                  void mutations.enqueue({
                    method: 'PATCH',
                    path: `/annotations/${encodeURIComponent(a.id)}`,
                    body: { annotation: { content: { text: note } satisfies NoteContent } },
                  })
                }
              />
              {edit?.error && (
                <Text size="xs" c="red">
                  Not saved: {edit.error}
                </Text>
              )}
            </Stack>
          );
        })}
        {creates.map((c) => (
          <Stack key={c.id} gap={2} data-testid="annotation">
            <Text size="sm" fw={500}>
              {c.name || 'Note'}
              <Text span size="xs" c={c.error ? 'red' : 'dimmed'}>
                {' '}
                · {c.error ? `Not saved: ${c.error}` : 'Pending'}
              </Text>
            </Text>
            <Text size="sm">{annotationText(c.content)}</Text>
          </Stack>
        ))}
        {total === 0 && (
          <Text size="sm" c="dimmed">
            No annotations yet.
          </Text>
        )}
        <TextInput
          placeholder="Name (optional)"
          aria-label="Annotation name"
          maxLength={ANNOTATION_NAME_MAX}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <Textarea
          placeholder="Add an annotation"
          aria-label="Annotation text"
          autosize
          minRows={1}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button size="md" variant="light" disabled={!text.trim()} onClick={() => void add()}>
            Add annotation
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
