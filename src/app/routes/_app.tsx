// The signed-in area: everything under it needs a session (else /signin?continue=<here>) and shows the
// top bar and footer. The query-parameter modals of §2.3 are declared here so every page accepts them.
import { createFileRoute, redirect } from '@tanstack/react-router';
import { z } from 'zod';
import { AppLayout } from '../shell/AppLayout';
import { continueSearch } from '../lib/continue';

const modalParam = z.string().optional();

export const Route = createFileRoute('/_app')({
  validateSearch: z.object({
    bugreport: modalParam,
    'new-study': modalParam,
    'request-review': modalParam,
    fixUpload: modalParam,
    fixCreateUpload: modalParam,
  }),
  beforeLoad: ({ context, location }) => {
    if (context.session.state.status !== 'signedIn')
      throw redirect({ to: '/signin', search: continueSearch(location), replace: true });
  },
  component: AppLayout,
});
