// /image-selection (§2.8): the slide selection popup. It tells its opener it is ready, takes the
// current selection and the selectable slides from start-slide-select, reports every change with
// slide-select and hands the result over with done-slides. The multi-image selector shows each
// slide's thumbnail, simple id and 'N Images' (§2.9); slides come from the local store with the
// filter bar, so selection works offline too.
import { useEffect, useState } from 'react';
import {
  Badge,
  Button,
  Card,
  Center,
  Checkbox,
  Group,
  Pagination,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { Misc, Session } from '../../api/messages';
import { ImageThumbnail } from '../lib/ImageThumbnail';
import { FilterBar } from '../filters/FilterBar';
import { useFilters } from '../filters/filter-state';
import { readSlidePage } from '../slides/slides-local';
import { NO_IMAGE } from '../slides/SlideCard';
import { useLocalQuery } from '../sync/hooks';
import { readMessage, type SelectionMessage } from './protocol';

const PER_PAGE = 30;

export const SelectionText = {
  title: 'Select Slides',
  notSelectable: 'This slide cannot be chosen here',
  noOpener: 'Open this page from a slide selection to hand the slides over.',
} as const;

function post(message: SelectionMessage): void {
  window.opener?.postMessage(message, window.location.origin);
}

export function ImageSelectionPage({ studyId }: { studyId?: string }) {
  const [filters] = useFilters();
  const [page, setPage] = useState(1);
  const [selection, setSelection] = useState<string[]>([]);
  const [selectable, setSelectable] = useState<Set<string>>();
  // With an opener, nothing is chosen before its start-slide-select gave the starting selection.
  const [started, setStarted] = useState(!window.opener);
  const key = JSON.stringify(filters);
  useEffect(() => setPage(1), [key]);
  const q = useLocalQuery('scan-groups', ['selection', key, page], (db) =>
    readSlidePage(db, { filters, page, limit: PER_PAGE }),
  );

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (!window.opener || event.source !== window.opener) return;
      const msg = readMessage(event);
      if (msg?.type !== 'start-slide-select') return;
      setSelection(msg.selection);
      setSelectable(msg.selectableIds ? new Set(msg.selectableIds) : undefined);
      setStarted(true);
    };
    window.addEventListener('message', onMessage);
    post({ type: 'ready-slide-select' });
    return () => window.removeEventListener('message', onMessage);
  }, []);

  const toggle = (id: string) => {
    const next = selection.includes(id) ? selection.filter((x) => x !== id) : [...selection, id];
    setSelection(next);
    post({ type: 'slide-select', selection: next });
  };
  const done = () => {
    // The opener takes the selection and closes this window; close anyway should it not.
    post({ type: 'done-slides', selection });
    setTimeout(() => window.close(), 3_000);
  };
  const pages = Math.max(1, Math.ceil((q.data?.count ?? 0) / PER_PAGE));

  return (
    <Stack gap="md" data-testid="image-selection" data-study-id={studyId}>
      <Group justify="space-between">
        <Title order={2}>{SelectionText.title}</Title>
        <Group gap="xs">
          <Badge size="lg" variant="light" tt="none">
            {selection.length} selected
          </Badge>
          <Button variant="default" onClick={() => window.close()}>
            Cancel
          </Button>
          <Button onClick={done} disabled={!window.opener || !started}>
            Done
          </Button>
        </Group>
      </Group>
      {!window.opener && (
        <Text size="sm" c="dimmed">
          {SelectionText.noOpener}
        </Text>
      )}
      <FilterBar
        pickers={['slideId', 'organization', 'creator', 'organ', 'assay']}
        placeholder="Search slides"
      />
      {(!q.data || !started) && <Text c="dimmed">{Session.loading}</Text>}
      {q.data && q.data.count === 0 && (
        <Text c="dimmed" ta="center" py="xl">
          {Misc.resultsNotFound}
        </Text>
      )}
      <SimpleGrid cols={{ base: 2, sm: 4, md: 6 }} spacing="sm">
        {q.data?.rows.map((slide) => {
          const images = q.data?.images[slide.id] ?? [];
          const allowed = started && (!selectable || selectable.has(slide.id));
          const chosen = selection.includes(slide.id);
          return (
            <UnstyledButton
              key={slide.id}
              onClick={() => allowed && toggle(slide.id)}
              disabled={!allowed}
              aria-pressed={chosen}
              aria-label={`Slide ${slide.simpleId}`}
              title={allowed ? slide.simpleId : SelectionText.notSelectable}
            >
              <Card
                withBorder
                padding="xs"
                radius="md"
                style={{
                  opacity: allowed ? 1 : 0.45,
                  outline: chosen ? '2px solid var(--mantine-color-tessera-6)' : undefined,
                }}
              >
                <Card.Section>
                  {images[0] ? (
                    <ImageThumbnail imageId={images[0].id} h={100} fit="contain" bg="gray.1" alt="" />
                  ) : (
                    <Center h={100} bg="gray.1">
                      <Text size="xs" c="dimmed">
                        {NO_IMAGE}
                      </Text>
                    </Center>
                  )}
                </Card.Section>
                <Group justify="space-between" mt={6} wrap="nowrap" gap={4}>
                  <Text size="sm" fw={600} truncate>
                    {slide.simpleId}
                  </Text>
                  <Checkbox
                    size="xs"
                    checked={chosen}
                    readOnly
                    tabIndex={-1}
                    aria-hidden
                    disabled={!allowed}
                  />
                </Group>
                <Text size="xs" c="dimmed">
                  {images.length === 1 ? '1 Image' : `${images.length} Images`}
                </Text>
              </Card>
            </UnstyledButton>
          );
        })}
      </SimpleGrid>
      {pages > 1 && (
        <Center>
          <Pagination total={pages} value={page} onChange={setPage} />
        </Center>
      )}
    </Stack>
  );
}
