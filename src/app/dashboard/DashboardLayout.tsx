// /dashboard: the tabs of spec §2.2 above the chosen view; /dashboard itself marks Recent Activity.
// Beside the title, the first-run checklist while a new lab is being set up.
import { TabsLayout } from '../shell/TabsLayout';
import { SetupChecklist } from '../setup/SetupChecklist';

const TABS = [
  ['recent-activity', 'Recent Activity'],
  ['reviews-and-qc', 'Reviews & QC'],
  ['organization-activity', 'Organization Activity'],
  ['collaborator-activity', 'Collaborator Activity'],
  ['slides', 'Slides'],
  ['studies', 'Studies'],
] as const;

export function DashboardLayout() {
  return (
    <TabsLayout
      title="Dashboard"
      base="/dashboard"
      tabs={TABS}
      fallback="recent-activity"
      aside={<SetupChecklist />}
    />
  );
}
