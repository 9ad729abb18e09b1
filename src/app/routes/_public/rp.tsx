import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ResetPasswordPage } from '../../auth/ResetPasswordPage';

export const Route = createFileRoute('/_public/rp')({
  validateSearch: z.object({ token: z.string().optional() }),
  component: ResetPasswordPage,
});
