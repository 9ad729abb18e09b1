// /dashboard: the tabs of spec §2.2 above the chosen view.
import { Tabs, Title, Stack } from '@mantine/core';
import { Outlet, useLocation, useNavigate } from '@tanstack/react-router';

const TABS = [
  ['recent-activity', 'Recent Activity'],
  ['reviews-and-qc', 'Reviews & QC'],
  ['organization-activity', 'Organization Activity'],
  ['collaborator-activity', 'Collaborator Activity'],
  ['slides', 'Slides'],
  ['studies', 'Studies'],
] as const;

export function DashboardLayout() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = TABS.find(([key]) => pathname.startsWith(`/dashboard/${key}`))?.[0] ?? 'recent-activity';
  return (
    <Stack gap="md">
      <Title order={2}>Dashboard</Title>
      <Tabs value={current} onChange={(v) => v && void navigate({ to: `/dashboard/${v}` as string })}>
        <Tabs.List>
          {TABS.map(([key, label]) => (
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
