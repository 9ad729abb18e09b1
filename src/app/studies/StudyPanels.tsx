// The panels of the study page (§2.9): creator and members (Contact dialog with 'Email copied!' for
// 2 s or 'Email not available', member avatars, the add-member control shown with create-Study
// permission), the Stain Status and QC Status donuts, and the Tags card (§5: ≤16 characters shown
// truncated, at most 30, the add control hidden from 29 on, 'This tag already exists').
import { useState } from 'react';
import {
  ActionIcon,
  Avatar,
  Badge,
  Button,
  Card,
  CopyButton,
  Group,
  Modal,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { canCreateStudy, canEditStudyTags } from '../../access';
import { TAG_MAX_LENGTH } from '../../api/constants';
import type { Image, Review, Study } from '../../api/entities';
import { Misc } from '../../api/messages';
import { qcCountRows, qcTally, type QcCountKey } from '../../api/reviews';
import type { User } from '../../api/users';
import { initials } from '../lib/format';
import { useAbility } from '../session/ability';
import { useMutations } from '../sync/hooks';
import { ShareDialog } from '../slides/ShareDialog';
import { Donut, type DonutPart } from './Donut';
import { AddTag } from './StudyEditors';

/** §9: copy confirmation clears after 2 seconds. */
const COPIED_MS = 2_000;

export function MembersCard({ study, users }: { study: Study; users: Map<string, User> }) {
  const { ability, me } = useAbility();
  const [contact, setContact] = useState(false);
  const [adding, setAdding] = useState(false);
  const creator = study.creatorUserId ? users.get(study.creatorUserId) : undefined;
  const creatorName = creator ? creator.name || creator.email : Misc.unavailableUser;
  return (
    <Card withBorder radius="md" padding="md" h="100%">
      <Title order={5}>Creator</Title>
      <Group justify="space-between" mt={6} wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <Avatar radius="xl" color="tessera">
            {initials(creatorName)}
          </Avatar>
          <Text fw={500}>{creatorName}</Text>
        </Group>
        <Button size="xs" variant="light" onClick={() => setContact(true)}>
          Contact
        </Button>
      </Group>
      <Title order={5} mt="md">
        Members
      </Title>
      <Group gap={4} mt={6}>
        <Avatar.Group spacing="xs">
          {study.assigneeUserIds.slice(0, 8).map((id) => {
            const u = users.get(id);
            const name = u ? u.name || u.email : Misc.unavailableUser;
            return (
              <Tooltip key={id} label={name} openDelay={300}>
                <Avatar radius="xl" color="cyan" aria-label={name}>
                  {initials(name)}
                </Avatar>
              </Tooltip>
            );
          })}
          {study.assigneeUserIds.length > 8 && (
            <Avatar radius="xl">+{study.assigneeUserIds.length - 8}</Avatar>
          )}
        </Avatar.Group>
        {canCreateStudy(ability, me) && (
          <Tooltip label="Add member" openDelay={300}>
            <ActionIcon
              variant="light"
              radius="xl"
              size="lg"
              aria-label="Add member"
              onClick={() => setAdding(true)}
            >
              +
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
      <Modal opened={contact} onClose={() => setContact(false)} title="Contact" centered size="sm">
        <Stack gap="xs">
          <Text fw={600}>{creatorName}</Text>
          {creator?.email ? (
            <Group gap="xs">
              <Text size="sm">{creator.email}</Text>
              <CopyButton value={creator.email} timeout={COPIED_MS}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
                    {copied ? Misc.emailCopied : 'Copy e-mail'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {Misc.emailNotAvailable}
            </Text>
          )}
        </Stack>
      </Modal>
      <ShareDialog
        target={adding ? { kind: 'studies', item: study } : undefined}
        onClose={() => setAdding(false)}
      />
    </Card>
  );
}

/** §4.4: PROCESSING is Pending, COMPLETED is Complete, any other status Incomplete. */
export function stainParts(images: readonly Image[]): DonutPart[] {
  const count = (f: (i: Image) => boolean) => images.filter(f).length;
  return [
    {
      label: 'Complete',
      value: count((i) => i.status === 'completed'),
      color: 'var(--mantine-color-teal-6)',
    },
    {
      label: 'Pending',
      value: count((i) => i.status === 'processing'),
      color: 'var(--mantine-color-yellow-5)',
    },
    {
      label: 'Incomplete',
      value: count((i) => i.status !== 'completed' && i.status !== 'processing'),
      color: 'var(--mantine-color-gray-5)',
    },
  ];
}

const QC_COLOR: Record<QcCountKey, string> = {
  accepted: 'var(--mantine-color-teal-6)',
  rejected: 'var(--mantine-color-red-6)',
  flagged: 'var(--mantine-color-orange-5)',
  pending: 'var(--mantine-color-yellow-5)',
  notReviewed: 'var(--mantine-color-gray-4)',
};

/** The study's QC state as its QC report counts it (qcTally: each image by its latest QC review). */
export function qcParts(images: readonly Image[], reviews: readonly Review[]): DonutPart[] {
  const tally = qcTally(
    images.map((i) => i.id),
    reviews,
  );
  return qcCountRows(tally).map((r) => ({ label: r.label, value: r.value, color: QC_COLOR[r.key] }));
}

export function StatusCard({ title, parts }: { title: string; parts: DonutPart[] }) {
  return (
    <Card withBorder radius="md" padding="md" h="100%">
      <Title order={5} mb="xs">
        {title}
      </Title>
      <Donut parts={parts} label={title} />
    </Card>
  );
}

/** A tag as shown: at most 16 characters, longer ones cut with an ellipsis (§5). */
export const shownTag = (tag: string) =>
  tag.length > TAG_MAX_LENGTH ? `${tag.slice(0, TAG_MAX_LENGTH)}…` : tag;

export function TagsCard({ study }: { study: Study }) {
  const { ability } = useAbility();
  const mutations = useMutations();
  const editable = canEditStudyTags(ability, study);
  return (
    <Card withBorder radius="md" padding="md" h="100%" data-testid="tags-card">
      <Group justify="space-between">
        <Title order={5}>Tags</Title>
        <Text size="xs" c="dimmed">
          {study.tags.length}/30
        </Text>
      </Group>
      <Group gap={6} mt="xs">
        {study.tags.length === 0 && (
          <Text size="sm" c="dimmed">
            No tags yet
          </Text>
        )}
        {study.tags.map((t) => (
          <Badge
            key={t}
            variant="light"
            tt="none"
            title={t}
            rightSection={
              editable ? (
                <ActionIcon
                  size="xs"
                  variant="transparent"
                  aria-label={`Remove tag ${t}`}
                  onClick={() => void mutations.update('studies', study.id, { remove: { tags: [t] } })}
                >
                  ✕
                </ActionIcon>
              ) : undefined
            }
          >
            {shownTag(t)}
          </Badge>
        ))}
        {editable && <AddTag study={study} />}
      </Group>
    </Card>
  );
}
