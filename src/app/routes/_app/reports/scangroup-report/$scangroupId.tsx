import { createFileRoute } from '@tanstack/react-router';
import { SlideReport } from '../../../../reports/SlideReport';

export const Route = createFileRoute('/_app/reports/scangroup-report/$scangroupId')({
  component: C,
});

function C() {
  const { scangroupId } = Route.useParams();
  return <SlideReport scanGroupId={scangroupId} />;
}
