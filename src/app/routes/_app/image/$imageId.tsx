import { createFileRoute } from '@tanstack/react-router';
import { ImagePage } from '../../../slides/ImagePage';
import { imageQuery } from '../../../slides/queries';

export const Route = createFileRoute('/_app/image/$imageId')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(imageQuery(params.imageId));
  },
  component: ImageComponent,
});

function ImageComponent() {
  const { imageId } = Route.useParams();
  return <ImagePage imageId={imageId} />;
}
