// A slide card (§2.9): thumbnail (a link to the viewer unless archived, §4.2), simple id, storage
// state, heart reaction (toggle, count), annotation count, tags (2 then +N, §9) and the slide menu.
// The local markers show a change waiting to be sent (Pending) or refused (Not saved).
// A `bare` card (a slide grid's first render) draws the same without its tooltips and menu (each a
// floating-ui setup and a portal, most of a card's cost); the grid's second render, right after the
// first paint, puts them in (SlideGrid.tsx).
import { ActionIcon, Anchor, Badge, Card, Center, Group, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { AppAbility } from '../../access';
import type { Image, Reaction, ScanGroup } from '../../api/entities';
import type { Local } from '../../local/restore';
import { formatDate } from '../lib/format';
import { ImageThumbnail } from '../lib/ImageThumbnail';
import { MarkerText } from '../studies/StudyCard';
import { Tip } from '../lib/Tip';
import { ARCHIVAL_LABELS } from '../filters/filter-state';
import { isArchived, pendingArchive, slideStorage } from './slides-local';
import { SlideMenu, type SlideAction } from './SlideMenu';
import type { Study } from '../../api/entities';

/** Our words for a slide with no image yet (a label printed, nothing scanned). */
export const NO_IMAGE = 'No image yet';

/** Tags shown on a slide card before '+N' (§9). */
export const SLIDE_CARD_TAGS = 2;

const STORAGE_COLOR: Record<string, string> = {
  archiving: 'orange',
  archived: 'gray',
  restoring: 'blue',
  archiveFailure: 'red',
  restoreFailure: 'red',
};

export function storageLabel(slide: ScanGroup): string | undefined {
  if (pendingArchive(slide) || slide.storageStatus === 'archiveReady') return 'Archiving';
  const s = slideStorage(slide);
  return s === 'active' || s === 'archiving' ? undefined : ARCHIVAL_LABELS[s];
}

export function SlideCard({
  slide,
  images,
  reactions,
  annotations,
  myUserId,
  organName,
  study,
  ability,
  bare = false,
  onAction,
  onHeart,
}: {
  slide: Local<ScanGroup>;
  images: readonly Image[];
  reactions: readonly Local<Reaction>[];
  annotations?: number;
  myUserId: string;
  organName?: string;
  study?: Study;
  /** From the grid: built once per grid, not once per card. */
  ability: AppAbility;
  /** Drawn the same, without tooltips and menu (see above). */
  bare?: boolean;
  onAction(action: SlideAction): void;
  onHeart(mine: Local<Reaction> | undefined): void;
}) {
  const archived = isArchived(slide);
  const first = images[0];
  const mine = reactions.find((r) => r.creatorUserId === myUserId);
  const label = storageLabel(slide);
  const thumb = !first ? (
    <Center h={120} bg="gray.1">
      <Text size="xs" c="dimmed">
        {NO_IMAGE}
      </Text>
    </Center>
  ) : (
    <ImageThumbnail
      imageId={first.id}
      h={120}
      fit="contain"
      bg="gray.1"
      radius="sm"
      alt={`Slide ${slide.simpleId}`}
      style={archived ? { filter: 'grayscale(1)', opacity: 0.6 } : undefined}
    />
  );
  const viewer = study
    ? `/sviewer/${encodeURIComponent(study.id)}/${study.scanGroupIds.indexOf(slide.id) + 1}`
    : `/sgviewer/${encodeURIComponent(slide.id)}`;
  return (
    <Card withBorder padding="sm" radius="md" data-testid="slide-card" data-slide-id={slide.id}>
      <Card.Section>
        {archived || slide.$pending ? (
          thumb
        ) : (
          <Anchor component={Link} to={viewer} aria-label={`Open slide ${slide.simpleId}`}>
            {thumb}
          </Anchor>
        )}
      </Card.Section>
      <Stack gap={4} mt="xs">
        <Group justify="space-between" wrap="nowrap" gap={4}>
          <Text fw={600} truncate title={slide.simpleId}>
            {slide.simpleId}
          </Text>
          <Group gap={4} wrap="nowrap">
            {label && (
              <Badge size="xs" color={STORAGE_COLOR[slideStorage(slide)] ?? 'orange'} variant="light">
                {label}
              </Badge>
            )}
            <SlideMenu
              slide={slide}
              images={images}
              study={study}
              ability={ability}
              bare={bare}
              onAction={onAction}
            />
          </Group>
        </Group>
        <Text size="xs" c="dimmed" truncate>
          {[slide.name, organName, formatDate(slide.createdAt)].filter(Boolean).join(' · ')}
        </Text>
        <Group gap={4} mih={20}>
          {slide.tags.slice(0, SLIDE_CARD_TAGS).map((t) => (
            <Badge key={t} size="xs" variant="outline" maw={120} tt="none" title={t}>
              {t}
            </Badge>
          ))}
          {slide.tags.length > SLIDE_CARD_TAGS && (
            <Tip bare={bare} label={slide.tags.slice(SLIDE_CARD_TAGS).join(', ')} openDelay={300}>
              <Text size="xs" c="dimmed">
                +{slide.tags.length - SLIDE_CARD_TAGS}
              </Text>
            </Tip>
          )}
        </Group>
        <Group justify="space-between" gap={4}>
          <Group gap={8}>
            <Group gap={2}>
              <ActionIcon
                variant="subtle"
                color="red"
                size="sm"
                aria-label={mine ? 'Remove heart' : 'Add heart'}
                aria-pressed={!!mine}
                onClick={() => onHeart(mine)}
              >
                {mine ? '♥' : '♡'}
              </ActionIcon>
              <Text size="xs" data-testid="heart-count">
                {reactions.length}
              </Text>
            </Group>
            <Tip bare={bare} label="Annotations" openDelay={300}>
              <Text size="xs" c="dimmed" data-testid="annotation-count">
                ✎ {annotations ?? 0}
              </Text>
            </Tip>
          </Group>
          <Group gap={4}>
            {(slide.$pending || mine?.$pending) && (
              <Tip bare={bare} label={MarkerText.pendingHint}>
                <Badge color="yellow" variant="light" size="xs">
                  {MarkerText.pending}
                </Badge>
              </Tip>
            )}
            {slide.$failed && (
              <Tip bare={bare} label={slide.$failed} multiline w={240}>
                <Badge color="red" variant="light" size="xs">
                  {MarkerText.failed}
                </Badge>
              </Tip>
            )}
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}
