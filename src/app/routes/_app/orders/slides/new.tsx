import { createFileRoute } from '@tanstack/react-router';
import { LabelsNewPage } from '../../../../orders/LabelsNewPage';

export const Route = createFileRoute('/_app/orders/slides/new')({
  component: LabelsNewPage,
});
