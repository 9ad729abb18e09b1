import { createFileRoute } from '@tanstack/react-router';
import { PipelinesPage } from '../../../admin/CatalogPages';

export const Route = createFileRoute('/_app/administrator/pipelines')({
  component: PipelinesPage,
});
