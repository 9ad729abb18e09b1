// Shared test world for src/access: one organization tree and a few users in and around it.
//
//   o-root ── o-lab (the actor's organization) ── o-team ── o-team2
//          └─ o-sib                      o-out (another root)
import { defineAbilityFor, POLICIES, asSubject, type Actor, type Policy } from '../../../src/access';
import type { Action, SubjectMap, SubjectType } from '../../../src/access';

export const ME = 'u-me';
export const PEER = 'u-peer';
export const LAB = 'o-lab';
export const ROOT = 'o-root';
export const TEAM = 'o-team';
export const TEAM2 = 'o-team2';
export const SIB = 'o-sib';
export const OUT = 'o-out';

/** The actor in o-lab with exactly these policies effective (the organization allows all 24). */
export function actor(policies: readonly Policy[] = []): Actor {
  return {
    user: { id: ME, organizationId: LAB, enabledPolicies: policies },
    organization: {
      id: LAB,
      rootId: ROOT,
      parentIds: [ROOT],
      childIds: [TEAM, TEAM2],
      enabledPolicies: POLICIES,
      availablePolicies: POLICIES,
    },
  };
}

export const abilityOf = (policies: readonly Policy[] = []) => defineAbilityFor(actor(policies));

/** One row of a rule table: with `policies`, may the actor do `action` on `row` (and `field`)? */
export interface Case<T extends SubjectType = SubjectType> {
  name: string;
  policies?: readonly Policy[];
  action: Action;
  type: T;
  row?: SubjectMap[T];
  field?: string;
  allow: boolean;
}

export function allows(c: Case): boolean {
  const ability = abilityOf(c.policies);
  const target = c.row === undefined ? c.type : asSubject(c.type, c.row);
  return ability.can(c.action, target, c.field);
}

/** Names the table rows the way STYLE §5 asks: "should allow/deny X when Y". */
export const title = (c: Case) => `should ${c.allow ? 'allow' : 'deny'} ${c.name}`;
