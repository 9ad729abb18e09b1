// What the Request Review dialog and the reviewer page never offer, the API refuses with a 400 naming
// the field and writes nothing: a requester as their own reviewer, a reviewer who could not act on the
// request (a QC check for someone without manageOrganizationQC), Pass/Fail/Flag on a standard review
// and completion on a QC one, a review joining a group of the other kind or of another study, and a
// study that does not hold the image. A request made from a study names it; the group keeps it.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studies } from '../../src/server/db/schema';
import { dbTargets, startApp, type TestApp } from './helpers';
import { caller, reviewLab, rowCount, type ReviewLab } from './reviews-fixture';
import { errorText } from '../../src/api/errors';

const targets = await dbTargets();

describe.each(targets)('review requests on $name', (target) => {
  let t: TestApp;
  let lab: ReviewLab;
  let call: ReturnType<typeof caller>;
  let studyId: string;

  beforeAll(async () => {
    t = await startApp(target);
    lab = await reviewLab(t.app);
    call = caller(t.app);
    // A study of slide S-1 (images img1 and img2) that the requester is an assignee of.
    studyId = crypto.randomUUID();
    await t.app.ctx.db.insert(studies).values({
      id: studyId,
      name: 'Liver panel',
      scanGroupIds: [lab.slides.s1],
      organizationId: lab.orgs.lab,
      creatorUserId: lab.people.requester.id,
      assigneeUserIds: [lab.people.requester.id],
      assigneeOrgIds: [lab.orgs.lab],
    });
  });
  afterAll(() => t.close());

  const post = (who: keyof ReviewLab['people'], review: object) =>
    call(lab.people[who], 'POST', '/v2/reviews', { review });
  /** Posts and expects a 400 with `message` that wrote nothing. */
  const refused = async (who: keyof ReviewLab['people'], review: object, message: string) => {
    const before = await rowCount(t.app, 'reviews');
    const res = await post(who, review);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await rowCount(t.app, 'reviews')).toBe(before);
  };

  it('never takes the requester as their own reviewer, for a review or a QC check', async () => {
    const { requester } = lab.people;
    for (const type of ['standard', 'qc'])
      await refused(
        'requester',
        { reviewGroupUUID: crypto.randomUUID(), imageId: lab.images.img1, reviewerId: requester.id, type },
        errorText('OWN_REVIEWER', { field: 'body.review.reviewerId' }),
      );
  });

  it('sends a QC check only to someone who can give QC results', async () => {
    const group = crypto.randomUUID();
    const qcCheck = (reviewerId: string) => ({
      reviewGroupUUID: group,
      imageId: lab.images.img1,
      reviewerId,
      type: 'qc',
    });
    await refused(
      'requester',
      qcCheck(lab.people.reviewer1.id),
      errorText('REVIEWER_CANNOT_QC', { field: 'body.review.reviewerId' }),
    );
    expect((await post('requester', qcCheck(lab.people.qc.id))).statusCode).toBe(200);
    // Anyone of the lab can complete a standard review.
    const standard = await post('requester', {
      reviewGroupUUID: crypto.randomUUID(),
      imageId: lab.images.img1,
      reviewerId: lab.people.plain.id,
    });
    expect(standard.statusCode).toBe(200);
  });

  it('refuses QC verbs on a standard review and completion on a QC one', async () => {
    const group = crypto.randomUUID();
    const made = await post('requester', {
      reviewGroupUUID: group,
      imageId: lab.images.img2,
      reviewerId: lab.people.qc.id,
    });
    expect(made.statusCode).toBe(200);
    const standardId = made.json().result.id as string;
    // Even a QC reviewer cannot pass, fail or flag the standard review they were asked for.
    for (const status of ['accepted', 'rejected', 'flagged']) {
      const res = await call(lab.people.qc, 'PATCH', `/v2/reviews/${standardId}`, { review: { status } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(errorText('STANDARD_STATUS_EXPECTED', { field: 'body.review.status' }));
    }
    await refused(
      'requester',
      {
        reviewGroupUUID: crypto.randomUUID(),
        imageId: lab.images.img2,
        reviewerId: lab.people.plain.id,
        status: 'accepted',
      },
      errorText('STANDARD_STATUS_EXPECTED', { field: 'body.review.status' }),
    );
    // A QC result cannot join the standard review's group; a comment can.
    await refused(
      'qc',
      { reviewGroupUUID: group, imageId: lab.images.img2, type: 'qc', status: 'flagged' },
      errorText('STANDARD_GROUP', { field: 'body.review.type' }),
    );
    expect(
      (
        await post('qc', {
          reviewGroupUUID: group,
          imageId: lab.images.img2,
          type: 'comment',
          comment: 'Fold',
        })
      ).statusCode,
    ).toBe(200);
    // The reviewer completes it, with a comment.
    const done = await call(lab.people.qc, 'PATCH', `/v2/reviews/${standardId}`, {
      review: { status: 'completed', comment: 'Stain even, no folds' },
    });
    expect(done.statusCode).toBe(200);

    const qcCheck = await post('requester', {
      reviewGroupUUID: crypto.randomUUID(),
      imageId: lab.images.img2,
      reviewerId: lab.people.qc.id,
      type: 'qc',
    });
    const completed = await call(lab.people.qc, 'PATCH', `/v2/reviews/${qcCheck.json().result.id}`, {
      review: { status: 'completed' },
    });
    expect(completed.statusCode).toBe(400);
    expect(completed.json().message).toBe(errorText('QC_STATUS_EXPECTED', { field: 'body.review.status' }));
  });

  it('keeps the study a group was requested from, and refuses another study or an image outside it', async () => {
    const group = crypto.randomUUID();
    const request = (extra: object) => ({
      reviewGroupUUID: group,
      imageId: lab.images.img1,
      reviewerId: lab.people.qc.id,
      type: 'qc',
      ...extra,
    });
    const first = await post('requester', request({ studyId }));
    expect(first.statusCode).toBe(200);
    expect(first.json().result.studyId).toBe(studyId);
    // A later review of the group that names no study belongs to the group's.
    const byQc = await post('qc', {
      reviewGroupUUID: group,
      imageId: lab.images.img2,
      type: 'qc',
      status: 'accepted',
    });
    expect(byQc.statusCode).toBe(200);
    expect(byQc.json().result.studyId).toBe(studyId);

    await refused(
      'requester',
      request({
        studyId: crypto.randomUUID(),
        reviewerId: lab.people.reviewer1.id,
        type: 'standard',
        reviewGroupUUID: crypto.randomUUID(),
      }),
      errorText('UNKNOWN_STUDY', { field: 'body.review.studyId' }),
    );
    await refused(
      'requester',
      request({ studyId, imageId: lab.images.img3, reviewGroupUUID: crypto.randomUUID() }),
      errorText('IMAGE_NOT_IN_STUDY', { field: 'body.review.imageId' }),
    );
    const otherStudy = crypto.randomUUID();
    await t.app.ctx.db.insert(studies).values({
      id: otherStudy,
      name: 'Kidney panel',
      scanGroupIds: [lab.slides.s1],
      organizationId: lab.orgs.lab,
      creatorUserId: lab.people.requester.id,
      assigneeUserIds: [lab.people.requester.id],
      assigneeOrgIds: [lab.orgs.lab],
    });
    await refused(
      'requester',
      request({ studyId: otherStudy, reviewerId: lab.people.qc.id, imageId: lab.images.img2 }),
      errorText('GROUP_OF_OTHER_STUDY', { field: 'body.review.studyId' }),
    );
    // Fixed once made.
    const moved = await call(lab.people.requester, 'PATCH', `/v2/reviews/${first.json().result.id}`, {
      review: { studyId: otherStudy },
    });
    expect(moved.statusCode).toBe(400);
  });
});
