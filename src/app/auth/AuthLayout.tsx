// The frame of the signed-out pages: logo, a card, and the footer credit.
import type { ReactNode } from 'react';
import { Anchor, Box, Center, Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { Footer } from '../shell/Footer';

export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <Box mih="100vh" bg="gray.0" style={{ display: 'flex', flexDirection: 'column' }}>
      <Center style={{ flex: 1 }} p="md">
        <Stack w="100%" maw={420} gap="lg">
          <Group justify="center" gap="sm">
            <Anchor href="/" aria-label="Tessera home">
              <Image src="/icons/logo.svg" w={44} h={44} alt="" />
            </Anchor>
            <div>
              <Title order={2} lh={1}>
                Tessera
              </Title>
              <Text size="sm" c="dimmed">
                Slide management for pathology labs
              </Text>
            </div>
          </Group>
          <Paper withBorder shadow="sm" p="xl" radius="lg">
            {children}
          </Paper>
        </Stack>
      </Center>
      <Footer />
    </Box>
  );
}
