// readScopeFor: the plain read descriptions the server turns into SQL must agree with the ability.
import { describe, expect, it } from 'vitest';
import {
  asSubject,
  defineAbilityFor,
  matchesReadScope,
  readScopeFor,
  readsAllOf,
  SUBJECT_TYPES,
} from '../../../src/access';
import type { InheritedAssignee, Policy, SubjectMap } from '../../../src/access';
import { actor, LAB, ME, OUT, PEER, ROOT, SIB, TEAM, TEAM2 } from './fixtures';

/** A row with every field any read rule looks at. */
interface ScopeRowLike {
  id: string;
  rootId: string;
  organizationId: string;
  creatorUserId: string;
  reviewerId: string;
  visibility: 'public' | 'private';
  assigneeUserIds: string[];
  assigneeOrgIds: string[];
  inheritedAssignees: InheritedAssignee[];
}

const ids = [ME, PEER, 'u-out'];
const orgs = [LAB, TEAM, TEAM2, ROOT, SIB, OUT];

/** Every combination that matters, small enough to enumerate. */
function rows(): ScopeRowLike[] {
  const out: ScopeRowLike[] = [];
  for (const organizationId of orgs)
    for (const creatorUserId of ids)
      for (const visibility of ['public', 'private'] as const)
        for (const assigneeUserIds of [[], [ME], [PEER]])
          for (const assigneeOrgIds of [[], [TEAM2], [OUT]])
            for (const inheritedAssignees of [
              [],
              [{ assigneeType: 'User' as const, assigneeId: ME }],
              [{ assigneeType: 'Organization' as const, assigneeId: LAB }],
              [{ assigneeType: 'Organization' as const, assigneeId: OUT }],
            ])
              out.push({
                id: organizationId,
                rootId: organizationId === OUT ? OUT : ROOT,
                organizationId,
                creatorUserId,
                reviewerId: creatorUserId === PEER ? ME : PEER,
                visibility,
                assigneeUserIds,
                assigneeOrgIds,
                inheritedAssignees,
              });
  return out;
}

const policySets: Policy[][] = [
  [],
  ['superAdmin'],
  ['platformScanManagement'],
  ['platformExperimentManagement'],
];

describe('readScopeFor agrees with the ability', () => {
  const all = rows();
  for (const policies of policySets) {
    for (const type of SUBJECT_TYPES.filter((t) => t !== 'AdminArea')) {
      it(`should allow and deny the same ${type} rows for [${policies.join(', ')}]`, () => {
        const ability = defineAbilityFor(actor(policies));
        const scope = readScopeFor(actor(policies), type);
        let allowed = 0;
        for (const row of all) {
          const viaScope = matchesReadScope(scope, row);
          // Every subject interface is a subset of ScopeRowLike's fields.
          expect(ability.can('read', asSubject(type, row as SubjectMap[typeof type]))).toBe(viaScope);
          if (viaScope) allowed++;
        }
        if (!scope.all) expect(allowed).toBeLessThan(all.length);
      });
    }
  }
});

describe('readScopeFor shapes', () => {
  it('should describe a member reading scan groups by organization, assignment and inheritance', () => {
    expect(readScopeFor(actor(), 'ScanGroup')).toEqual({
      all: false,
      organizationIds: [LAB, TEAM, TEAM2],
      assigneeUserId: ME,
      assigneeOrgIds: [LAB, TEAM, TEAM2],
      direct: true,
      inherited: true,
      creatorUserId: ME,
    });
  });

  it('should give platform scan managers all scan groups and deny them all studies', () => {
    expect(readScopeFor(actor(['platformScanManagement']), 'ScanGroup')).toEqual({ all: true });
    expect(readScopeFor(actor(['platformScanManagement']), 'Study')).toMatchObject({ all: false });
  });

  it('should limit reviews to public ones outside author and reviewer', () => {
    expect(readScopeFor(actor(), 'Review')).toMatchObject({
      publicOnly: true,
      reviewerId: ME,
      creatorUserId: ME,
    });
  });

  it('should let users see users of parent organizations but not of sibling teams', () => {
    const scope = readScopeFor(actor(), 'User');
    expect(matchesReadScope(scope, { organizationId: ROOT })).toBe(true);
    expect(matchesReadScope(scope, { organizationId: SIB })).toBe(false);
  });

  it('should let a member read organizations of the own root only', () => {
    const scope = readScopeFor(actor(), 'Organization');
    expect(matchesReadScope(scope, { id: SIB, rootId: ROOT })).toBe(true);
    expect(matchesReadScope(scope, { id: OUT, rootId: OUT })).toBe(false);
  });
});

describe('readsAllOf: a filter to these organizations implies the read scope', () => {
  const all = rows();
  const filters = [[LAB], [TEAM], [LAB, TEAM], [ROOT], [OUT], [LAB, OUT], [SIB], []];
  for (const policies of policySets) {
    for (const type of SUBJECT_TYPES.filter((t) => t !== 'AdminArea')) {
      it(`should only claim organizations whose every ${type} row is readable for [${policies.join(', ')}]`, () => {
        const ability = defineAbilityFor(actor(policies));
        const scope = readScopeFor(actor(policies), type);
        for (const filter of filters) {
          if (!readsAllOf(scope, filter)) continue;
          for (const row of all.filter((r) => filter.includes(r.organizationId)))
            expect(ability.can('read', asSubject(type, row as SubjectMap[typeof type]))).toBe(true);
        }
      });
    }
  }

  it("should hold for a member's own organization and teams, and not for another's", () => {
    const scope = readScopeFor(actor([]), 'ScanGroup');
    expect(readsAllOf(scope, [LAB, TEAM])).toBe(true);
    expect(readsAllOf(scope, [LAB, OUT])).toBe(false);
    expect(readsAllOf(scope, [])).toBe(false);
    expect(readsAllOf(readScopeFor(actor([]), 'Review'), [LAB])).toBe(false);
  });
});
