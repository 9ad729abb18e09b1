import { createFileRoute } from '@tanstack/react-router';
import { PredictorsPage } from '../../../admin/catalog/PredictorsPage';

export const Route = createFileRoute('/_app/administrator/predictors')({
  component: PredictorsPage,
});
