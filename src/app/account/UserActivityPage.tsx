// /account-settings/user-activity (§2.2): the user's own activity, with the feed's filter bar.
import { ActivityFeed } from '../activity/ActivityFeed';

export function UserActivityPage() {
  return <ActivityFeed scope="mine" filters />;
}
