import { createFileRoute } from '@tanstack/react-router';
import { AppAccessPage } from '../../../../auth/AppAccessPage';
import { appAccessQuery } from '../../../../auth/queries';

export const Route = createFileRoute('/_app/auth/app/$domain')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(appAccessQuery(params.domain));
  },
  component: AppAccessComponent,
});

function AppAccessComponent() {
  const { domain } = Route.useParams();
  return <AppAccessPage domain={domain} />;
}
