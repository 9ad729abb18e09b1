import { createFileRoute } from '@tanstack/react-router';
import { ActiveReviewsPage } from '../../../reviews/ActiveReviewsPage';

export const Route = createFileRoute('/_app/dashboard/reviews-and-qc')({
  component: ActiveReviewsPage,
});
