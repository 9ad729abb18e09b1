// /setup/organization-setup (§2.2): the organization's details, the administrator page's editor
// without the policies (they are the next step).
import { OrganizationEditor } from '../admin/OrganizationPage';
import { useOwnOrganization } from './use-own-organization';

export function OrganizationSetupStep() {
  const org = useOwnOrganization();
  if (!org) return null;
  return <OrganizationEditor org={org} showPolicies={false} />;
}
