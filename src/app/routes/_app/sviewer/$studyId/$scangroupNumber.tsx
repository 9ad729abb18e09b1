import { createFileRoute } from '@tanstack/react-router';
import { StudyViewerPage } from '../../../../pages/slides';

export const Route = createFileRoute('/_app/sviewer/$studyId/$scangroupNumber')({
  component: C,
});

function C() {
  const p = Route.useParams();
  return <StudyViewerPage studyId={p.studyId} number={Number(p.scangroupNumber) || 1} />;
}
