// Why Place Orders is disabled, said on the button's tooltip, in the order a user would fix things:
// the permission (§2.5), a study to order for, a staining pipeline, then the choices on the form. A
// study is the step users get stuck on: a technician may order but not create studies, so the tooltip
// names who can share one with them (people the local store knows who may share studies, judged by
// src/access as the server would).
import type { Organization, User } from '../../api/users';
import { Denied } from '../../api/messages';
import { canShareStudies } from '../../access';
import type { LocalDb } from '../../local/db';
import { readRows } from '../../local/read';
import { OrdersText } from './texts';

export interface PlaceBlock {
  reason: string;
  /** The line under the reason: whom to ask, or nothing. */
  hint: string | null;
}

export interface PlaceState {
  allowed: boolean;
  studies: number;
  pipelines: number;
  slidesChosen: boolean;
  pipelineChosen: boolean;
  studyChosen: boolean;
  expiryOk: boolean;
  /** Names of people who can share a study with the user. */
  sharers: readonly string[];
}

/** The first thing that keeps Place Orders disabled, or undefined when the orders can be placed. */
export function placeBlock(s: PlaceState): PlaceBlock | undefined {
  if (!s.allowed) return { reason: Denied.noOrderPermission, hint: Denied.contactAdmin };
  if (s.studies === 0) return { reason: OrdersText.noStudy, hint: OrdersText.askForStudy(s.sharers) };
  if (s.pipelines === 0) return { reason: OrdersText.noPipelines, hint: Denied.contactAdmin };
  if (!s.slidesChosen || !s.pipelineChosen || !s.studyChosen)
    return { reason: OrdersText.chooseAll, hint: null };
  if (!s.expiryOk) return { reason: OrdersText.badExpiry, hint: null };
  return undefined;
}

/** How many names the hint lists: enough to find someone, short enough for a tooltip. */
const SHARERS_SHOWN = 3;

/** Active people other than `meId` whom the local store knows and who may share studies, by name. */
export async function readStudySharers(db: LocalDb, meId: string): Promise<string[]> {
  const [users, organizations] = await Promise.all([
    readRows<User>(db, 'users', { where: (u) => u.id !== meId && u.status === 'active' }),
    readRows<Organization>(db, 'organizations'),
  ]);
  const orgs = new Map(organizations.map((o) => [o.id, o]));
  const names: string[] = [];
  for (const user of users) {
    const organization = orgs.get(user.organizationId);
    if (!organization || !canShareStudies({ user, organization })) continue;
    names.push(user.name || user.email);
  }
  return names.sort((a, b) => a.localeCompare(b)).slice(0, SHARERS_SHOWN);
}
