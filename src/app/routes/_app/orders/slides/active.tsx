import { createFileRoute } from '@tanstack/react-router';
import { LabelsActivePage } from '../../../../pages/orders';

export const Route = createFileRoute('/_app/orders/slides/active')({
  component: LabelsActivePage,
});
