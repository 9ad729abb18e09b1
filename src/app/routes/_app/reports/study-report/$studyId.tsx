import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { StudyReport } from '../../../../reports/StudyReport';

export const Route = createFileRoute('/_app/reports/study-report/$studyId')({
  validateSearch: z.object({ numberOfAssays: z.coerce.number().int().min(0).optional().catch(undefined) }),
  component: C,
});

function C() {
  const { studyId } = Route.useParams();
  const s = Route.useSearch();
  return <StudyReport studyId={studyId} numberOfAssays={s.numberOfAssays} />;
}
