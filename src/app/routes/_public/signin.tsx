import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { SignInPage } from '../../auth/SignInPage';

export const Route = createFileRoute('/_public/signin')({
  validateSearch: z.object({ continue: z.string().optional() }),
  component: SignInPage,
});
