// An image's annotations in the viewer (§3 Annotation, §6.2): the list with its count, adding
// one (a name and a note), and editing the content of one's own. Annotations are not a mirrored kind:
// the list comes from GET /v2/annotations?imageId= (kept in the persisted query cache, so it shows
// offline), and changes go through the outbox like every mutation, shown here as Pending until sent.
// Each region shows its class and what it measures (µm from the image's pixel size, else pixels);
// the image's annotations are exported and imported as GeoJSON in QuPath's layout. The selection is
// the slide's (selection.ts): the selected annotation's row is marked and scrolled to, and a row's
// title (a button: Tab reaches it, Enter picks it) selects its annotation and shows its region.
import { useMemo, useState, type ReactNode } from 'react';
import {
  Badge,
  Button,
  Card,
  Group,
  Stack,
  Text,
  TextInput,
  Textarea,
  UnstyledButton,
  type MantineStyleProp,
} from '@mantine/core';
import { classNamed, withClassification, type AnnotationClass } from '../../../api/annotation-classes';
import { classificationOfContent } from '../../../api/annotation-geojson';
import {
  MeasurementText,
  measureContent,
  measurementText,
  type PixelSize,
} from '../../../api/annotation-measurements';
import { figuresOf } from '../../../api/annotation-shapes';
import { ANNOTATION_NAME_MAX } from '../../../api/annotations';
import type { Annotation } from '../../../api/entities';
import { AnnotationUiText, extractMessage } from '../../../api/messages';
import { EditableOwnText } from '../../forms/EditableOwnText';
import { DeniedTooltip } from '../../lib/DeniedTooltip';
import { formatDate } from '../../lib/format';
import { useMe } from '../../session/session-context';
import { useMutations } from '../../sync/hooks';
import { ClassBadge, ClassFilter, ClassPicker, classColor, type ClassFilterValue } from './ClassPieces';
import { GeoJsonButtons } from './GeoJsonButtons';
import { noteOf, outlinesOf, withNote } from './regions';
import { selectAnnotation, useAnnotationSelection } from './selection';
import { useCoarsePointer } from './tools/DrawingTools';
import { useAnnotationClasses } from './useAnnotationClasses';
import { useImageFrame } from './useImageFrame';
import { VirtualRows } from './VirtualRows';
import {
  shownContent,
  type QueuedAnnotation,
  useAddAnnotation,
  useAnnotationDenials,
  useImageAnnotations,
} from './useImageAnnotations';

/** A note's title: its name, else whether it outlines a region or only notes something. */
const titleOf = (name: string | undefined, content: unknown) =>
  name || (outlinesOf(content).length > 0 ? AnnotationUiText.region : 'Note');

/**
 * A region's class and its measurements, on one line; nothing for a note. One's own region gets a
 * class picker (`onPick`), others' show the class.
 */
function RegionFacts({
  content,
  pixelSize,
  classes,
  onPick,
}: {
  content: unknown;
  pixelSize?: PixelSize;
  classes?: readonly AnnotationClass[];
  onPick?(cls: { name: string; color: string } | null): void;
}) {
  const cls = classificationOfContent(content);
  const measured = measurementText(measureContent(content, pixelSize));
  const pick = onPick && figuresOf(content).length > 0 && (cls || (classes?.length ?? 0) > 0);
  if (!cls && !measured && !pick) return null;
  return (
    <Group gap={6} wrap="wrap" data-testid="annotation-facts">
      {pick ? (
        <ClassPicker value={cls} classes={classes ?? []} onChange={onPick} />
      ) : (
        cls && <ClassBadge cls={cls} color={classColor(cls, classes)} />
      )}
      {measured && (
        <Text size="xs" c="dimmed" data-testid="annotation-measurement">
          {measured}
        </Text>
      )}
    </Group>
  );
}

/** A row's title: the button that selects its annotation; at least a finger's height on touch. */
function RowTitle({
  selected,
  touch,
  onPick,
  children,
}: {
  selected: boolean;
  touch: boolean;
  onPick(): void;
  children: ReactNode;
}) {
  return (
    <UnstyledButton
      onClick={onPick}
      aria-current={selected ? 'true' : undefined}
      data-testid="annotation-title"
      style={{ flex: 1, minWidth: 0, minHeight: touch ? 44 : undefined, textAlign: 'left' }}
    >
      {children}
    </UnstyledButton>
  );
}

/** The selected row stands out. */
const rowStyle = (selected: boolean): MantineStyleProp => ({
  borderRadius: 'var(--mantine-radius-sm)',
  padding: '2px 6px',
  background: selected ? 'var(--mantine-color-blue-light)' : undefined,
});

/** One row of the list: a listed annotation, or a queued create not yet listed. */
type ListItem =
  { key: string; row: Annotation; create?: undefined } | { key: string; create: QueuedAnnotation };
const keyOfItem = (item: ListItem) => item.key;

export function AnnotationsPanel({
  imageId,
  reviewId,
  onPicked,
}: {
  imageId: string;
  reviewId?: string;
  /** After a row was picked (a narrow viewer closes the panel so that the slide shows). */
  onPicked?(): void;
}) {
  const me = useMe();
  const selection = useAnnotationSelection(imageId);
  const touch = useCoarsePointer();
  const pick = (id: string) => {
    selectAnnotation(imageId, id, 'list');
    onPicked?.();
  };
  const mutations = useMutations();
  const { list, rows, edits, creates } = useImageAnnotations(imageId);
  const addAnnotation = useAddAnnotation(imageId, reviewId);
  const denied = useAnnotationDenials();
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<string>();
  const { pixelSize, bounds } = useImageFrame(imageId);
  const classes = useAnnotationClasses().data;
  const [filter, setFilter] = useState<ClassFilterValue>('');
  // Worked out once per change of the set, the outbox, the classes or the filter: never per scroll.
  const { counts, shownRows, shownCreates, notesOnly, measuresSome } = useMemo(() => {
    /** The class an annotation is counted under: the list's spelling of its name, or null. */
    const classKey = (content: unknown): string | null => {
      const name = classificationOfContent(content)?.name;
      return name === undefined ? null : (classNamed(classes, name)?.name ?? name);
    };
    const counts = new Map<string | null, number>();
    const rowKeys = rows.map((a) => classKey(shownContent(a, edits.get(a.id))));
    const createKeys = creates.map((q) => classKey(q.content));
    const count = (k: string | null) => counts.set(k, (counts.get(k) ?? 0) + 1);
    rowKeys.forEach(count);
    creates.forEach((q, i) => !q.error && count(createKeys[i]));
    return {
      counts,
      shownRows: filter === '' ? rows : rows.filter((_, i) => rowKeys[i] === filter),
      shownCreates: filter === '' ? creates : creates.filter((_, i) => createKeys[i] === filter),
      notesOnly: rows.filter((a) => figuresOf(a.content).length === 0).length,
      measuresSome: !pixelSize && rows.some((a) => measureContent(a.content) !== undefined),
    };
  }, [rows, edits, creates, classes, filter, pixelSize]);
  const classify =
    (a: (typeof rows)[number], shown: unknown) => (cls: { name: string; color: string } | null) =>
      void mutations.enqueue({
        method: 'PATCH',
        path: `/annotations/${encodeURIComponent(a.id)}`,
        body: { annotation: { content: withClassification(shown, cls) } },
      });

  const total = rows.length + creates.filter((c) => !c.error).length;
  const items = useMemo<ListItem[]>(
    () => [
      ...shownRows.map((row) => ({ key: row.id, row })),
      ...shownCreates.map((create) => ({ key: create.id, create })),
    ],
    [shownRows, shownCreates],
  );

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
        <GeoJsonButtons
          imageId={imageId}
          bounds={bounds}
          deniedImport={denied.create}
          notesWithoutRegion={notesOnly}
          onImported={() => void list.refetch()}
        />
        {measuresSome && (
          <Text size="xs" c="dimmed" data-testid="pixel-size-unknown">
            {MeasurementText.pixelSizeUnknown}
          </Text>
        )}
        {((classes?.length ?? 0) > 0 || [...counts.keys()].some((k) => k !== null)) && (
          <ClassFilter counts={counts} total={total} value={filter} onChange={setFilter} classes={classes} />
        )}
        {list.isError && !list.data && (
          <Text size="sm" c="red">
            {extractMessage(list.error)}
          </Text>
        )}
        <VirtualRows
          items={items}
          keyOf={keyOfItem}
          testId="annotation-list"
          reveal={selection.id}
          revealToken={selection.seq}
          render={(item) => {
            const selected = selection.id === item.key;
            if (item.create) {
              const c = item.create;
              return (
                <Stack
                  key={c.id}
                  gap={2}
                  data-testid="annotation"
                  data-selected={selected || undefined}
                  style={rowStyle(selected)}
                >
                  <RowTitle selected={selected} touch={touch} onPick={() => pick(c.id)}>
                    <Text size="sm" fw={500}>
                      {titleOf(c.name, c.content)}
                      <Text span size="xs" c={c.error ? 'red' : 'dimmed'}>
                        {' '}
                        · {c.error ? `Not saved: ${c.error}` : 'Pending'}
                      </Text>
                    </Text>
                  </RowTitle>
                  <RegionFacts content={c.content} pixelSize={pixelSize} classes={classes} />
                  <Text size="sm">{noteOf(c.content)}</Text>
                </Stack>
              );
            }
            const a = item.row;
            const edit = edits.get(a.id);
            const shown = shownContent(a, edit);
            return (
              <Stack
                key={a.id}
                gap={2}
                data-testid="annotation"
                data-selected={selected || undefined}
                style={rowStyle(selected)}
              >
                <EditableOwnText
                  header={
                    <RowTitle selected={selected} touch={touch} onPick={() => pick(a.id)}>
                      <Text size="sm" fw={500}>
                        {titleOf(a.name, a.content)}
                        <Text span size="xs" c="dimmed">
                          {' '}
                          · {formatDate(a.createdAt)}
                          {edit && !edit.error ? ' · Pending' : ''}
                        </Text>
                      </Text>
                    </RowTitle>
                  }
                  text={noteOf(shown)}
                  editable={a.creatorUserId === me.user.id}
                  denied={a.creatorUserId === me.user.id ? denied.edit(a) : undefined}
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
                <RegionFacts
                  content={shown}
                  pixelSize={pixelSize}
                  classes={classes}
                  onPick={a.creatorUserId === me.user.id && !denied.edit(a) ? classify(a, shown) : undefined}
                />
                {edit?.error && (
                  <Text size="xs" c="red">
                    Not saved: {edit.error}
                  </Text>
                )}
              </Stack>
            );
          }}
        />
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
          disabled={!!denied.create}
        />
        <Textarea
          placeholder="Add an annotation"
          aria-label="Annotation text"
          autosize
          minRows={1}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          disabled={!!denied.create}
        />
        <Group justify="flex-end">
          <DeniedTooltip reason={denied.create}>
            <Button
              size="md"
              variant="light"
              disabled={!!denied.create || !text.trim()}
              onClick={() => void add()}
            >
              Add annotation
            </Button>
          </DeniedTooltip>
        </Group>
      </Stack>
    </Card>
  );
}
