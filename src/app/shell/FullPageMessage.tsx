// A centered loader with a line of text: 'Resuming session...', 'Loading...'.
import { Center, Loader, Stack, Text } from '@mantine/core';

export function FullPageMessage({ text }: { text: string }) {
  return (
    <Center h="100vh">
      <Stack align="center" gap="sm">
        <Loader size="md" />
        <Text c="dimmed">{text}</Text>
      </Stack>
    </Center>
  );
}
