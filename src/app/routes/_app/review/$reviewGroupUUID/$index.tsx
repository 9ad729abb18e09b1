import { createFileRoute } from '@tanstack/react-router';
import { ReviewerPage } from '../../../../reviews/ReviewerPage';

export const Route = createFileRoute('/_app/review/$reviewGroupUUID/$index')({
  component: ReviewerComponent,
});

function ReviewerComponent() {
  const p = Route.useParams();
  return <ReviewerPage reviewGroupUUID={p.reviewGroupUUID} index={Math.max(0, Number(p.index) || 0)} />;
}
