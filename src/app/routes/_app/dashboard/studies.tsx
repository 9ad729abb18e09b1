import { createFileRoute } from '@tanstack/react-router';
import { StudiesPage } from '../../../studies/StudiesPage';

// /dashboard/studies: the studies of the local store, with the 'Create New Study' tile (§2.9).
export const Route = createFileRoute('/_app/dashboard/studies')({ component: StudiesPage });
