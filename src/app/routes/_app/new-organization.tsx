import { createFileRoute } from '@tanstack/react-router';
import { NewOrganizationPage } from '../../admin/NewOrganizationPage';

export const Route = createFileRoute('/_app/new-organization')({
  component: NewOrganizationPage,
});
