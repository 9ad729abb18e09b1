import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { StudyReport } from '../../../../reports/StudyReport';
import { studyReportQuery } from '../../../../reports/queries';

export const Route = createFileRoute('/_app/reports/study-report/$studyId')({
  validateSearch: z.object({ numberOfAssays: z.coerce.number().int().min(0).optional().catch(undefined) }),
  // The report's reads (server, then the local store) stay out of the app's first download.
  codeSplitGroupings: [['loader'], ['component']],
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(studyReportQuery(params.studyId));
  },
  component: StudyReportComponent,
});

function StudyReportComponent() {
  const { studyId } = Route.useParams();
  const s = Route.useSearch();
  return <StudyReport studyId={studyId} numberOfAssays={s.numberOfAssays} />;
}
