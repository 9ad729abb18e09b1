// The error component of every route below the root (router.tsx). A page whose code could not be
// loaded (offline on a first visit, before the service worker holds it: lib/chunk-errors.ts) gets a
// message in place of the page, with the top bar still there to go elsewhere; nothing reloads the
// tab while offline. Any other error goes on to the root's AppErrorScreen.
import { Alert, Button, Stack, Text } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { isChunkLoadError } from '../lib/chunk-errors';

export const PageUnavailableText = {
  offlineTitle: 'This page is not available offline yet',
  offline:
    'Its code had not reached this device when the connection dropped. It opens once you are back online; the changes you make meanwhile are kept on this device.',
  onlineTitle: 'This page could not be loaded',
  online: 'You are back online: try again to load it.',
  retry: 'Try again',
} as const;

export function RouteError({ error }: ErrorComponentProps) {
  const { online } = useNetwork();
  // Not ours to show: the root's error screen takes it (React passes it to the next boundary up).
  if (!isChunkLoadError(error)) throw error;
  return (
    <Stack p="md" maw={640} data-testid="page-unavailable">
      <Alert
        color={online ? 'blue' : 'yellow'}
        variant="light"
        role="alert"
        title={online ? PageUnavailableText.onlineTitle : PageUnavailableText.offlineTitle}
      >
        <Text size="sm">{online ? PageUnavailableText.online : PageUnavailableText.offline}</Text>
      </Alert>
      {/* A full load, the one way to fetch the code again; offered only online (offline it would end on
          the browser's error page). */}
      <Button w="fit-content" disabled={!online} onClick={() => window.location.reload()}>
        {PageUnavailableText.retry}
      </Button>
    </Stack>
  );
}
