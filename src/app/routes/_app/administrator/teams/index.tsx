import { createFileRoute } from '@tanstack/react-router';
import { TeamsPage } from '../../../../admin/TeamsPage';

export const Route = createFileRoute('/_app/administrator/teams/')({
  component: TeamsPage,
});
