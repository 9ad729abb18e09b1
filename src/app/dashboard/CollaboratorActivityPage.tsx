// /dashboard/collaborator-activity (§2.2): what others did to what the user can read.
import { Stack, Title } from '@mantine/core';
import { ActivityFeed } from '../activity/ActivityFeed';

export function CollaboratorActivityPage() {
  return (
    <Stack gap="md">
      <Title order={3}>Collaborator Activity</Title>
      <ActivityFeed scope="collaborator" />
    </Stack>
  );
}
