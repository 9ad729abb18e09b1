// /administrator: the admin areas the user may view as tabs (§2.2, §6.2 "Admin areas"), with the
// organization selection beside them. Areas the user may not view are not offered; opened by URL
// they say so instead of showing anything.
import type { ReactNode } from 'react';
import { Alert, Group, ScrollArea, Stack, Tabs, Title } from '@mantine/core';
import { Outlet, useLocation, useNavigate } from '@tanstack/react-router';
import { canViewAdminArea, type AdminAreaName, type AppAbility } from '../../access';
import { AnnotationClassText } from '../../api/annotation-classes';
import { AdminText } from '../../api/messages';
import { useAbility } from '../session/ability';
import { useSessionFollowsMirror } from './admin-data';
import { OrganizationSelectionProvider, SelectedOrganizationPicker } from './selection';

interface Tab {
  key: string;
  label: string;
  allowed(ability: AppAbility): boolean;
  /** The organization picker applies to this tab. */
  scoped: boolean;
}

const area = (name: AdminAreaName) => (ability: AppAbility) => canViewAdminArea(ability, name);
const catalogue = (ability: AppAbility) => ability.can('create', 'Organ');

export const ADMIN_TABS: Tab[] = [
  { key: 'organization', label: 'Organization', allowed: area('organization'), scoped: true },
  { key: 'teams', label: 'Teams', allowed: area('teams'), scoped: true },
  { key: 'user', label: 'Users', allowed: area('users'), scoped: true },
  { key: 'pictor-admin', label: 'Organizations', allowed: area('pictor-admin'), scoped: false },
  { key: 'activity', label: 'Activity', allowed: area('activity'), scoped: true },
  {
    key: 'annotation-classes',
    label: AnnotationClassText.tab,
    // Those who may add annotations somewhere manage that organization's classes.
    allowed: (ability) => ability.can('create', 'Annotation'),
    scoped: true,
  },
  { key: 'organs', label: 'Organs', allowed: catalogue, scoped: false },
  { key: 'pipelines', label: 'Pipelines', allowed: catalogue, scoped: false },
  { key: 'predictors', label: 'Predictors', allowed: catalogue, scoped: false },
];

export function AdminLayout() {
  const { ability } = useAbility();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  useSessionFollowsMirror();
  const tabs = ADMIN_TABS.filter((t) => t.allowed(ability));
  const current = ADMIN_TABS.find((t) => pathname.startsWith(`/administrator/${t.key}`));
  const allowed = !current || current.allowed(ability);
  return (
    <OrganizationSelectionProvider>
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <Title order={2}>Account Administrator</Title>
          {allowed && current?.scoped && <SelectedOrganizationPicker />}
        </Group>
        <ScrollArea type="never">
          <Tabs
            value={current?.key ?? null}
            onChange={(v) => v && void navigate({ to: `/administrator/${v}` })}
          >
            <Tabs.List style={{ flexWrap: 'nowrap' }}>
              {tabs.map((t) => (
                <Tabs.Tab key={t.key} value={t.key}>
                  {t.label}
                </Tabs.Tab>
              ))}
            </Tabs.List>
          </Tabs>
        </ScrollArea>
        {allowed ? <Outlet /> : <NoAccess />}
      </Stack>
    </OrganizationSelectionProvider>
  );
}

export function NoAccess({ children }: { children?: ReactNode }) {
  return (
    <Alert color="gray" variant="light" title={AdminText.noAccess}>
      {children}
    </Alert>
  );
}
