// /dashboard/studies (§2.9): the filter bar (§2.7, state in the URL), the 'Create New Study' tile and
// the study cards, read from the local store (so the list and its filters work offline, with studies
// waiting to be sent marked as such), 25 per page.
import { useEffect, useMemo, useState } from 'react';
import { Center, Pagination, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { canCreateStudy, type AppAbility, type Me } from '../../access';
import { Denied, Misc, Session } from '../../api/messages';
import { useAbility } from '../session/ability';
import type { Organization } from '../../api/users';
import { readRows } from '../../local/read';
import { FilterBar } from '../filters/FilterBar';
import { useFilters } from '../filters/filter-state';
import { ModalTile } from '../shell/ModalTile';
import { useLocalQuery } from '../sync/hooks';
import { usePaintedOnce } from '../lib/painted';
import { NEW_STUDY_TITLE } from './NewStudyModal';
import { StudyCard } from './StudyCard';
import { studyListQuery, STUDIES_PER_PAGE } from './studies-local';

/**
 * Cards in the page's first render: about what a desktop shows above the fold (two rows of four with
 * the tile), drawn without their tooltips and menus (`bare`, StudyCard.tsx). The rest, and those, follow
 * in a second render once that one has been painted, so the first row does not wait for all 25 cards
 * to be built (first row < 100 ms from the dashboard's tab).
 */
const FIRST_RENDER_CARDS = 7;

function CreateTile({ ability, me }: { ability: AppAbility; me: Me }) {
  return (
    <ModalTile
      title={NEW_STUDY_TITLE}
      param="new-study"
      allowed={canCreateStudy(ability, me)}
      deniedLabel={`${Denied.noStudyPermission}. ${Denied.contactAdmin}`}
      minHeight={90}
    />
  );
}

export function StudiesPage() {
  const { ability, me } = useAbility();
  const [filters] = useFilters();
  const [page, setPage] = useState(1);
  const key = JSON.stringify(filters);
  useEffect(() => setPage(1), [key]);
  const q = useLocalQuery('studies', ...studyListQuery(filters, page), { keepPrevious: true });
  const orgs = useLocalQuery('organizations', ['study-cards'], (db) =>
    readRows<Organization>(db, 'organizations'),
  );
  const orgName = useMemo(() => new Map((orgs.data ?? []).map((o) => [o.id, o.name])), [orgs.data]);
  const pages = Math.max(1, Math.ceil((q.data?.count ?? 0) / STUDIES_PER_PAGE));
  // The first render that has rows shows the first few cards; the rest follow once it is painted.
  const painted = usePaintedOnce(!!q.data);
  const rows = painted ? q.data?.rows : q.data?.rows.slice(0, FIRST_RENDER_CARDS);
  return (
    <Stack gap="md">
      <Title order={2}>Studies</Title>
      <FilterBar
        pickers={['slideId', 'organization', 'creator', 'organ', 'tags']}
        placeholder="Search studies by name"
      />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="md">
        <CreateTile ability={ability} me={me} />
        {rows?.map((study) => (
          <StudyCard
            key={study.id}
            study={study}
            ability={ability}
            organizationName={orgName.get(study.organizationId)}
            assays={q.data?.assays[study.id]}
            bare={!painted}
          />
        ))}
      </SimpleGrid>
      {!q.data && (
        <Text c="dimmed" ta="center">
          {Session.loading}
        </Text>
      )}
      {q.data && q.data.count === 0 && (
        <Text c="dimmed" ta="center">
          {Misc.resultsNotFound}
        </Text>
      )}
      {pages > 1 && (
        <Center>
          <Pagination total={pages} value={page} onChange={setPage} />
        </Center>
      )}
    </Stack>
  );
}
