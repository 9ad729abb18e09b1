// The dashed '+' tile at the head of a dashboard grid (Create New Study, Request Review): it opens its
// query-parameter modal (shell/QueryModals.tsx) over the current page, keeping the rest of the URL.
// Without permission it is dimmed and disabled, with the denial in a tooltip.
import type { ReactNode } from 'react';
import { Card, Center, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';

export function ModalTile({
  title,
  param,
  allowed,
  deniedLabel,
  minHeight,
}: {
  /** The tile's text and accessible name: the modal's title. */
  title: string;
  /** The query parameter that opens the modal (`?new-study`). */
  param: string;
  allowed: boolean;
  deniedLabel: ReactNode;
  /** Pixels: the tile's height when the grid row gives it none. */
  minHeight: number;
}) {
  const navigate = useNavigate();
  const open = () => {
    const url = new URL(window.location.href);
    url.searchParams.set(param, '');
    void navigate({ href: `${url.pathname}${url.search}` });
  };
  const tile = (
    <UnstyledButton onClick={open} disabled={!allowed} aria-label={title} h="100%" w="100%">
      <Card withBorder radius="md" h="100%" style={{ borderStyle: 'dashed', opacity: allowed ? 1 : 0.5 }}>
        <Center h="100%" mih={minHeight}>
          <Stack gap={2} align="center">
            <Text size="xl" fw={700} c="tessera.7">
              +
            </Text>
            <Text fw={600}>{title}</Text>
          </Stack>
        </Center>
      </Card>
    </UnstyledButton>
  );
  if (allowed) return tile;
  return (
    <Tooltip label={deniedLabel} multiline w={280} openDelay={300}>
      <div>{tile}</div>
    </Tooltip>
  );
}
