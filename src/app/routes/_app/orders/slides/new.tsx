import { createFileRoute } from '@tanstack/react-router';
import { LabelsNewPage } from '../../../../pages/orders';

export const Route = createFileRoute('/_app/orders/slides/new')({
  component: LabelsNewPage,
});
