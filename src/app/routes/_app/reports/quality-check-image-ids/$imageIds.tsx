import { createFileRoute } from '@tanstack/react-router';
import { QcReport } from '../../../../reports/QcReport';
import { decodeImageIds } from '../../../../reports/paths';
import { qcReportQuery } from '../../../../reports/queries';

export const Route = createFileRoute('/_app/reports/quality-check-image-ids/$imageIds')({
  // The report's reads (server, then the local store) stay out of the app's first download.
  codeSplitGroupings: [['loader'], ['component']],
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(qcReportQuery({ imageIds: decodeImageIds(params.imageIds) }));
  },
  component: QcReportOfImagesComponent,
});

function QcReportOfImagesComponent() {
  const { imageIds } = Route.useParams();
  return <QcReport imageIds={decodeImageIds(imageIds)} />;
}
