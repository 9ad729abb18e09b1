import { createFileRoute } from '@tanstack/react-router';
import { DashboardLayout } from '../../dashboard/DashboardLayout';

export const Route = createFileRoute('/_app/dashboard')({ component: DashboardLayout });
