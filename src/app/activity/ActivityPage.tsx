// /activity: the organization's activity feed (its own and its teams'), with filters.
import { PageFrame } from '../shell/data-view';
import { useMe } from '../session/session-context';
import { useOrganizations, treeOf } from '../admin/admin-data';
import { ActivityFeed } from './ActivityFeed';

export function ActivityPage() {
  const me = useMe();
  const orgs = useOrganizations();
  const tree = orgs ? treeOf(orgs, me.organization.id).map((o) => o.id) : [me.organization.id];
  return (
    <PageFrame title="Activity" subtitle={`What happened in ${me.organization.name} and its teams`}>
      <ActivityFeed scope="organization" organizationIds={tree} filters />
    </PageFrame>
  );
}
