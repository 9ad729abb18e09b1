import { createFileRoute } from '@tanstack/react-router';
import { AppAccessPage } from '../../../../pages/AppAccessPage';

export const Route = createFileRoute('/_app/auth/app/$domain')({
  component: C,
});

function C() {
  const { domain } = Route.useParams();
  return <AppAccessPage domain={domain} />;
}
