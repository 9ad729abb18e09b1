// /v2/reviews through HTTP on PGlite and PostgreSQL: requesting reviews, QC results and comments under
// the §6.2 rules, the §7 list filters, reads limited to what the caller may see, and bad input.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Denied } from '../../src/api/messages';
import { AccessText } from '../../src/api/access-messages';
import { activities, reviews } from '../../src/server/db/schema';
import { dbTargets, startApp, type TestApp } from './helpers';
import { caller, reviewLab, rowCount, type ReviewLab } from './reviews-fixture';
import { errorText } from '../../src/api/errors';

const targets = await dbTargets();

describe.each(targets)('reviews on $name', (target) => {
  let t: TestApp;
  let lab: ReviewLab;
  let call: ReturnType<typeof caller>;
  const group = crypto.randomUUID();
  let review1: string;
  let review2: string;

  beforeAll(async () => {
    t = await startApp(target);
    lab = await reviewLab(t.app);
    call = caller(t.app);
  });
  afterAll(() => t.close());

  const request = (reviewerId: string, imageId = lab.images.img1, extra: object = {}) => ({
    review: { reviewGroupUUID: group, imageId, reviewerId, ...extra },
  });

  describe('POST /v2/reviews', () => {
    it('requests a review: pending, standard, public, owned by the caller', async () => {
      const { requester, reviewer1, reviewer2 } = lab.people;
      const res = await call(requester, 'POST', '/v2/reviews', request(reviewer1.id));
      expect(res.statusCode).toBe(200);
      const review = res.json().result;
      expect(review).toMatchObject({
        reviewGroupUUID: group,
        imageId: lab.images.img1,
        reviewerId: reviewer1.id,
        creatorUserId: requester.id,
        organizationId: lab.orgs.lab,
        status: 'pending',
        type: 'standard',
        visibility: 'public',
        qc: false,
        comment: '',
      });
      review1 = review.id;
      const second = await call(requester, 'POST', '/v2/reviews', request(reviewer2.id));
      expect(second.statusCode).toBe(200);
      review2 = second.json().result.id;
      const [stored] = await t.app.ctx.db.select().from(reviews).where(eq(reviews.id, review1));
      expect(stored.status).toBe('pending');
      const logged = await t.app.ctx.db.select().from(activities).where(eq(activities.referenceId, review1));
      expect(logged.map((a) => a.actionType)).toEqual(['create']);
    });

    it('refuses a second review of the same image by the same reviewer in the group (409)', async () => {
      const before = await rowCount(t.app, 'reviews');
      const res = await call(lab.people.requester, 'POST', '/v2/reviews', request(lab.people.reviewer1.id));
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(errorText('DUPLICATE_REVIEW'));
      expect(await rowCount(t.app, 'reviews')).toBe(before);
    });

    it("refuses reviews made out for someone else: 'You can only create reviews for yourself'", async () => {
      const { requester, reviewer1, plain } = lab.people;
      const res = await call(
        requester,
        'POST',
        '/v2/reviews',
        request(reviewer1.id, lab.images.img2, { creatorUserId: plain.id }),
      );
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(Denied.reviewsForYourself);
    });

    it('needs manageOrganizationReview to request a standard review', async () => {
      const before = await rowCount(t.app, 'reviews');
      const res = await call(
        lab.people.plain,
        'POST',
        '/v2/reviews',
        request(lab.people.reviewer1.id, lab.images.img2),
      );
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(Denied.noReviewPermission);
      const completed = await call(
        lab.people.requester,
        'POST',
        '/v2/reviews',
        request(lab.people.reviewer1.id, lab.images.img2, { status: 'completed' }),
      );
      expect(completed.statusCode).toBe(403);
      expect(await rowCount(t.app, 'reviews')).toBe(before);
    });

    it('lets anyone add a completed comment review, reviewed by themselves', async () => {
      const res = await call(lab.people.plain, 'POST', '/v2/reviews', {
        review: {
          reviewGroupUUID: crypto.randomUUID(),
          imageId: lab.images.img1,
          type: 'comment',
          comment: 'Nice',
        },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().result).toMatchObject({
        type: 'comment',
        status: 'completed',
        reviewerId: lab.people.plain.id,
        comment: 'Nice',
      });
      const pending = await call(lab.people.plain, 'POST', '/v2/reviews', {
        review: {
          reviewGroupUUID: crypto.randomUUID(),
          imageId: lab.images.img1,
          type: 'comment',
          status: 'pending',
        },
      });
      expect(pending.statusCode).toBe(403);
    });

    it('lets QC reviewers record accepted, rejected or flagged, and nobody else', async () => {
      const qcGroup = crypto.randomUUID();
      const qc = (who = lab.people.qc, extra: object = {}) =>
        call(who, 'POST', '/v2/reviews', {
          review: {
            reviewGroupUUID: qcGroup,
            imageId: lab.images.img3,
            qc: true,
            status: 'flagged',
            ...extra,
          },
        });
      const ok = await qc();
      expect(ok.statusCode).toBe(200);
      expect(ok.json().result).toMatchObject({
        type: 'qc',
        qc: true,
        status: 'flagged',
        reviewerId: lab.people.qc.id,
      });
      expect((await qc(lab.people.plain, { imageId: lab.images.img2 })).statusCode).toBe(403);
      const pending = await qc(lab.people.qc, { imageId: lab.images.img2, status: 'pending' });
      expect(pending.statusCode).toBe(403);
      const missing = await qc(lab.people.qc, { imageId: lab.images.img2, status: undefined });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toBe(errorText('QC_NEEDS_RESULT', { field: 'body.review.status' }));
      const mismatch = await qc(lab.people.qc, { type: 'standard' });
      expect(mismatch.statusCode).toBe(400);
      expect(mismatch.json().message).toBe(errorText('QC_MISMATCH', { field: 'body.review.qc' }));
    });

    it('names the field of bad input and writes nothing', async () => {
      const { requester, reviewer1, outsider } = lab.people;
      const before = await rowCount(t.app, 'reviews');
      const cases: Array<[object, string]> = [
        [request(reviewer1.id, 'not-an-id'), 'body.review.imageId: must be a valid id'],
        [
          request(reviewer1.id, crypto.randomUUID()),
          errorText('UNKNOWN_IMAGE', { field: 'body.review.imageId' }),
        ],
        [
          request(reviewer1.id, lab.images.other),
          errorText('UNKNOWN_IMAGE', { field: 'body.review.imageId' }),
        ],
        [
          request(outsider.id, lab.images.img2),
          errorText('UNKNOWN_REVIEWER', { field: 'body.review.reviewerId' }),
        ],
        [
          { review: { reviewGroupUUID: group, imageId: lab.images.img2 } },
          errorText('REVIEWER_REQUIRED', { field: 'body.review.reviewerId' }),
        ],
        [request(reviewer1.id, lab.images.img2, { status: 'done' }), 'body.review.status: '],
        [request(reviewer1.id, lab.images.img2, { comment: 'x'.repeat(5001) }), 'body.review.comment: '],
        [request(reviewer1.id, lab.images.img2, { colour: 'red' }), 'body.review: '],
        [
          request(reviewer1.id, lab.images.img2, { assigneeOrgIds: [lab.orgs.other] }),
          'body.review.assigneeOrgIds: ',
        ],
        [{ reviewGroupUUID: group }, 'body'],
      ];
      for (const [payload, message] of cases) {
        const res = await call(requester, 'POST', '/v2/reviews', payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().message.startsWith(message), res.json().message).toBe(true);
      }
      const broken = await t.app.inject({
        method: 'POST',
        url: '/v2/reviews',
        headers: { authorization: `Bearer ${requester.token}`, 'content-type': 'application/json' },
        payload: '{"review":',
      });
      expect(broken.statusCode).toBe(400);
      expect(await rowCount(t.app, 'reviews')).toBe(before);
      expect((await call(undefined, 'POST', '/v2/reviews', request(reviewer1.id))).statusCode).toBe(401);
    });
  });

  describe('GET /v2/reviews', () => {
    const list = async (who: ReviewLab['people'][keyof ReviewLab['people']], qs: string) => {
      const res = await call(who, 'GET', `/v2/reviews?${qs}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as {
        result: Array<{ id: string; status: string }>;
        count: number;
        page: number;
        limit: number;
      };
    };

    it('filters by group, image (repeated), statuses, type, reviewer and slide simple id', async () => {
      const { requester, reviewer1 } = lab.people;
      const byGroup = await list(requester, `reviewGroupUUID=${group}`);
      expect(byGroup.count).toBe(2);
      expect(byGroup).toMatchObject({ page: 1, limit: 10 });
      const byImages = await list(requester, `imageId=${lab.images.img1}&imageId=${lab.images.img3}`);
      expect(byImages.count).toBe(4);
      expect((await list(requester, 'statuses=pending&statuses=flagged')).count).toBe(3);
      expect((await list(requester, 'type=qc')).count).toBe(1);
      expect((await list(requester, `reviewerId=${reviewer1.id}`)).result.map((r) => r.id)).toEqual([
        review1,
      ]);
      expect((await list(requester, 'scanGroupSimpleId=S-2')).count).toBe(1);
      expect((await list(requester, 'scanGroupSimpleId=S-404')).count).toBe(0);
      const paged = await list(requester, 'limit=1&page=2&orderDirection=asc');
      expect(paged.result).toHaveLength(1);
      expect(paged.count).toBe(4);
    });

    it('shows others only what they may read: nothing of the lab to another organization', async () => {
      expect((await list(lab.people.outsider, '')).count).toBe(0);
      expect((await list(lab.people.reviewer1, `reviewGroupUUID=${group}`)).count).toBe(2);
    });

    it('refuses bad filters', async () => {
      const bad = ['limit=101', 'page=0', 'imageId=zz', 'statuses=done', 'type=other', 'orderBy=name'];
      for (const qs of bad) {
        const res = await call(lab.people.requester, 'GET', `/v2/reviews?${qs}`);
        expect(res.statusCode, qs).toBe(400);
        expect(res.json().message).toMatch(/^querystring\./);
      }
      expect((await call(lab.people.requester, 'GET', '/v2/reviews?limit=101')).json().message).toBe(
        'querystring.limit: limit is at most 100',
      );
    });
  });

  describe('GET and PATCH /v2/reviews/:id', () => {
    it('reads one review, 404 when unreadable or unknown, 400 when malformed', async () => {
      const ok = await call(lab.people.reviewer1, 'GET', `/v2/reviews/${review1}`);
      expect(ok.statusCode).toBe(200);
      expect(ok.json().result.id).toBe(review1);
      const hidden = await call(lab.people.outsider, 'GET', `/v2/reviews/${review1}`);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().message).toBe('Review not found');
      expect((await call(lab.people.reviewer1, 'GET', `/v2/reviews/${crypto.randomUUID()}`)).statusCode).toBe(
        404,
      );
      expect((await call(lab.people.reviewer1, 'GET', '/v2/reviews/abc')).statusCode).toBe(400);
    });

    it('lets the reviewer complete their pending review and nobody else', async () => {
      const { reviewer1, reviewer2 } = lab.people;
      const other = await call(reviewer2, 'PATCH', `/v2/reviews/${review1}`, {
        review: { status: 'completed' },
      });
      expect(other.statusCode).toBe(403);
      expect(other.json().message).toBe(AccessText.generic);
      const accepted = await call(reviewer1, 'PATCH', `/v2/reviews/${review1}`, {
        review: { status: 'accepted' },
      });
      // Pass, Fail and Flag are QC verbs: on a standard review a 400 that says so.
      expect(accepted.statusCode).toBe(400);
      expect(accepted.json().message).toBe(
        errorText('STANDARD_STATUS_EXPECTED', { field: 'body.review.status' }),
      );
      const done = await call(reviewer1, 'PATCH', `/v2/reviews/${review1}`, {
        review: { status: 'completed', comment: 'Looks fine' },
      });
      expect(done.statusCode).toBe(200);
      expect(done.json().result).toMatchObject({ status: 'completed', comment: 'Looks fine' });
      const again = await call(reviewer1, 'PATCH', `/v2/reviews/${review1}`, {
        review: { status: 'pending' },
      });
      expect(again.statusCode).toBe(403);
      const logged = await t.app.ctx.db.select().from(activities).where(eq(activities.referenceId, review1));
      expect(logged.map((a) => a.actionType).sort()).toEqual(['create', 'review']);
    });

    it('lets the requester edit the comment of a pending review, and fixes what it is about', async () => {
      const { requester } = lab.people;
      const edited = await call(requester, 'PATCH', `/v2/reviews/${review2}`, {
        review: { comment: 'Please check' },
      });
      expect(edited.statusCode).toBe(200);
      const whole = edited.json().result;
      const { id: _id, ...withoutId } = whole;
      const echo = await call(requester, 'PATCH', `/v2/reviews/${review2}`, { review: withoutId });
      expect(echo.statusCode).toBe(200);
      expect(echo.json().result.updatedAt).toBe(whole.updatedAt);
      const moved = await call(requester, 'PATCH', `/v2/reviews/${review2}`, {
        review: { imageId: lab.images.img2 },
      });
      expect(moved.statusCode).toBe(400);
      expect(moved.json().message).toBe('body.review.imageId: cannot be changed once the review exists');
      const withId = await call(requester, 'PATCH', `/v2/reviews/${review2}`, { review: { id: review2 } });
      expect(withId.statusCode).toBe(400);
      expect(
        (await call(requester, 'PATCH', `/v2/reviews/${crypto.randomUUID()}`, { review: {} })).statusCode,
      ).toBe(404);
    });

    it('lets QC reviewers change a QC result only to another result', async () => {
      const [qcReview] = await t.app.ctx.db.select().from(reviews).where(eq(reviews.type, 'qc'));
      const url = `/v2/reviews/${qcReview.id}`;
      expect((await call(lab.people.qc, 'PATCH', url, { review: { status: 'rejected' } })).statusCode).toBe(
        200,
      );
      expect((await call(lab.people.qc, 'PATCH', url, { review: { status: 'pending' } })).statusCode).toBe(
        403,
      );
      expect(
        (await call(lab.people.plain, 'PATCH', url, { review: { status: 'accepted' } })).statusCode,
      ).toBe(403);
      const [stored] = await t.app.ctx.db.select().from(reviews).where(eq(reviews.id, qcReview.id));
      expect(stored.status).toBe('rejected');
    });

    it("lets authors edit their own comment's comment, status and visibility", async () => {
      const [comment] = await t.app.ctx.db.select().from(reviews).where(eq(reviews.type, 'comment'));
      const url = `/v2/reviews/${comment.id}`;
      const mine = await call(lab.people.plain, 'PATCH', url, {
        review: { comment: 'Edited', visibility: 'private' },
      });
      expect(mine.statusCode).toBe(200);
      expect(mine.json().result).toMatchObject({ comment: 'Edited', visibility: 'private' });
      // Private now: other members of the lab no longer see it at all.
      expect((await call(lab.people.reviewer1, 'PATCH', url, { review: { comment: 'x' } })).statusCode).toBe(
        404,
      );
      expect((await call(lab.people.reviewer1, 'GET', url)).statusCode).toBe(404);
      expect((await call(lab.people.plain, 'GET', url)).statusCode).toBe(200);
    });
  });

  it('lets assignees read public reviews, and only public ones', async () => {
    const { requester, reviewer1, teamMember } = lab.people;
    const res = await call(requester, 'POST', '/v2/reviews', {
      review: {
        reviewGroupUUID: crypto.randomUUID(),
        imageId: lab.images.img3,
        reviewerId: reviewer1.id,
        assigneeUserIds: [teamMember.id],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const url = `/v2/reviews/${res.json().result.id}`;
    // A team does not read its parent organization's reviews, unless assigned.
    expect((await call(teamMember, 'GET', `/v2/reviews/${review1}`)).statusCode).toBe(404);
    expect((await call(teamMember, 'GET', url)).statusCode).toBe(200);
    expect((await call(reviewer1, 'PATCH', url, { review: { visibility: 'private' } })).statusCode).toBe(200);
    expect((await call(teamMember, 'GET', url)).statusCode).toBe(404);
    expect((await call(requester, 'GET', url)).statusCode).toBe(200);
  });

  it('feeds reviews to the sync pull of those who may read them', async () => {
    const pull = async (who: ReviewLab['people']['requester']) => {
      const res = await call(who, 'GET', '/v2/sync/reviews?limit=100');
      expect(res.statusCode).toBe(200);
      return (res.json().result as Array<{ id: string }>).map((r) => r.id);
    };
    expect(await pull(lab.people.requester)).toEqual(expect.arrayContaining([review1, review2]));
    expect(await pull(lab.people.outsider)).toEqual([]);
  });
});
