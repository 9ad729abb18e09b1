// /studies/{studyId}: the study page (§2.9), from the local store.
import { createFileRoute } from '@tanstack/react-router';
import { StudyDetailPage } from '../../../studies/StudyDetailPage';

export const Route = createFileRoute('/_app/studies/$studyId')({ component: StudyDetailComponent });

function StudyDetailComponent() {
  const { studyId } = Route.useParams();
  return <StudyDetailPage key={studyId} studyId={studyId} />;
}
