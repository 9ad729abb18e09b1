// /dashboard/organization-activity: what happened in the user's organization (§2.2).
import { createFileRoute } from '@tanstack/react-router';
import { OrganizationActivityPage } from '../../../dashboard/OrganizationActivityPage';

export const Route = createFileRoute('/_app/dashboard/organization-activity')({
  component: OrganizationActivityPage,
});
