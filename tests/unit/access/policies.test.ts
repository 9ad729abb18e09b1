// The 24 policies and the effective-policy intersection (§6, §6.1).
import { describe, expect, it } from 'vitest';
import { POLICIES, effectivePolicies, isPolicy, resolveActor } from '../../../src/access';
import { actor, LAB, ME } from './fixtures';

describe('policies', () => {
  it('should list the 24 policies of §6.1 without duplicates', () => {
    expect(POLICIES).toHaveLength(24);
    expect(new Set(POLICIES).size).toBe(24);
  });

  it('should recognise policy names and reject others', () => {
    expect(isPolicy('manageOrganizationQC')).toBe(true);
    expect(isPolicy('admin')).toBe(false);
  });

  it('should allow a policy only when user, organization-enabled and organization-available all have it', () => {
    expect(
      effectivePolicies(
        ['createTeams', 'modifyTeams', 'modifyOrganization', 'superAdmin'],
        ['createTeams', 'modifyTeams', 'superAdmin'],
        ['createTeams', 'modifyOrganization', 'superAdmin'],
      ),
    ).toEqual(['createTeams', 'superAdmin']);
  });

  it('should deny a policy the organization enables but does not have available', () => {
    expect(effectivePolicies(['modifyTeams'], ['modifyTeams'], [])).toEqual([]);
  });

  it('should deny a policy the organization has but the user has not enabled', () => {
    expect(effectivePolicies([], ['modifyTeams'], ['modifyTeams'])).toEqual([]);
  });

  it("should keep the user's order and drop duplicates and unknown names", () => {
    const all = [...POLICIES];
    expect(
      effectivePolicies(
        ['uploadOrganizationImages', 'admin', 'createTeams', 'uploadOrganizationImages'],
        all,
        all,
      ),
    ).toEqual(['uploadOrganizationImages', 'createTeams']);
  });

  it('should derive super admin from the effective policies only', () => {
    const a = actor(['superAdmin']);
    expect(resolveActor(a).superAdmin).toBe(true);
    const disabled = { ...a, organization: { ...a.organization, enabledPolicies: [] } };
    expect(resolveActor(disabled).superAdmin).toBe(false);
  });

  it('should refuse an actor whose user is not in the given organization', () => {
    const a = actor();
    expect(() =>
      resolveActor({ ...a, user: { id: ME, organizationId: 'elsewhere', enabledPolicies: [] } }),
    ).toThrow();
    expect(resolveActor(a).orgAndTeams[0]).toBe(LAB);
  });
});
