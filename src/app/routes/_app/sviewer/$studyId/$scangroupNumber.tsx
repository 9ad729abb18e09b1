import { createFileRoute } from '@tanstack/react-router';
import { StudyViewerPage } from '../../../../studies/StudyViewerPage';
import { studyQuery } from '../../../../studies/queries';

export const Route = createFileRoute('/_app/sviewer/$studyId/$scangroupNumber')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(studyQuery(params.studyId));
  },
  component: StudyViewerComponent,
});

function StudyViewerComponent() {
  const p = Route.useParams();
  return <StudyViewerPage studyId={p.studyId} number={Number(p.scangroupNumber) || 1} />;
}
