import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ViewerPage } from '../../../../viewer/ViewerPage';

export const Route = createFileRoute('/_app/sgviewer/$scanGroupId/$imageIndex')({
  validateSearch: z.object({
    imageIndex: z.coerce.number().int().min(0).optional(),
    review: z.string().optional(),
    qc: z.string().optional(),
  }),
  component: ScanGroupImageViewerComponent,
});

function ScanGroupImageViewerComponent() {
  const p = Route.useParams();
  return <ViewerPage scanGroupId={p.scanGroupId} imageIndex={Number(p.imageIndex) || 0} />;
}
