// Who can be named the reviewer of a request (canActOnRequest): anyone may complete a standard review,
// a QC check needs a QC reviewer, and the requester is never their own reviewer.
import { describe, expect, it } from 'vitest';
import { canActOnRequest, type RequestKind } from '../../../src/access';
import { abilityOf, LAB, ME, OUT, PEER } from './fixtures';

const asked = (kind: RequestKind, requesterId = PEER, organizationId = LAB) => ({
  kind,
  reviewerId: ME,
  requesterId,
  organizationId,
});

describe('canActOnRequest', () => {
  it('should allow anyone to be asked for a standard review', () => {
    expect(canActOnRequest(abilityOf(), asked('standard'))).toBe(true);
  });
  it('should allow a QC reviewer to be asked for a QC check, also from another organization', () => {
    expect(canActOnRequest(abilityOf(['manageOrganizationQC']), asked('qc'))).toBe(true);
    expect(canActOnRequest(abilityOf(['manageOrganizationQC']), asked('qc', PEER, OUT))).toBe(true);
  });
  it('should deny a QC check to someone without manageOrganizationQC', () => {
    expect(canActOnRequest(abilityOf(['manageOrganizationReview']), asked('qc'))).toBe(false);
  });
  it('should deny the requester as their own reviewer, whatever they may do', () => {
    expect(canActOnRequest(abilityOf(['superAdmin']), asked('standard', ME))).toBe(false);
    expect(canActOnRequest(abilityOf(['manageOrganizationQC']), asked('qc', ME))).toBe(false);
  });
});
