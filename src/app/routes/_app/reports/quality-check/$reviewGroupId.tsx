import { createFileRoute } from '@tanstack/react-router';
import { QcReport } from '../../../../reports/QcReport';
import { qcReportQuery } from '../../../../reports/queries';

export const Route = createFileRoute('/_app/reports/quality-check/$reviewGroupId')({
  // The report's reads (server, then the local store) stay out of the app's first download.
  codeSplitGroupings: [['loader'], ['component']],
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(qcReportQuery({ groupId: params.reviewGroupId }));
  },
  component: QcReportOfGroupComponent,
});

function QcReportOfGroupComponent() {
  const { reviewGroupId } = Route.useParams();
  return <QcReport reviewGroupId={reviewGroupId} />;
}
