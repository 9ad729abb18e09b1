// /account-settings (§2.2): the tabs of the user's own account: basic information, permissions and
// the user's own activity.
import { TabsLayout } from '../shell/TabsLayout';

export const AccountLayout = () => (
  <TabsLayout
    title="Account Settings"
    base="/account-settings"
    tabs={[
      ['basic-information', 'Basic Information'],
      ['permissions', 'Permissions'],
      ['user-activity', 'User Activity'],
    ]}
  />
);
