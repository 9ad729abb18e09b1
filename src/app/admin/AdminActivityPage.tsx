// /administrator/activity: the selected organization's and its teams' activity.
import { ActivityFeed } from '../activity/ActivityFeed';
import { treeOf, useOrganizations } from './admin-data';
import { useSelection } from './selection';

export function AdminActivityPage() {
  const { selected } = useSelection();
  const orgs = useOrganizations();
  if (!selected || !orgs) return null;
  return (
    <ActivityFeed
      key={selected.id}
      scope="organization"
      organizationIds={treeOf(orgs, selected.id).map((o) => o.id)}
      filters
    />
  );
}
