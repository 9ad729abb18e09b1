// A study card of the studies list (§2.9): name with its organization's avatar, the study menu,
// counts of slides and assays, tags (3 then +N, §9), last-updated date as M/D/YYYY, and the local markers: 'Pending' while a change waits to be sent, 'Not saved' with the server's
// message when one was refused (and rolled back).
// A `bare` card (the list's first render) draws the same but has no tooltips and no menu yet: each
// Tooltip and Menu is a floating-ui setup and a portal, most of a card's cost; the list's second
// render, right after the first paint, puts them in.
import { useState } from 'react';
import { ActionIcon, Anchor, Avatar, Badge, Card, Group, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { canEditStudyTags, canRenameStudy, type AppAbility } from '../../access';
import type { Study } from '../../api/entities';
import type { Local } from '../../local/restore';
import { formatShortDate, initials } from '../lib/format';
import { StudyMenu } from './StudyMenu';
import { AddTag, RenameStudy } from './StudyEditors';
import { Tip } from '../lib/Tip';

export const MarkerText = {
  pending: 'Pending',
  pendingHint: 'Saved on this device, waiting to be sent',
  failed: 'Not saved',
} as const;

/** `ability` comes from the list: built once per page, not once per card. */
export function StudyCard({
  study,
  ability,
  organizationName,
  assays = 0,
  bare = false,
}: {
  study: Local<Study>;
  ability: AppAbility;
  organizationName?: string;
  assays?: number;
  /** Drawn the same, without tooltips and menu (see above). */
  bare?: boolean;
}) {
  const [renaming, setRenaming] = useState(false);
  const slides = study.scanGroupIds.length;
  return (
    <Card withBorder padding="md" radius="md" data-testid="study-card" data-study-id={study.id}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Tip bare={bare} label={organizationName ?? ''} disabled={!organizationName} openDelay={300}>
            <Avatar size="sm" radius="sm" color="grape" aria-label={organizationName}>
              {initials(organizationName ?? '?')}
            </Avatar>
          </Tip>
          {renaming ? (
            <RenameStudy study={study} onDone={() => setRenaming(false)} />
          ) : (
            <Anchor
              component={Link}
              to={`/studies/${encodeURIComponent(study.id)}`}
              fw={600}
              lineClamp={2}
              style={{ wordBreak: 'break-word', flex: 1 }}
            >
              {study.name}
            </Anchor>
          )}
          <Group gap={4} wrap="nowrap">
            {!renaming && canRenameStudy(ability, study) && (
              <Tip bare={bare} label="Rename study">
                <ActionIcon
                  size="sm"
                  variant="subtle"
                  aria-label="Rename study"
                  onClick={() => setRenaming(true)}
                >
                  <Text size="xs">✎</Text>
                </ActionIcon>
              </Tip>
            )}
            {study.$pending ? (
              <Tip bare={bare} label={MarkerText.pendingHint}>
                <Badge color="yellow" variant="light" size="sm">
                  {MarkerText.pending}
                </Badge>
              </Tip>
            ) : null}
            {study.$failed ? (
              <Tip bare={bare} label={study.$failed} multiline w={260}>
                <Badge color="red" variant="light" size="sm">
                  {MarkerText.failed}
                </Badge>
              </Tip>
            ) : null}
            <StudyMenu study={study} ability={ability} bare={bare} />
          </Group>
        </Group>
        <Group gap={4}>
          {study.tags.slice(0, 3).map((t) => (
            <Badge key={t} variant="outline" size="xs" maw={130} title={t} tt="none">
              {t}
            </Badge>
          ))}
          {study.tags.length > 3 && (
            <Text size="xs" c="dimmed">
              +{study.tags.length - 3}
            </Text>
          )}
          {canEditStudyTags(ability, study) && <AddTag study={study} bare={bare} />}
        </Group>
        {study.$failed && (
          <Text size="xs" c="red" data-testid="study-error">
            {study.$failed}
          </Text>
        )}
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {slides === 1 ? '1 slide' : `${slides} slides`} · {assays === 1 ? '1 assay' : `${assays} assays`}
          </Text>
          <Text size="sm" c="dimmed">
            {formatShortDate(study.updatedAt)}
          </Text>
        </Group>
      </Stack>
    </Card>
  );
}
