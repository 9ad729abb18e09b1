// /image-selection, optionally ?studyId= (§2.2, §2.8): the slide selection popup.
import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ImageSelectionPage } from '../../image-selection/ImageSelectionPage';

export const Route = createFileRoute('/_app/image-selection')({
  // Loose: the filter bar keeps its own parameters in the URL too.
  validateSearch: z.looseObject({ studyId: z.string().optional() }),
  component: ImageSelectionComponent,
});

function ImageSelectionComponent() {
  const s = Route.useSearch();
  return <ImageSelectionPage studyId={s.studyId} />;
}
