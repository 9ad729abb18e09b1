import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ViewerPage } from '../../../../viewer/ViewerPage';

export const Route = createFileRoute('/_app/sgviewer/$scanGroupId/')({
  validateSearch: z.object({
    imageIndex: z.coerce.number().int().min(0).optional(),
    review: z.string().optional(),
    qc: z.string().optional(),
  }),
  component: ScanGroupViewerComponent,
});

function ScanGroupViewerComponent() {
  const { scanGroupId } = Route.useParams();
  const s = Route.useSearch();
  return <ViewerPage scanGroupId={scanGroupId} imageIndex={s.imageIndex} />;
}
