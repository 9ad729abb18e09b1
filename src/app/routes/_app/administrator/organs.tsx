import { createFileRoute } from '@tanstack/react-router';
import { OrgansPage } from '../../../admin/catalog/OrgansPage';

export const Route = createFileRoute('/_app/administrator/organs')({
  component: OrgansPage,
});
