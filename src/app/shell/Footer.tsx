// The footer credits the product's maker (spec §2.4).
import { Box, Text } from '@mantine/core';

export function Footer() {
  return (
    <Box component="footer" py="sm" px="md" style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
      <Text size="xs" c="dimmed" ta="center">
        Tessera · made by the Tessera team for pathology labs
      </Text>
    </Box>
  );
}
