import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ScanGroupViewerPage } from '../../../../pages/slides';

export const Route = createFileRoute('/_app/sgviewer/$scanGroupId/')({
  validateSearch: z.object({
    imageIndex: z.coerce.number().int().min(0).optional(),
    review: z.string().optional(),
    qc: z.string().optional(),
  }),
  component: C,
});

function C() {
  const { scanGroupId } = Route.useParams();
  const s = Route.useSearch();
  return <ScanGroupViewerPage scanGroupId={scanGroupId} imageIndex={s.imageIndex} />;
}
