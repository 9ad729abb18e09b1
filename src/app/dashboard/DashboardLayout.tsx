// /dashboard: the tabs of spec §2.2 above the chosen view; /dashboard itself marks Recent Activity.
import { TabsLayout } from '../pages/TabsLayout';

const TABS = [
  ['recent-activity', 'Recent Activity'],
  ['reviews-and-qc', 'Reviews & QC'],
  ['organization-activity', 'Organization Activity'],
  ['collaborator-activity', 'Collaborator Activity'],
  ['slides', 'Slides'],
  ['studies', 'Studies'],
] as const;

export function DashboardLayout() {
  return <TabsLayout title="Dashboard" base="/dashboard" tabs={TABS} fallback="recent-activity" />;
}
