import { createFileRoute } from '@tanstack/react-router';
import { PipelinesPage } from '../../../admin/catalog/PipelinesPage';

export const Route = createFileRoute('/_app/administrator/pipelines')({
  component: PipelinesPage,
});
