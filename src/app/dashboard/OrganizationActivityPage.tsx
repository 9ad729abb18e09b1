// /dashboard/organization-activity (§2.2): what happened in the user's organization.
import { Stack, Title } from '@mantine/core';
import { ActivityFeed } from '../activity/ActivityFeed';

export function OrganizationActivityPage() {
  return (
    <Stack gap="md">
      <Title order={3}>Organization Activity</Title>
      <ActivityFeed scope="organization" />
    </Stack>
  );
}
