import { createFileRoute } from '@tanstack/react-router';
import { RecentActivityPage } from '../../../dashboard/RecentActivityPage';

export const Route = createFileRoute('/_app/dashboard/recent-activity')({ component: RecentActivityPage });
