// QC requests (a pending QC review for someone else) and server-authoritative QC decisions:
// a result sent from an older copy is refused with 409 when another user decided meanwhile, and
// accepted when the same user decides again or when the client claims no copy.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, memberToken, startApp, type TestApp } from './helpers';
import { caller, reviewLab, type ReviewLab } from './reviews-fixture';
import { errorText } from '../../src/api/errors';

const targets = await dbTargets();

describe.each(targets)('QC requests and decisions on $name', (target) => {
  let t: TestApp;
  let lab: ReviewLab;
  let call: ReturnType<typeof caller>;
  const group = crypto.randomUUID();

  beforeAll(async () => {
    t = await startApp(target);
    lab = await reviewLab(t.app);
    call = caller(t.app);
  });
  afterAll(() => t.close());

  const qcRequest = (reviewerId: string, imageId: string) => ({
    review: { reviewGroupUUID: group, imageId, reviewerId, type: 'qc' },
  });

  it('a requester creates pending QC reviews for a reviewer; nobody may for themselves', async () => {
    const { requester, qc, plain } = lab.people;
    const res = await call(requester, 'POST', '/v2/reviews', qcRequest(qc.id, lab.images.img1));
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toMatchObject({ type: 'qc', qc: true, status: 'pending', reviewerId: qc.id });
    // Without manageOrganizationReview: the spec's denial.
    expect((await call(plain, 'POST', '/v2/reviews', qcRequest(qc.id, lab.images.img2))).statusCode).toBe(
      403,
    );
    // A QC reviewer without manageOrganizationReview cannot request one, even of themselves.
    expect((await call(qc, 'POST', '/v2/reviews', qcRequest(qc.id, lab.images.img2))).statusCode).toBe(403);
    // Without a reviewer it is a QC result, which needs its status.
    const missing = await call(qc, 'POST', '/v2/reviews', {
      review: { reviewGroupUUID: group, imageId: lab.images.img2, type: 'qc' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(errorText('QC_NEEDS_RESULT', { field: 'body.review.status' }));
  });

  it('refuses a decision made on an older copy after another reviewer decided', async () => {
    const { requester, qc } = lab.people;
    const second = await memberToken(t.app, {
      email: `qc2-${target.name}@lab.test`,
      organizationId: lab.orgs.lab,
      policies: ['manageOrganizationQC'],
    });
    const created = await call(requester, 'POST', '/v2/reviews', qcRequest(qc.id, lab.images.img3));
    const copy = created.json().result as { id: string; updatedAt: string };
    const url = `/v2/reviews/${copy.id}`;
    // The colleague decides first, online.
    const first = await call(second, 'PATCH', url, {
      review: { status: 'rejected', updatedAt: copy.updatedAt },
    });
    expect(first.statusCode).toBe(200);
    // The reviewer's offline decision, made on the pending copy, arrives later: refused, unchanged.
    const late = await call(qc, 'PATCH', url, { review: { status: 'accepted', updatedAt: copy.updatedAt } });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(
      errorText('QC_DECIDED_FIRST', { who: `qc2-${target.name}`, result: 'Failed' }),
    );
    const stored = (await call(qc, 'GET', url)).json().result;
    expect(stored.status).toBe('rejected');
    // Having seen the result (a current copy), the reviewer may change it.
    const seen = await call(qc, 'PATCH', url, { review: { status: 'flagged', updatedAt: stored.updatedAt } });
    expect(seen.statusCode).toBe(200);
    // Two decisions of one's own in a row, both from the old copy: the second is not a conflict.
    const again = await call(qc, 'PATCH', url, { review: { status: 'accepted', updatedAt: copy.updatedAt } });
    expect(again.statusCode).toBe(200);
    expect(again.json().result.status).toBe('accepted');
    // The group counts follow.
    const groups = await call(requester, 'GET', `/v2/reviews/groups?ids=${group}`);
    expect(groups.json().result[0]).toMatchObject({ total: 2, accepted: 1, pending: 1 });
  });
});
