// /dashboard/collaborator-activity: what others did to what the user can read (§2.2).
import { createFileRoute } from '@tanstack/react-router';
import { CollaboratorActivityPage } from '../../../dashboard/CollaboratorActivityPage';

export const Route = createFileRoute('/_app/dashboard/collaborator-activity')({
  component: CollaboratorActivityPage,
});
