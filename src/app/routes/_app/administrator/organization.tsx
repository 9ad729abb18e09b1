import { createFileRoute } from '@tanstack/react-router';
import { OrganizationPage } from '../../../admin/OrganizationPage';

export const Route = createFileRoute('/_app/administrator/organization')({
  component: OrganizationPage,
});
