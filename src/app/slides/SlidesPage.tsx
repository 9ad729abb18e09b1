// /dashboard/slides (§2.9): the filter bar (§2.7, state in the URL) over the slide cards, 10 per page
// (§9), read from the local store so the list, its filters and its actions work offline.
import { useEffect, useState } from 'react';
import { Center, Group, Pagination, Stack, Text, Title } from '@mantine/core';
import { Misc, Session } from '../../api/messages';
import { FilterBar } from '../filters/FilterBar';
import { useFilters } from '../filters/filter-state';
import { useLocalQuery } from '../sync/hooks';
import { SlideGrid } from './SlideGrid';
import { slideListQuery, SLIDES_PER_PAGE } from './slides-local';
import { usePaintedOnce } from '../lib/painted';

/** Images and reactions are mirrored too: their kinds' refresh polls run while the slides show. */
function KeepFresh() {
  useLocalQuery('images', ['slides-images'], async () => null);
  useLocalQuery('reactions', ['slides-reactions'], async () => null);
  return null;
}

/** The polls start once the page is on screen (a pull on mount would be part of its first render). */
function KeepFreshAfterPaint() {
  return usePaintedOnce() ? <KeepFresh /> : null;
}

export function SlidesPage() {
  const [filters] = useFilters();
  const [page, setPage] = useState(1);
  const key = JSON.stringify(filters);
  useEffect(() => setPage(1), [key]);
  const q = useLocalQuery('scan-groups', ...slideListQuery(filters, page), { keepPrevious: true });
  const pages = Math.max(1, Math.ceil((q.data?.count ?? 0) / SLIDES_PER_PAGE));
  return (
    <Stack gap="md">
      <KeepFreshAfterPaint />
      <Group justify="space-between">
        <Title order={2}>Slides</Title>
        {q.data && (
          <Text size="sm" c="dimmed">
            {q.data.count === 1 ? '1 slide' : `${q.data.count} slides`}
          </Text>
        )}
      </Group>
      <FilterBar
        pickers={['slideId', 'organization', 'creator', 'organ', 'assay']}
        archival
        placeholder="Search slides by ID, name, notes or tag"
      />
      {!q.data && (
        <Text c="dimmed" ta="center">
          {Session.loading}
        </Text>
      )}
      {q.data && q.data.count === 0 && (
        <Text c="dimmed" ta="center" py="xl">
          {Misc.resultsNotFound}
        </Text>
      )}
      {q.data && q.data.rows.length > 0 && (
        <SlideGrid slides={q.data.rows} images={q.data.images} reactions={q.data.reactions} />
      )}
      {pages > 1 && (
        <Center>
          <Pagination total={pages} value={page} onChange={setPage} />
        </Center>
      )}
    </Stack>
  );
}
