import { createFileRoute } from '@tanstack/react-router';
import { AlignedViewerPage } from '../../../viewer/aligned/AlignedViewerPage';
import { alignmentQuery } from '../../../viewer/aligned/alignment-queries';

export const Route = createFileRoute('/_app/aligned/$alignmentId')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(alignmentQuery(params.alignmentId));
  },
  component: AlignedComponent,
});

function AlignedComponent() {
  const { alignmentId } = Route.useParams();
  return <AlignedViewerPage alignmentId={alignmentId} />;
}
