// A page title with tabs that are child routes (dashboard, orders, account settings, administrator,
// setup). The tab whose path the URL starts with is marked, the longest such path first.
import type { ReactNode } from 'react';
import { Box, Stack, Tabs, Title } from '@mantine/core';
import { Outlet, useLocation, useNavigate } from '@tanstack/react-router';

export function TabsLayout({
  title,
  base,
  tabs,
  fallback,
  aside,
}: {
  title: string;
  base: string;
  /** [path below `base`, label] in the order shown. */
  tabs: ReadonlyArray<readonly [string, string]>;
  /** The tab marked when the URL matches none (the bare `base`); none is marked without it. */
  fallback?: string;
  /** At the title's right, out of the flow: appearing late, or taller than the title, it moves nothing. */
  aside?: ReactNode;
}) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = [...tabs]
    .sort((a, b) => b[0].length - a[0].length)
    .find(([key]) => pathname.startsWith(`${base}/${key}`))?.[0];
  return (
    <Stack gap="md">
      <Box pos="relative">
        <Title order={2}>{title}</Title>
        {aside && (
          <Box pos="absolute" right={0} top="50%" style={{ transform: 'translateY(-50%)' }}>
            {aside}
          </Box>
        )}
      </Box>
      <Tabs value={current ?? fallback ?? null} onChange={(v) => v && void navigate({ to: `${base}/${v}` })}>
        {/* One row that scrolls sideways on a narrow screen (a tablet in portrait), never two. */}
        <Tabs.List
          style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden', scrollbarWidth: 'none' }}
        >
          {tabs.map(([key, label]) => (
            <Tabs.Tab key={key} value={key} style={{ flexShrink: 0 }}>
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </Stack>
  );
}
