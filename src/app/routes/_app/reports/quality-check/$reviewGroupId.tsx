import { createFileRoute } from '@tanstack/react-router';
import { QcReport } from '../../../../reports/QcReport';

export const Route = createFileRoute('/_app/reports/quality-check/$reviewGroupId')({
  component: C,
});

function C() {
  const { reviewGroupId } = Route.useParams();
  return <QcReport reviewGroupId={reviewGroupId} />;
}
