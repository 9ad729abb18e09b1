// Notices that one of this user's changes, sent late (made offline), replaced a value someone else
// saved after the change was made (docs/offline.md "Conflict policy"). Each names the study or slide,
// shows both values, and offers the other value back in one click (a normal change, queued like any
// other) or keeping this user's. They stay until answered, across reloads: the local store keeps them
// (src/local/overwrites.ts), and only the device that sent the change has them.
import { Button, Group, Notification, Stack, Text } from '@mantine/core';
import { localDb } from '../../local/db';
import {
  dismissOverwrite,
  listOverwrites,
  restoreOverwrite,
  type OverwriteNotice,
} from '../../local/overwrites';
import { requestBackgroundSync } from './browser';
import { useSync } from './context';
import { useObserved } from './hooks';

/** Longest value shown in full; longer ones are cut with an ellipsis (the button must stay short). */
const SHOWN_MAX = 40;

const shown = (value: unknown): string => {
  const text = typeof value === 'string' ? value : '';
  if (!text) return '(empty)';
  return text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX)}…` : text;
};

export const OverwriteText = {
  title: 'Your change replaced a newer one',
  subject: (n: Pick<OverwriteNotice, 'kind' | 'label' | 'field'>) =>
    `${n.kind === 'scan-groups' ? `Slide${n.label ? ` ${n.label}` : ''}` : 'Study'} ${n.field}`,
  yours: (value: unknown) => `Yours, now saved: '${shown(value)}'`,
  // Saved elsewhere: by another user, or by the same user on another device.
  theirs: (value: unknown) => `Replaced: '${shown(value)}', saved after your change was made`,
  restore: (value: unknown) => `Restore '${shown(value)}'`,
  keep: 'Keep mine',
} as const;

export function OverwriteNotices() {
  const { engine, userId } = useSync();
  const notices = useObserved((db) => listOverwrites(db, userId), [userId]);
  if (!userId || !notices?.length) return null;
  const restore = async (key: string) => {
    await restoreOverwrite(localDb(), key, userId);
    void engine?.kick();
    void requestBackgroundSync().catch(() => undefined);
  };
  return (
    <Stack
      gap="xs"
      pos="fixed"
      bottom={16}
      right={16}
      w={400}
      maw="calc(100vw - 32px)"
      style={{ zIndex: 300 }}
      aria-label="Overwritten changes"
    >
      {notices.map((n) => (
        <Notification
          key={n.key}
          color="orange"
          title={OverwriteText.title}
          withCloseButton={false}
          withBorder
          data-testid="overwrite-notice"
        >
          <Text size="sm" fw={500}>
            {OverwriteText.subject(n)}
          </Text>
          <Text size="sm">{OverwriteText.yours(n.yourValue)}</Text>
          <Text size="sm">{OverwriteText.theirs(n.serverValue)}</Text>
          <Group gap={6} mt={6}>
            <Button size="compact-sm" variant="light" onClick={() => void restore(n.key)}>
              {OverwriteText.restore(n.serverValue)}
            </Button>
            <Button
              size="compact-sm"
              variant="subtle"
              color="gray"
              onClick={() => void dismissOverwrite(localDb(), n.key)}
            >
              {OverwriteText.keep}
            </Button>
          </Group>
        </Notification>
      ))}
    </Stack>
  );
}
