// The setup steps work on the user's own organization (a new organization's administrator sets up
// their own lab): its row from the local mirror, undefined until read.
import { useOrganizations } from '../admin/admin-data';
import { useMe } from '../session/session-context';

export function useOwnOrganization() {
  const me = useMe();
  return useOrganizations()?.find((o) => o.id === me.organization.id);
}
