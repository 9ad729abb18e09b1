// A page title with tabs that are child routes (orders, account settings, administrator, setup).
import { Stack, Tabs, Title } from '@mantine/core';
import { Outlet, useLocation, useNavigate } from '@tanstack/react-router';

export function TabsLayout({
  title,
  base,
  tabs,
}: {
  title: string;
  base: string;
  tabs: Array<[string, string]>;
}) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = [...tabs]
    .sort((a, b) => b[0].length - a[0].length)
    .find(([key]) => pathname.startsWith(`${base}/${key}`))?.[0];
  return (
    <Stack gap="md">
      <Title order={2}>{title}</Title>
      <Tabs value={current ?? null} onChange={(v) => v && void navigate({ to: `${base}/${v}` })}>
        <Tabs.List>
          {tabs.map(([key, label]) => (
            <Tabs.Tab key={key} value={key}>
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </Stack>
  );
}
