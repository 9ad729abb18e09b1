// The fallback for an unexpected application error: what happened, and two ways out. Nothing is lost:
// local changes stay in the device's store.
import { Button, Center, Code, Group, Stack, Text, Title } from '@mantine/core';
import type { ErrorComponentProps } from '@tanstack/react-router';

export function AppErrorScreen({ error, reset }: ErrorComponentProps) {
  return (
    <Center mih="100vh" p="md">
      <Stack maw={520} gap="md">
        <Title order={3}>Something went wrong on this page</Title>
        <Text c="dimmed">
          Your work saved on this device is safe. Try again, or go back to the dashboard. If it keeps
          happening, report the issue with the help button.
        </Text>
        <Code block>{error instanceof Error ? error.message : String(error)}</Code>
        <Group>
          <Button onClick={reset}>Try again</Button>
          <Button variant="default" component="a" href="/dashboard">
            Go to the dashboard
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
