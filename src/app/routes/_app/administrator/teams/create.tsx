import { createFileRoute } from '@tanstack/react-router';
import { TeamCreatePage } from '../../../../admin/TeamCreatePage';

export const Route = createFileRoute('/_app/administrator/teams/create')({
  component: TeamCreatePage,
});
