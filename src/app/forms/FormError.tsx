// The server's refusal under a form, in red (§8): announced as an alert, nothing shown without one.
import { Text } from '@mantine/core';

export function FormError({ error }: { error?: string }) {
  if (!error) return null;
  return (
    <Text size="sm" c="red" role="alert">
      {error}
    </Text>
  );
}
