import { createFileRoute } from '@tanstack/react-router';
import { OrgansPage } from '../../../admin/CatalogPages';

export const Route = createFileRoute('/_app/administrator/organs')({
  component: OrgansPage,
});
