import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { SignInPage } from '../../auth/SignInPage';
import { authOptionsQuery } from '../../auth/queries';

export const Route = createFileRoute('/_public/signin')({
  validateSearch: z.object({ continue: z.string().optional() }),
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(authOptionsQuery);
  },
  component: SignInPage,
});
