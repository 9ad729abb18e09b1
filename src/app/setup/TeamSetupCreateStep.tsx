// /setup/team-setup/create (§2.2): the administrator's team creation, back to the setup's teams.
import { TeamCreatePage } from '../admin/TeamCreatePage';

export const TeamSetupCreateStep = () => <TeamCreatePage backTo="/setup/team-setup" />;
