import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ActivatePage } from '../../auth/ActivatePage';

export const Route = createFileRoute('/_public/register')({
  validateSearch: z.object({ token: z.string().optional() }),
  component: ActivatePage,
});
