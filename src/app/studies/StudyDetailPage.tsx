// /studies/{studyId} (§2.9, §4.5): the study's name (inline editing: Enter saves, blur cancels, an
// empty or unchanged name is not saved, 'Failed to update the study name' when refused), its menu,
// summary panels, the creator and members card, the Stain Status and QC Status donuts, the Tags card
// and its slide cards, 10 more at a time (§9). All from the local store, so it works offline.
import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { asSubject, canRenameStudy, canReplicateToStudy, denialMessage } from '../../access';
import { STUDY_NAME_MAX } from '../../api/constants';
import type { Image, Review, ScanGroup, Study } from '../../api/entities';
import { Misc, Session, StudyText, Toasts } from '../../api/messages';
import { StudyRuleText } from '../../api/studies';
import type { User } from '../../api/users';
import { localDb } from '../../local/db';
import { whenSettled } from '../../local/outbox';
import { readRow, readRows } from '../../local/read';
import { DeniedTooltip } from '../lib/DeniedTooltip';
import { formatShortDate } from '../lib/format';
import { useAbility } from '../session/ability';
import { useSync } from '../sync/context';
import { useLocalQuery, useMutations, usePulledSinceOpen } from '../sync/hooks';
import { parseFilters } from '../filters/filter-state';
import { SlideGrid } from '../slides/SlideGrid';
import { withOutcome } from '../slides/outcome';
import { REPLICATING } from '../slides/ReplicateDialog';
import { useSlideSelectionPopup } from '../image-selection/useSlideSelectionPopup';
import { isArchived, readSlidePage, SLIDES_PER_PAGE } from '../slides/slides-local';
import { MarkerText } from './StudyCard';
import { MembersCard, StatusCard, TagsCard, qcParts, stainParts } from './StudyPanels';
import { StudyMenu } from './StudyMenu';
import { assayCounts } from './studies-local';

const NO_FILTERS = parseFilters({});

function StudyName({ study }: { study: Study }) {
  const { ability } = useAbility();
  const mutations = useMutations();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(study.name);
  const [error, setError] = useState<string>();
  const trimmed = name.trim();
  const save = async () => {
    // A name over the limit is not dropped: the editor stays open with the rule's message.
    if (trimmed.length > STUDY_NAME_MAX) return;
    setEditing(false);
    if (!trimmed || trimmed === study.name) return;
    setError(undefined);
    const entry = await mutations.update('studies', study.id, { set: { name: trimmed } });
    const outcome = navigator.onLine ? await whenSettled(localDb(), entry.id, 8_000) : undefined;
    if (outcome?.state === 'failed') setError(StudyText.renameFailed);
  };
  return (
    <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
      {editing ? (
        <TextInput
          aria-label="Study name"
          value={name}
          autoFocus
          size="md"
          error={trimmed.length > STUDY_NAME_MAX ? StudyRuleText.nameTooLong : undefined}
          onChange={(e) => setName(e.currentTarget.value)}
          onBlur={() => setEditing(false)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void save();
            if (e.key === 'Escape') setEditing(false);
          }}
        />
      ) : (
        <Title
          order={2}
          style={{ wordBreak: 'break-word', cursor: canRenameStudy(ability, study) ? 'text' : undefined }}
          title={canRenameStudy(ability, study) ? 'Click to rename' : undefined}
          onClick={() => {
            if (!canRenameStudy(ability, study)) return;
            setName(study.name);
            setEditing(true);
          }}
        >
          {study.name}
        </Title>
      )}
      {error && (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setError(undefined)}>
          {error}
        </Alert>
      )}
    </Stack>
  );
}

/** 'Add Slides': the §2.8 popup, offering the active slides not yet in the study. */
function AddSlides({ study }: { study: Study }) {
  const { ability } = useAbility();
  const mutations = useMutations();
  const popup = useSlideSelectionPopup();
  const { engine } = useSync();
  // Shown to everyone, disabled with the reason for those who may not add slides (§6.2).
  const denied = canReplicateToStudy(ability, study)
    ? undefined
    : denialMessage(ability, 'update', asSubject('Study', study), 'scanGroupIds');
  const selectable = async () => {
    // Online, the newest slides first reach the local store (offline: what it holds).
    if (navigator.onLine) await engine?.pull(['scan-groups']).catch(() => undefined);
    const inStudy = new Set(study.scanGroupIds);
    // Active storage is what the server takes (a scheduled archive date, from the team's default
    // active period, leaves a slide active until that date comes); an archive just asked for is not.
    const slides = await readRows<ScanGroup>(localDb(), 'scan-groups', {
      where: (r) => !inStudy.has(String(r.id)),
    });
    return slides.filter((s) => !isArchived(s)).map((s) => s.id);
  };
  const start = () =>
    popup.openPopup({
      studyId: study.id,
      selection: [],
      selectable,
      onDone: (selection) => {
        if (selection.length === 0) return;
        void withOutcome(
          { pending: REPLICATING, success: Toasts.imagesReplicated, failure: Toasts.failedReplicate },
          () => mutations.update('studies', study.id, { add: { scanGroupIds: selection } }),
        );
      },
    });
  return (
    <DeniedTooltip reason={denied}>
      <Button size="xs" variant="light" onClick={start} loading={popup.open} disabled={!!denied}>
        Add Slides
      </Button>
    </DeniedTooltip>
  );
}

function Summary({ label, value }: { label: string; value: string | number }) {
  return (
    <Card withBorder radius="md" padding="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
    </Card>
  );
}

export function StudyDetailPage({ studyId }: { studyId: string }) {
  const { ability } = useAbility();
  const [shown, setShown] = useState(SLIDES_PER_PAGE);
  const study = useLocalQuery('studies', ['one', studyId], (db) => readRow<Study>(db, 'studies', studyId));
  const s = study.data;
  const pulled = usePulledSinceOpen('studies', !!s);
  const navigate = useNavigate();
  // Opened on the temporary id of a study made here, which the server has since given its own id.
  const movedTo = s && s.id !== studyId ? s.id : undefined;
  useEffect(() => {
    if (movedTo) void navigate({ to: '/studies/$studyId', params: { studyId: movedTo }, replace: true });
  }, [movedTo, navigate]);
  const slideIds = s?.scanGroupIds ?? [];
  const details = useLocalQuery('images', ['study-images', studyId, slideIds.join(',')], async (db) => {
    const ids = new Set(slideIds);
    const images = await readRows<Image>(db, 'images', { where: (r) => ids.has(String(r.scanGroupId)) });
    const imageIds = new Set(images.map((i) => i.id));
    const reviews = await readRows<Review>(db, 'reviews', { where: (r) => imageIds.has(String(r.imageId)) });
    return { images, reviews };
  });
  useLocalQuery('reviews', ['study-reviews'], async () => null);
  const users = useLocalQuery('users', ['study'], (db) => readRows<User>(db, 'users'));
  const userMap = useMemo(() => new Map((users.data ?? []).map((u) => [u.id, u])), [users.data]);
  const slides = useLocalQuery('scan-groups', ['study-slides', studyId, slideIds.join(','), shown], (db) =>
    readSlidePage(db, { filters: NO_FILTERS, page: 1, within: slideIds, limit: shown }),
  );
  const assays = useLocalQuery('predictors', ['study-assays', studyId, slideIds.join(',')], async (db) =>
    s ? ((await assayCounts(db, [s]))[s.id] ?? 0) : 0,
  );

  if ((study.isPending || !pulled) && !s)
    return (
      <Center py="xl">
        <Text c="dimmed">{Session.loading}</Text>
      </Center>
    );
  if (!s)
    return (
      <Stack align="center" py="xl">
        <Text c="dimmed">{Misc.resultsNotFound}</Text>
        <Anchor component={Link} to="/dashboard/studies">
          Go to all studies
        </Anchor>
      </Stack>
    );
  const images = details.data?.images ?? [];
  return (
    <Stack gap="md" data-testid="study-page">
      <Anchor component={Link} to="/dashboard/studies" size="sm">
        ← Go to all studies
      </Anchor>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <StudyName key={s.name} study={s} />
        <Group gap="xs" wrap="nowrap">
          {s.$pending ? (
            <Badge color="yellow" variant="light">
              {MarkerText.pending}
            </Badge>
          ) : null}
          {s.$failed ? (
            <Badge color="red" variant="light" title={s.$failed}>
              {MarkerText.failed}
            </Badge>
          ) : null}
          <StudyMenu study={s} ability={ability} />
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
        <Summary label="Slides" value={s.scanGroupIds.length} />
        <Summary label="Images" value={images.length} />
        <Summary label="Assays" value={assays.data ?? 0} />
        <Summary label="Last updated" value={formatShortDate(s.updatedAt)} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
        <MembersCard study={s} users={userMap} />
        <StatusCard title="Stain Status" parts={stainParts(images)} />
        <StatusCard title="QC Status" parts={qcParts(images, details.data?.reviews ?? [])} />
        <TagsCard study={s} />
      </SimpleGrid>
      <Group justify="space-between">
        <Title order={3}>Slides</Title>
        <AddSlides study={s} />
      </Group>
      {slides.data && slides.data.count === 0 && (
        <Text c="dimmed" ta="center" py="md">
          {StudyText.noImages}
        </Text>
      )}
      {slides.data && slides.data.rows.length > 0 && (
        <SlideGrid
          slides={slides.data.rows}
          images={slides.data.images}
          reactions={slides.data.reactions}
          study={s}
        />
      )}
      {slides.data && slides.data.count > shown && (
        <Center>
          <Button variant="light" onClick={() => setShown((n) => n + SLIDES_PER_PAGE)}>
            Load more
          </Button>
        </Center>
      )}
    </Stack>
  );
}
