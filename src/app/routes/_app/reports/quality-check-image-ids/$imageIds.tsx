import { createFileRoute } from '@tanstack/react-router';
import { QcReport } from '../../../../reports/QcReport';
import { decodeImageIds } from '../../../../reports/paths';

export const Route = createFileRoute('/_app/reports/quality-check-image-ids/$imageIds')({
  component: C,
});

function C() {
  const { imageIds } = Route.useParams();
  return <QcReport imageIds={decodeImageIds(imageIds)} />;
}
