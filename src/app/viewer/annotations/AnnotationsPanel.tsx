// An image's annotations in the viewer (§3 Annotation, §6.2, issue 9): the list with its count, adding
// one (a name and a note), and editing the content of one's own. Annotations are not a mirrored kind:
// the list comes from GET /v2/annotations?imageId= (kept in the persisted query cache, so it shows
// offline), and changes go through the outbox like every mutation, shown here as Pending until sent.
import { useState } from 'react';
import { Badge, Button, Card, Group, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { ANNOTATION_NAME_MAX } from '../../../api/annotations';
import { AnnotationUiText, extractMessage } from '../../../api/messages';
import { EditableOwnText } from '../../forms/EditableOwnText';
import { formatDate } from '../../lib/format';
import { useMe } from '../../session/session-context';
import { useMutations } from '../../sync/hooks';
import { noteOf, outlinesOf, withNote } from './regions';
import { shownContent, useAddAnnotation, useImageAnnotations } from './useImageAnnotations';

/** A note's title: its name, else whether it outlines a region or only notes something. */
const titleOf = (name: string | undefined, content: unknown) =>
  name || (outlinesOf(content).length > 0 ? AnnotationUiText.region : 'Note');

export function AnnotationsPanel({ imageId, reviewId }: { imageId: string; reviewId?: string }) {
  const me = useMe();
  const mutations = useMutations();
  const { list, rows, edits, creates } = useImageAnnotations(imageId);
  const addAnnotation = useAddAnnotation(imageId, reviewId);
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<string>();

  const total = rows.length + creates.filter((c) => !c.error).length;

  const add = async () => {
    const note = text.trim();
    if (!note) return;
    await addAnnotation(name, { text: note });
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
          const shown = shownContent(a, edit);
          return (
            <Stack key={a.id} gap={2} data-testid="annotation">
              <EditableOwnText
                header={
                  <Text size="sm" fw={500}>
                    {titleOf(a.name, a.content)}
                    <Text span size="xs" c="dimmed">
                      {' '}
                      · {formatDate(a.createdAt)}
                      {edit && !edit.error ? ' · Pending' : ''}
                    </Text>
                  </Text>
                }
                text={noteOf(shown)}
                editable={a.creatorUserId === me.user.id}
                editing={editing === a.id}
                onEditingChange={(on) => setEditing(on ? a.id : undefined)}
                label="Edit annotation"
                onSave={(note) =>
                  void mutations.enqueue({
                    method: 'PATCH',
                    path: `/annotations/${encodeURIComponent(a.id)}`,
                    // A region keeps its outline: only the note changes.
                    body: { annotation: { content: withNote(shown, note) } },
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
              {titleOf(c.name, c.content)}
              <Text span size="xs" c={c.error ? 'red' : 'dimmed'}>
                {' '}
                · {c.error ? `Not saved: ${c.error}` : 'Pending'}
              </Text>
            </Text>
            <Text size="sm">{noteOf(c.content)}</Text>
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
