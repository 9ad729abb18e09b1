import { createFileRoute } from '@tanstack/react-router';
import { ActiveLabelsPage } from '../../../../orders/ActiveLabelsPage';

export const Route = createFileRoute('/_app/orders/slides/active')({
  component: ActiveLabelsPage,
});
