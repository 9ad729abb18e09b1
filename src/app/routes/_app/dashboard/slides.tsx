// /dashboard/slides: slide cards with the filter bar (§2.7, §2.9).
import { createFileRoute } from '@tanstack/react-router';
import { SlidesPage } from '../../../slides/SlidesPage';

export const Route = createFileRoute('/_app/dashboard/slides')({ component: SlidesPage });
