// Who is asking: the signed-in user and their organization, resolved once into effective policies
// and the organization id sets that rules and read scopes are written in.
import { effectivePolicies, type Policy } from './policies';

export interface ActorUser {
  id: string;
  organizationId: string;
  enabledPolicies: readonly string[];
}

export interface ActorOrganization {
  id: string;
  /** The top of the tree; a root organization's rootId is its own id. */
  rootId: string;
  /** Ancestors, nearest or farthest first: order does not matter here. */
  parentIds: readonly string[];
  /** Every descendant team, not only direct children. */
  childIds: readonly string[];
  enabledPolicies: readonly string[];
  availablePolicies: readonly string[];
}

export interface Actor {
  user: ActorUser;
  organization: ActorOrganization;
}

export interface ResolvedActor {
  userId: string;
  orgId: string;
  rootId: string;
  policies: readonly Policy[];
  /** Derived from the effective `superAdmin` policy, never stored on its own. */
  superAdmin: boolean;
  has(policy: Policy): boolean;
  /** Own organization and all its descendant teams: "their organization and child teams". */
  orgAndTeams: string[];
  /** Descendant teams only. */
  teams: string[];
  /** Ancestors only. */
  parents: string[];
}

export function isResolved(actor: Actor | ResolvedActor): actor is ResolvedActor {
  return 'userId' in actor;
}

/** Throws when the user is not a member of the organization given: that is a caller bug. */
export function resolveActor(actor: Actor | ResolvedActor): ResolvedActor {
  if (isResolved(actor)) return actor;
  const { user, organization: org } = actor;
  if (user.organizationId !== org.id) {
    throw new Error(`access: user ${user.id} is not in organization ${org.id}`);
  }
  const policies = effectivePolicies(user.enabledPolicies, org.enabledPolicies, org.availablePolicies);
  const set = new Set<Policy>(policies);
  const teams = [...new Set(org.childIds)].filter((id) => id !== org.id);
  return {
    userId: user.id,
    orgId: org.id,
    rootId: org.rootId,
    policies,
    superAdmin: set.has('superAdmin'),
    has: (p) => set.has(p),
    orgAndTeams: [org.id, ...teams],
    teams,
    parents: [...new Set(org.parentIds)].filter((id) => id !== org.id),
  };
}
