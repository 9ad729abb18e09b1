import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ScanGroupViewerPage } from '../../../../pages/slides';

export const Route = createFileRoute('/_app/sgviewer/$scanGroupId/$imageIndex')({
  validateSearch: z.object({
    imageIndex: z.coerce.number().int().min(0).optional(),
    review: z.string().optional(),
    qc: z.string().optional(),
  }),
  component: C,
});

function C() {
  const p = Route.useParams();
  return <ScanGroupViewerPage scanGroupId={p.scanGroupId} imageIndex={Number(p.imageIndex) || 0} />;
}
