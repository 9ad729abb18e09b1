import { createFileRoute } from '@tanstack/react-router';
import { LabelReport } from '../../../../orders/print/LabelReport';

export const Route = createFileRoute('/_app/reports/label/$labelId')({
  component: LabelReportComponent,
});

function LabelReportComponent() {
  const { labelId } = Route.useParams();
  return <LabelReport labelId={labelId} />;
}
