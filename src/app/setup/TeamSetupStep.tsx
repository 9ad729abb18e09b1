// /setup/team-setup (§2.2): the administrator's teams page, creating within the setup.
import { TeamsPage } from '../admin/TeamsPage';

export const TeamSetupStep = () => <TeamsPage createPath="/setup/team-setup/create" />;
