import { createFileRoute } from '@tanstack/react-router';
import { ImagePage } from '../../../pages/slides';

export const Route = createFileRoute('/_app/image/$imageId')({
  component: C,
});

function C() {
  const { imageId } = Route.useParams();
  return <ImagePage imageId={imageId} />;
}
