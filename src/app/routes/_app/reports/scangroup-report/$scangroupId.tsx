import { createFileRoute } from '@tanstack/react-router';
import { SlideReport } from '../../../../reports/SlideReport';
import { slideReportQuery } from '../../../../reports/queries';

export const Route = createFileRoute('/_app/reports/scangroup-report/$scangroupId')({
  // The report's reads (server, then the local store) stay out of the app's first download.
  codeSplitGroupings: [['loader'], ['component']],
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(slideReportQuery(params.scangroupId));
  },
  component: SlideReportComponent,
});

function SlideReportComponent() {
  const { scangroupId } = Route.useParams();
  return <SlideReport scanGroupId={scangroupId} />;
}
