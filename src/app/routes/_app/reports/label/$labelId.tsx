import { createFileRoute } from '@tanstack/react-router';
import { LabelReport } from '../../../../orders/print/LabelReport';

export const Route = createFileRoute('/_app/reports/label/$labelId')({
  component: C,
});

function C() {
  const { labelId } = Route.useParams();
  return <LabelReport labelId={labelId} />;
}
