// /dashboard/recent-activity (the dashboard's default, §2.2): the latest studies with 'Go to all
// studies' (§2.9) and the user's own activity feed. The studies come from the local store.
import { useMemo } from 'react';
import { Anchor, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { Misc } from '../../api/messages';
import type { Organization } from '../../api/users';
import { readRows } from '../../local/read';
import { useAbility } from '../session/ability';
import { useMe } from '../session/session-context';
import { StudyCard } from '../studies/StudyCard';
import { readStudyPage } from '../studies/studies-local';
import { useLocalQuery } from '../sync/hooks';
import { ActivityFeed } from '../activity/ActivityFeed';

/** How many studies the dashboard shows before 'Go to all studies'. */
const RECENT_STUDIES = 4;

export function RecentActivityPage() {
  const me = useMe();
  const { ability } = useAbility();
  const studies = useLocalQuery('studies', ['recent', RECENT_STUDIES], (db) =>
    readStudyPage(db, 1, undefined, RECENT_STUDIES),
  );
  const orgs = useLocalQuery('organizations', ['study-cards'], (db) =>
    readRows<Organization>(db, 'organizations'),
  );
  const orgName = useMemo(() => new Map((orgs.data ?? []).map((o) => [o.id, o.name])), [orgs.data]);
  return (
    <Stack gap="md">
      <Text c="dimmed">
        Welcome, {me.user.name || me.user.email} · {me.organization.name}
      </Text>
      <Group justify="space-between">
        <Title order={3}>Recent Studies</Title>
        <Anchor component={Link} to="/dashboard/studies">
          Go to all studies
        </Anchor>
      </Group>
      {studies.data && studies.data.count === 0 && <Text c="dimmed">{Misc.resultsNotFound}</Text>}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
        {studies.data?.rows.map((s) => (
          <StudyCard
            key={s.id}
            study={s}
            ability={ability}
            organizationName={orgName.get(s.organizationId)}
            assays={studies.data?.assays[s.id]}
          />
        ))}
      </SimpleGrid>
      <Title order={3}>Recent Activity</Title>
      <ActivityFeed scope="mine" />
    </Stack>
  );
}
